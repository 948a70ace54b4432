#pragma once

// Durations as Prometheus writes them: "500ms", "30s", "5m", "1h", "1h30m".

#include <string_view>

#include "rocewatch/result.h"

namespace rocewatch {

// Returns seconds; an Error naming the text when it is not a duration.
Result<double> ParseDuration(std::string_view text);

}  // namespace rocewatch
