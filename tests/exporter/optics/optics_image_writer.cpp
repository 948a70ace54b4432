// optics_image_writer DIR: writes the spec-built EEPROM images of tests/exporter/optics/images.h as
// files other parts of the project use as fixtures:
//   DIR/<name>.bin  the flat buffer `ethtool -m DEV raw on` writes for that module type
//                   (SFP: A0h + A2h, 512 bytes; SFF-8636: 640; CMIS: 256 flat, 512 paged --
//                   ethtool's raw layout has no banked pages, so no page 11h)
//   DIR/<name>.hex  every page as ethtool's paged hex dump ("I2C Address:", "Bank:", "Page:"
//                   headers), page 11h banks included
// Both decode with optics::DecodeDump. Exit status 0 on success, 1 with a message otherwise.

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "exporter/optics/eeprom_image.h"
#include "exporter/optics/images.h"

namespace {

bool WriteFile(const std::filesystem::path& path, const void* data, std::size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
  out.close();
  if (!out) {
    std::fprintf(stderr, "optics_image_writer: cannot write %s\n", path.c_str());
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argc > 0 ? argv[0] : "optics_image_writer");
    return 1;
  }
  const std::filesystem::path dir = argv[1];
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    std::fprintf(stderr, "optics_image_writer: cannot create %s: %s\n", dir.c_str(),
                 ec.message().c_str());
    return 1;
  }
  for (const auto& [name, image] : rocewatch::optics::testing::AllImages()) {
    const auto raw = rocewatch::optics::ToRaw(image);
    const std::string hex = rocewatch::optics::ToPagedHexDump(image);
    if (!WriteFile(dir / (name + ".bin"), raw.data(), raw.size()) ||
        !WriteFile(dir / (name + ".hex"), hex.data(), hex.size())) {
      return 1;
    }
    std::printf("%s/%s.bin (%zu bytes), %s.hex\n", dir.c_str(), name.c_str(), raw.size(),
                name.c_str());
  }
  return 0;
}
