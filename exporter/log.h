#pragma once

// Structured logging to stderr in logfmt, as node_exporter writes it:
// ts=2026-11-29T19:40:00.123Z level=warn msg="value does not parse" attribute=…

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rocewatch::log {

enum class Level { kDebug, kInfo, kWarn, kError };

using Fields = std::vector<std::pair<std::string_view, std::string>>;

void SetLevel(Level level);
// "debug", "info", "warn", "error"; false for anything else.
bool ParseLevel(std::string_view text, Level& out);

void Write(Level level, std::string_view msg, const Fields& fields = {});
inline void Debug(std::string_view msg, const Fields& f = {}) { Write(Level::kDebug, msg, f); }
inline void Info(std::string_view msg, const Fields& f = {}) { Write(Level::kInfo, msg, f); }
inline void Warn(std::string_view msg, const Fields& f = {}) { Write(Level::kWarn, msg, f); }
inline void Error(std::string_view msg, const Fields& f = {}) { Write(Level::kError, msg, f); }

}  // namespace rocewatch::log
