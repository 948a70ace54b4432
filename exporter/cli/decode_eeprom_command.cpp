#include "exporter/cli/decode_eeprom_command.h"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

#include "exporter/optics/decode.h"
#include "exporter/optics/json.h"

namespace rocewatch::cli {

int RunDecodeEeprom(int argc, const char* const* argv) {
  if (argc == 3 && (std::string(argv[2]) == "--help" || std::string(argv[2]) == "-h")) {
    std::printf("usage: roce_exporter decode-eeprom FILE\n\n"
                "Decodes a transceiver EEPROM dump (SFP/SFF-8472, QSFP/SFF-8636, QSFP-DD/OSFP/CMIS)\n"
                "as written by `ethtool -m DEV raw on > FILE` or `ethtool -m DEV hex on > FILE`,\n"
                "and prints identity, monitors, thresholds and flags as JSON.\n");
    return 0;
  }
  if (argc != 3) {
    std::fprintf(stderr, "roce_exporter decode-eeprom: expected one FILE (see --help)\n");
    return 2;
  }
  std::ifstream in(argv[2], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "roce_exporter decode-eeprom: cannot read %s\n", argv[2]);
    return 2;
  }
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                  std::istreambuf_iterator<char>());
  auto module = optics::DecodeDump(bytes);
  if (!module) {
    std::fprintf(stderr, "roce_exporter decode-eeprom: %s: %s\n", argv[2],
                 module.error().message.c_str());
    return 1;
  }
  std::printf("%s\n", optics::ToJson(*module).dump(2).c_str());
  return 0;
}

}  // namespace rocewatch::cli
