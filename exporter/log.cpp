#include "exporter/log.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <mutex>

#include "rocewatch/time_format.h"

namespace rocewatch::log {
namespace {

std::atomic<Level> g_level{Level::kInfo};
std::mutex g_mutex;

constexpr std::string_view Name(Level level) {
  switch (level) {
    case Level::kDebug: return "debug";
    case Level::kInfo: return "info";
    case Level::kWarn: return "warn";
    case Level::kError: return "error";
  }
  return "info";
}

// A control byte of a value (a hostile capture's file name carrying ESC or CR) is written as
// \xHH, never raw: the log reaches terminals and line-based collectors.
bool IsControl(char c) { return static_cast<unsigned char>(c) < 0x20 || c == '\x7f'; }

void AppendValue(std::string& out, std::string_view v) {
  bool quote = v.empty() || v.find_first_of(" =\"") != std::string_view::npos;
  for (char c : v) quote = quote || IsControl(c);
  if (!quote) {
    out += v;
    return;
  }
  out += '"';
  for (char c : v) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (c == '\t') {
      out += "\\t";
      continue;
    }
    if (IsControl(c)) {
      static constexpr char kHex[] = "0123456789abcdef";
      const auto b = static_cast<unsigned char>(c);
      out += "\\x";
      out += kHex[b >> 4];
      out += kHex[b & 15];
      continue;
    }
    out += c;
  }
  out += '"';
}

}  // namespace

void SetLevel(Level level) { g_level = level; }

bool ParseLevel(std::string_view text, Level& out) {
  for (Level l : {Level::kDebug, Level::kInfo, Level::kWarn, Level::kError}) {
    if (text == Name(l)) {
      out = l;
      return true;
    }
  }
  return false;
}

void Write(Level level, std::string_view msg, const Fields& fields) {
  if (level < g_level.load()) return;
  std::string line = "ts=";
  line += FormatRfc3339(std::chrono::system_clock::now());
  line += " level=";
  line += Name(level);
  line += " msg=";
  AppendValue(line, msg);
  for (const auto& [k, v] : fields) {
    line += ' ';
    line += k;
    line += '=';
    AppendValue(line, v);
  }
  line += '\n';
  std::lock_guard<std::mutex> lock(g_mutex);
  std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace rocewatch::log
