#pragma once

// The text `ethtool -S DEV` prints, read back into the driver's statistic names and values, so
// that a dump pasted into a bug report becomes the ETHTOOL_GSTRINGS/GSTATS answers of a capture
// (exporter/capture/convert/capture_answers.h).
//
// ethtool (ethtool.c dump_stats) prints "NIC statistics:\n" and then, per statistic,
// "     %.*s: %llu\n" with the name cut at ETH_GSTRING_LEN (32) bytes. So: a name is everything
// before the last ": " of its line, leading blanks removed and trailing blanks kept (some mlx5
// kernels have "tx_pause_storm_warning_events " with a space); the value is a decimal u64.
// Names may themselves hold ": " ("[0]: rx_bytes" of bnx2x, "Tx Queue#: 0"…), which is why the
// last one separates. Lines that are empty, and the "NIC statistics:" header, are skipped.
// Anything else — a line without a value, a value that is not a u64, a name longer than 32
// bytes or holding a control character — is an error naming the line: a converter never guesses.

#include <string_view>
#include <vector>

#include "exporter/ethtool/string_set.h"
#include "rocewatch/result.h"

namespace rocewatch::convert {

// At most this many statistics (ethtool::kMaxEntries): a dump is a bug-report attachment.
Result<std::vector<ethtool::NamedStat>> ParseEthtoolStatsText(std::string_view text);

}  // namespace rocewatch::convert
