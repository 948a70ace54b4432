#include "http/http_log.h"

#include <cstdio>

namespace rocewatch::http::http_log {
namespace {
Sink g_sink = nullptr;
}  // namespace

void SetSink(Sink sink) { g_sink = sink; }

void Write(Level level, std::string_view msg, const Fields& fields) {
  if (g_sink != nullptr) {
    g_sink(level, msg, fields);
    return;
  }
  if (level < Level::kWarn) return;
  std::string line(msg);
  for (const auto& [k, v] : fields) line += " " + std::string(k) + "=" + v;
  std::fprintf(stderr, "%s\n", line.c_str());
}

}  // namespace rocewatch::http::http_log
