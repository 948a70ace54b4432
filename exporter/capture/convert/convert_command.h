#pragma once

namespace rocewatch::cli {

// `roce_exporter convert ethtool-S|ethtool-m --netdev DEV FILE DIR`: turns the text of
// `ethtool -S DEV` or the dump of `ethtool -m DEV [hex on|raw on]` into the kernel answers of
// a capture directory that `--replay DIR` serves (docs/capture.md "Converting pasted dumps").
int RunConvert(int argc, const char* const* argv);

}  // namespace rocewatch::cli
