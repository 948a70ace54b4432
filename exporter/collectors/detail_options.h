#pragma once

// Parsing of the detail options (--collector.<name>.<option>) that choose what a
// collector exports beyond its default series: a bool ("true"/"false", empty = the
// default) and a DSCP list ("26,48"). Errors name the flag.

#include <cstdint>
#include <string_view>
#include <vector>

#include "exporter/collectors/source.h"
#include "rocewatch/result.h"

namespace rocewatch::collectors {

Result<bool> BoolOption(const SourceEnv& env, std::string_view source, const std::string& option,
                        bool fallback);

// Comma-separated DSCPs 0..63; empty: none.
Result<std::vector<std::uint32_t>> DscpListOption(const SourceEnv& env, std::string_view source,
                                                  const std::string& option);

}  // namespace rocewatch::collectors
