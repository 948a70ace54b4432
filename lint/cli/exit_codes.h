#pragma once

// roce-lint's exit codes, the same for every subcommand (CI scripts depend on them).

namespace rocewatch::lint::cli {

inline constexpr int kExitClean = 0;     // nothing at or above --fail-on
inline constexpr int kExitFindings = 1;  // findings at or above --fail-on
inline constexpr int kExitUnusable = 2;  // unusable input: bad flags, unreadable file, invalid JSON

}  // namespace rocewatch::lint::cli
