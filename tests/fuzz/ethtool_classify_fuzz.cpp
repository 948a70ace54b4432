// The classification of a driver's ethtool statistic names (per-priority PFC and traffic, port
// table, per-queue, other) and Apply() of a GSTATS answer to it.
//
// Input: names separated by '\n'; after a line "--values--" the rest is taken as u64 values
// (host order), which Apply() gets whatever their count.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "exporter/drivers/driver.h"
#include "exporter/ethtool/classify.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rocewatch;
  const auto parts = fuzz::Split2(fuzz::Text(data, size), "\n--values--\n");
  std::vector<std::string> names;
  std::string_view rest = parts.first;
  while (!rest.empty()) {
    auto nl = rest.find('\n');
    names.emplace_back(rest.substr(0, nl));
    if (nl == std::string_view::npos) break;
    rest.remove_prefix(nl + 1);
  }
  // Every driver's table in turn (by the number of names, so the corpus stays as it is), and
  // no table.
  const auto units = drivers::AllDrivers();
  const std::size_t pick = names.size() % (units.size() + 1);
  const drivers::Driver* driver = pick < units.size() ? units[pick] : nullptr;
  const ethtool::Classification c = ethtool::ClassifyStrings(names, driver);
  FUZZ_CHECK(c.unclassified <= c.other.size());
  FUZZ_CHECK(c.name_count == names.size());
  // Every name lands in exactly one class: none dropped, none twice.
  std::vector<int> seen(names.size(), 0);
  for (const auto& s : c.per_priority) {
    FUZZ_CHECK(s.index < names.size());
    FUZZ_CHECK(s.priority <= 7);
    FUZZ_CHECK(std::isfinite(s.scale) && s.scale > 0);
    FUZZ_CHECK(!ethtool::PriorityKindName(s.kind).empty());
    ++seen[s.index];
  }
  for (const auto& s : c.port) {
    FUZZ_CHECK(s.index < names.size());
    FUZZ_CHECK(s.spec != nullptr);
    // A port statistic comes only from a driver's table, and the name is the table's for
    // that kind.
    FUZZ_CHECK(driver != nullptr);
    bool in_table = false;
    for (const auto& p : driver->port)
      in_table = in_table || (p.name == names[s.index] && p.kind == s.spec->kind);
    FUZZ_CHECK(in_table);
    ++seen[s.index];
  }
  for (const auto& s : c.per_queue) {
    FUZZ_CHECK(s.index < names.size());
    FUZZ_CHECK(!s.queue_kind.empty());
    ++seen[s.index];
  }
  for (const auto& s : c.other) {
    FUZZ_CHECK(s.index < names.size());
    FUZZ_CHECK(s.name == names[s.index]);
    ++seen[s.index];
  }
  for (int n : seen) FUZZ_CHECK(n == 1);

  // Values: the given ones, and exactly name_count of them (zero-padded).
  std::vector<std::uint64_t> values(parts.second.size() / 8);
  if (!values.empty()) std::memcpy(values.data(), parts.second.data(), values.size() * 8);
  auto applied = ethtool::Apply(c, values, true);
  FUZZ_CHECK(applied.ok() == (values.size() == names.size()));
  values.resize(names.size());
  applied = ethtool::Apply(c, values, true);
  FUZZ_CHECK(applied.ok());
  FUZZ_CHECK(applied->per_priority.size() == c.per_priority.size());
  FUZZ_CHECK(applied->port.size() == c.port.size());
  FUZZ_CHECK(applied->per_queue.size() == c.per_queue.size());
  FUZZ_CHECK(applied->other.size() == c.other.size());
  for (const auto& v : applied->per_priority) FUZZ_CHECK(std::isfinite(v.value) && v.value >= 0);
  for (const auto& v : applied->port) FUZZ_CHECK(std::isfinite(v.value));
  return 0;
}
