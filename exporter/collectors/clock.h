#pragma once

// The clocks a source reads: Unix time for exported timestamps, and a monotonic clock for
// refresh intervals (optics' module reads, ECN settings, LLDP). Tests pass their own.

#include <functional>

namespace rocewatch::collectors {

struct SourceClock {
  std::function<double()> unix_seconds;
  std::function<double()> monotonic_seconds;
};
SourceClock SystemSourceClock();

}  // namespace rocewatch::collectors
