#pragma once

// Where the HTTP library logs: a sink each binary sets once at start-up (the exporter its
// logfmt log, roce-lint its stderr lines). The library links no binary's logger, so
// roce-lint links no exporter code. Without a sink, warnings and errors go to stderr.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rocewatch::http::http_log {

enum class Level { kDebug, kInfo, kWarn, kError };
using Fields = std::vector<std::pair<std::string_view, std::string>>;
using Sink = void (*)(Level level, std::string_view msg, const Fields& fields);

// Sets the sink (not thread-safe: call before any server starts).
void SetSink(Sink sink);

void Write(Level level, std::string_view msg, const Fields& fields = {});
inline void Debug(std::string_view msg, const Fields& f = {}) { Write(Level::kDebug, msg, f); }
inline void Info(std::string_view msg, const Fields& f = {}) { Write(Level::kInfo, msg, f); }
inline void Warn(std::string_view msg, const Fields& f = {}) { Write(Level::kWarn, msg, f); }
inline void Error(std::string_view msg, const Fields& f = {}) { Write(Level::kError, msg, f); }

}  // namespace rocewatch::http::http_log
