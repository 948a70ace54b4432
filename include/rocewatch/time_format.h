#pragma once

// Timestamps as RFC 3339 UTC with milliseconds ("2026-11-29T19:40:00.123Z"),
// for logs and for the Alertmanager API.

#include <chrono>
#include <string>

namespace rocewatch {

std::string FormatRfc3339(std::chrono::system_clock::time_point t);

}  // namespace rocewatch
