// The text of `ethtool -S DEV` a user pastes into a bug report, read by `roce_exporter convert
// ethtool-S` (exporter/capture/convert/ethtool_stats_text.h), and the GSTRINGS/GSTATS answers built
// from it, which must decode back to exactly what was parsed.
//
// Input: the text, as is.

#include <cstddef>
#include <cstdint>
#include <string>

#include "exporter/capture/convert/capture_answers.h"
#include "exporter/capture/convert/ethtool_stats_text.h"
#include "exporter/ethtool/string_set.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rocewatch;
  auto stats = convert::ParseEthtoolStatsText(fuzz::Text(data, size));
  if (!stats) {
    FUZZ_CHECK(!stats.error().message.empty());
    return 0;
  }
  FUZZ_CHECK(!stats->empty());
  for (const auto& s : *stats) {
    FUZZ_CHECK(!s.name.empty() && s.name.size() <= ethtool::kGstringBytes);
    FUZZ_CHECK(s.name.find('\n') == std::string::npos && s.name.find('\0') == std::string::npos);
  }
  const auto strings = convert::StringsAnswer(1, *stats);
  const auto values = convert::StatsAnswer(*stats);
  auto back = ethtool::DecodeNamedStats(strings, values);
  FUZZ_CHECK(back.ok());
  FUZZ_CHECK(back->size() == stats->size());
  for (std::size_t i = 0; i < stats->size(); ++i) {
    FUZZ_CHECK((*back)[i].name == (*stats)[i].name);
    FUZZ_CHECK((*back)[i].value == (*stats)[i].value);
  }
  auto count = ethtool::DecodeSsetInfo(convert::SsetInfoAnswer(1, static_cast<std::uint32_t>(
                                                                      stats->size())),
                                       1);
  FUZZ_CHECK(count.ok() && *count == stats->size());
  return 0;
}
