#include "exporter/model/counter_set.h"

namespace rocewatch {

std::optional<double> CounterSet::Find(std::string_view counter) const {
  if (!names) return std::nullopt;
  for (std::size_t i = 0; i < values.size(); ++i)
    if ((*names)[i] == counter && has(i)) return values[i];
  return std::nullopt;
}

std::size_t CounterSet::present() const {
  std::size_t n = 0;
  for (std::size_t i = 0; i < values.size(); ++i) n += has(i) ? 1 : 0;
  return n;
}

}  // namespace rocewatch
