#include "exporter/capture/convert/ethtool_stats_text.h"

#include <charconv>
#include <string>

namespace rocewatch::convert {
namespace {

constexpr std::string_view kHeader = "NIC statistics:";

bool IsBlank(char c) { return c == ' ' || c == '\t'; }

std::string LineError(std::size_t line, const std::string& what) {
  return "ethtool -S text line " + std::to_string(line) + ": " + what;
}

}  // namespace

Result<std::vector<ethtool::NamedStat>> ParseEthtoolStatsText(std::string_view text) {
  std::vector<ethtool::NamedStat> out;
  std::size_t line_number = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // pasted from Windows
    std::size_t start = 0;
    while (start < line.size() && IsBlank(line[start])) ++start;
    line = line.substr(start);
    if (line.empty()) continue;
    if (line == kHeader) continue;

    const std::size_t colon = line.rfind(": ");
    if (colon == std::string_view::npos || colon == 0) {
      return Error{LineError(line_number, "expected \"NAME: VALUE\"")};
    }
    std::string_view name = line.substr(0, colon);
    std::string_view value_text = line.substr(colon + 2);
    while (!value_text.empty() && IsBlank(value_text.back())) value_text.remove_suffix(1);
    std::uint64_t value = 0;
    const auto parsed =
        std::from_chars(value_text.data(), value_text.data() + value_text.size(), value);
    if (value_text.empty() || parsed.ec != std::errc{} ||
        parsed.ptr != value_text.data() + value_text.size()) {
      return Error{LineError(line_number, "the value of " + std::string(name) +
                                              " is not an unsigned 64-bit decimal")};
    }
    if (name.size() > ethtool::kGstringBytes) {
      return Error{LineError(line_number, "a statistic name has at most " +
                                              std::to_string(ethtool::kGstringBytes) +
                                              " bytes (ETH_GSTRING_LEN), this one " +
                                              std::to_string(name.size()))};
    }
    for (char c : name) {
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
        return Error{LineError(line_number, "the statistic name holds a control character")};
      }
    }
    if (out.size() >= ethtool::kMaxEntries) {
      return Error{LineError(line_number, "more than " + std::to_string(ethtool::kMaxEntries) +
                                              " statistics")};
    }
    out.push_back(ethtool::NamedStat{std::string(name), value});
  }
  if (out.empty()) return Error{"ethtool -S text: no statistics in it"};
  return out;
}

}  // namespace rocewatch::convert
