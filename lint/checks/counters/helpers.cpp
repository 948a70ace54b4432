// What the counters.* checks share (group.h).

#include <cstdio>

#include "lint/checks/counters/group.h"
#include "lint/checks/observed.h"

namespace rocewatch::lint::checks::counters {

std::string PerSecond(double increase, double window) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4g/s", window > 0 ? increase / window : increase);
  return buf;
}

std::string Window(double seconds) { return FormatNumber(seconds) + " s"; }

}  // namespace rocewatch::lint::checks::counters
