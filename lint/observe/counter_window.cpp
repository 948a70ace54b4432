#include "lint/observe/counter_window.h"

#include <cmath>

namespace rocewatch::lint::observe {

std::optional<double> IncreaseOver(const CounterWindow& window, std::span<const TimedValue> samples) {
  const double start = window.start();
  std::optional<double> last;  // the last value seen so far: at the start, then inside
  double last_time = 0;
  double growth = 0;
  for (const TimedValue& s : samples) {
    if (!std::isfinite(s.value) || s.time <= start - kCounterLookbackSeconds || s.time > window.end) continue;
    if (s.time > start) growth += CounterGrowth(last.value_or(0), s.value);
    last = s.value;
    last_time = s.time;
  }
  // The series must still be there at the end, as it is in the later of two files.
  if (!last || last_time <= window.end - kCounterLookbackSeconds) return std::nullopt;
  return growth;
}

}  // namespace rocewatch::lint::observe
