// optics_capture_writer CAPTURE_DIR NETDEV IMAGE_NAME [--rx-power-scale=X]
//                       [--empty-cage=no-data|eio] [--ifindex=N]
// optics_capture_writer --list
//
// Writes under CAPTURE_DIR/kernel/ the answers a real node's kernel gives for the transceiver
// module IMAGE_NAME (an image of tests/exporter/optics/images.h) plugged into NETDEV: the ethtool
// netlink MODULE_EEPROM_GET replies for every page the optics source reads, and the ioctl
// GMODULEINFO/GMODULEEEPROM answers. IMAGE_NAME "none" writes the answers of an empty cage
// (mlx5: a reply without data bytes before Linux 6.18, --empty-cage=eio for EIO as newer
// kernels answer). --rx-power-scale multiplies every lane's RX power (and raises the RX power
// flags the module would raise against its own thresholds), for seeded faults. --list prints
// the image names. Exit status 0 on success, 1 with a message otherwise.

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "exporter/optics/optics_capture.h"

namespace {

namespace ot = rocewatch::optics::testing;

int Usage(const char* argv0) {
  std::fprintf(stderr,
               "usage: %s CAPTURE_DIR NETDEV IMAGE_NAME [--rx-power-scale=X] "
               "[--empty-cage=no-data|eio] [--ifindex=N]\n"
               "       %s --list\n"
               "IMAGE_NAME is one of --list, or none for an empty cage\n",
               argv0, argv0);
  return 1;
}

bool ParseNumber(std::string_view text, double& out) {
  std::string s(text);
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return !s.empty() && end == s.c_str() + s.size();
}

}  // namespace

int main(int argc, char** argv) {
  const char* argv0 = argc > 0 ? argv[0] : "optics_capture_writer";
  if (argc == 2 && std::string_view(argv[1]) == "--list") {
    for (const auto& name : ot::ImageNames()) std::printf("%s\n", name.c_str());
    std::printf("none\n");
    return 0;
  }
  if (argc < 4) return Usage(argv0);
  const std::string dir = argv[1], netdev = argv[2], name = argv[3];
  ot::CaptureOptions options;
  ot::EmptyCageAnswer empty = ot::EmptyCageAnswer::kNoData;
  for (int i = 4; i < argc; ++i) {
    std::string_view arg = argv[i];
    double value = 0;
    if (arg.rfind("--rx-power-scale=", 0) == 0) {
      if (!ParseNumber(arg.substr(17), value) || value < 0) {
        std::fprintf(stderr, "%s: --rx-power-scale wants a number >= 0, not %s\n", argv0, argv[i]);
        return 1;
      }
      options.rx_power_scale = value;
    } else if (arg == "--empty-cage=no-data") {
      empty = ot::EmptyCageAnswer::kNoData;
    } else if (arg == "--empty-cage=eio") {
      empty = ot::EmptyCageAnswer::kEio;
    } else if (arg.rfind("--ifindex=", 0) == 0) {
      if (!ParseNumber(arg.substr(10), value) || value < 1 || value > 0x7fffffff ||
          value != static_cast<double>(static_cast<std::uint32_t>(value))) {
        std::fprintf(stderr, "%s: --ifindex wants a positive integer, not %s\n", argv0, argv[i]);
        return 1;
      }
      options.ifindex = static_cast<std::uint32_t>(value);
    } else {
      std::fprintf(stderr, "%s: unknown argument %s\n", argv0, argv[i]);
      return Usage(argv0);
    }
  }
  rocewatch::Status s;
  if (name == "none") {
    if (options.rx_power_scale) {
      std::fprintf(stderr, "%s: --rx-power-scale needs a module, not an empty cage\n", argv0);
      return 1;
    }
    s = ot::WriteEmptyCage(dir, netdev, empty, options);
  } else {
    auto image = ot::ImageByName(name);
    if (!image) {
      std::fprintf(stderr, "%s: no image named %s (see --list)\n", argv0, name.c_str());
      return 1;
    }
    s = ot::WriteModule(dir, netdev, *image, options);
  }
  if (!s) {
    std::fprintf(stderr, "%s: %s\n", argv0, s.error().message.c_str());
    return 1;
  }
  std::printf("%s/kernel: %s answers for %s\n", dir.c_str(), name.c_str(), netdev.c_str());
  return 0;
}
