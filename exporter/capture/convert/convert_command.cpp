#include "exporter/capture/convert/convert_command.h"

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "exporter/capture/convert/capture_answers.h"
#include "exporter/capture/convert/ethtool_stats_text.h"
#include "exporter/optics/decode.h"
#include "rocewatch/flags.h"
#include "rocewatch/read_file.h"

namespace rocewatch::cli {
namespace {

constexpr std::size_t kMaxDumpBytes = 16u << 20;  // a pasted dump is kilobytes

constexpr const char* kUsage =
    "usage: roce_exporter convert ethtool-S --netdev DEV [--driver NAME] [--firmware VERSION]\n"
    "                             [--description TEXT] FILE DIR\n"
    "       roce_exporter convert ethtool-m --netdev DEV [--description TEXT] FILE DIR\n\n"
    "Turns what `ethtool -S DEV` printed (ethtool-S), or the dump of `ethtool -m DEV hex on`\n"
    "or `raw on` (ethtool-m), into the kernel answers of the capture directory DIR, so that\n"
    "`roce_exporter --replay DIR` serves it. DIR is created when missing; a capture.json and\n"
    "the netdev's sysfs directory are added when DIR has none, and the answers for DEV are\n"
    "replaced. --driver and --firmware are what `ethtool -i DEV` says (driver, firmware-version).\n"
    "\nFlags (ethtool-S; ethtool-m takes the first three):\n";

int Fail(const std::string& message) {
  std::fprintf(stderr, "roce_exporter convert: %s\n", message.c_str());
  return 1;
}

struct Args {
  std::string what, netdev, file, dir, description;
  std::optional<std::string> driver, firmware;
};

// The flags of one conversion: --driver and --firmware only for ethtool-S.
std::vector<FlagSpec> Specs(const std::string& what) {
  std::vector<FlagSpec> specs = {
      {"--netdev", "", true, "the netdev the dump was taken on (required)", "DEV"},
      {"--description", "", true, "free text for capture.json (what, where, why)", "TEXT"},
      {"--help", "-h", false, "show this help and exit"}};
  if (what == "ethtool-S") {
    specs.push_back({"--driver", "", true, "the driver `ethtool -i DEV` names", "NAME"});
    specs.push_back({"--firmware", "", true, "its firmware-version (needs --driver)", "VERSION"});
  }
  return specs;
}

// Returns an error message, or "" when the arguments are good.
std::string ParseArgs(int argc, const char* const* argv, Args& args) {
  if (argc < 3) return "expected ethtool-S or ethtool-m (see --help)";
  args.what = argv[2];
  if (args.what != "ethtool-S" && args.what != "ethtool-m") {
    return "unknown conversion " + args.what + " (ethtool-S or ethtool-m)";
  }
  auto parsed = ParseFlags(std::vector<std::string>(argv + 3, argv + argc), Specs(args.what));
  if (!parsed) return parsed.error().message;
  args.netdev = parsed->Value("--netdev").value_or("");
  args.description = parsed->Value("--description").value_or("");
  args.driver = parsed->Value("--driver");
  args.firmware = parsed->Value("--firmware");
  if (args.netdev.empty()) return "--netdev DEV is required: the netdev the dump was taken on";
  if (parsed->positional.size() != 2) return "expected FILE and DIR";
  if (args.firmware && !args.driver) return "--firmware needs --driver";
  args.file = parsed->positional[0];
  args.dir = parsed->positional[1];
  return "";
}

}  // namespace

int RunConvert(int argc, const char* const* argv) {
  for (int i = 2; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::printf("%s%s", kUsage, FlagUsage(Specs("ethtool-S")).c_str());
      return 0;
    }
  }
  Args args;
  if (std::string error = ParseArgs(argc, argv, args); !error.empty()) {
    std::fprintf(stderr, "roce_exporter convert: %s\n%s", error.c_str(), kUsage);
    return 2;
  }
  if (Status s = convert::CheckNetdevName(args.netdev); !s) return Fail(s.error().message);
  auto text = ReadFileCapped(args.file, kMaxDumpBytes);
  if (!text) return Fail("cannot read " + args.file + ": " + text.error().message);

  std::string summary;
  if (args.what == "ethtool-S") {
    auto stats = convert::ParseEthtoolStatsText(*text);
    if (!stats) return Fail(args.file + ": " + stats.error().message);
    std::optional<convert::DriverIdentity> driver;
    if (args.driver) driver = convert::DriverIdentity{*args.driver, args.firmware.value_or("")};
    if (Status s = convert::PrepareCapture(args.dir, args.netdev, args.description); !s)
      return Fail(s.error().message);
    if (Status s = convert::WriteEthtoolStats(args.dir, args.netdev, *stats, driver); !s)
      return Fail(s.error().message);
    summary = std::to_string(stats->size()) + " statistics";
  } else {
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(text->data());
    auto image = optics::ImageFromDump({bytes, text->size()});
    if (!image) return Fail(args.file + ": " + image.error().message);
    if (Status s = convert::PrepareCapture(args.dir, args.netdev, args.description); !s)
      return Fail(s.error().message);
    if (Status s = convert::WriteModuleEeprom(args.dir, args.netdev, *image); !s)
      return Fail(s.error().message);
    summary = "the module EEPROM";
  }
  std::printf("%s: %s of %s written to %s/kernel\n", args.file.c_str(), summary.c_str(),
              args.netdev.c_str(), args.dir.c_str());
  return 0;
}

}  // namespace rocewatch::cli
