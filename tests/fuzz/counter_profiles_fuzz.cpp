// A --switch-counters file (lint/switch/counter_profiles.h): ParseCounterProfiles on any bytes
// either refuses them with an error naming the file, or gives profiles whose names can go into
// a PromQL query as they are (metric and label name grammar), whose priorities are 0-7 and
// whose series all have a priority, from their name or from the priority label.

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.h"
#include "lint/switch/counter_profiles.h"

namespace {

bool NameChars(const std::string& s, bool colon) {
  if (s.empty()) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (colon && c == ':') ||
                    (i > 0 && c >= '0' && c <= '9');
    if (!ok) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rocewatch::lint::switch_config;
  auto parsed = ParseCounterProfiles(rocewatch::fuzz::Text(data, size), "fuzz.json");
  if (!parsed.ok()) {
    FUZZ_CHECK(parsed.error().message.rfind("fuzz.json: ", 0) == 0);
    return 0;
  }
  FUZZ_CHECK(parsed->size() <= kMaxCounterProfiles);
  for (const CounterProfile& p : *parsed) {
    FUZZ_CHECK(!p.name.empty());
    FUZZ_CHECK(NameChars(p.switch_label, false) && NameChars(p.port_label, false));
    FUZZ_CHECK(p.priority_label.empty() || NameChars(p.priority_label, false));
    FUZZ_CHECK(!p.series.empty() && p.series.size() <= kMaxSeriesPerProfile);
    for (const CounterSeries& s : p.series) {
      FUZZ_CHECK(NameChars(s.metric, true));
      FUZZ_CHECK(s.priority ? (*s.priority >= 0 && *s.priority <= 7) : !p.priority_label.empty());
    }
  }
  auto merged = MergeProfiles(BuiltinCounterProfiles(), *parsed);
  FUZZ_CHECK(merged.size() >= BuiltinCounterProfiles().size());
  return 0;
}
