#pragma once

// CounterSet: a directory of counter files as one collection pass read it.

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rocewatch {

// A directory of counter files (counters/, hw_counters/): the names, fixed
// while the device stays, shared with the source that reads them (no copy per
// scrape), and this pass's values in the same order; NaN where a value was
// unavailable or did not parse.
struct CounterSet {
  std::shared_ptr<const std::vector<std::string>> names;
  std::vector<double> values;

  std::size_t size() const { return values.size(); }
  const std::string& name(std::size_t i) const { return (*names)[i]; }
  bool has(std::size_t i) const { return values[i] == values[i]; }  // not NaN
  // The value of `counter` when it was read this pass.
  std::optional<double> Find(std::string_view counter) const;
  // How many values were read this pass.
  std::size_t present() const;
};

}  // namespace rocewatch
