#pragma once

namespace rocewatch::cli {

// `roce_exporter decode-eeprom FILE`: decode a module EEPROM dump (binary from
// `ethtool -m DEV raw on`, or the text of `hex on`) and print JSON.
int RunDecodeEeprom(int argc, const char* const* argv);

}  // namespace rocewatch::cli
