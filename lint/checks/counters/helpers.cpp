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

void AddAndSwitchPortArg(i18n::StoredArgs& args, const NicContext& c) {
  if (c.nic.switch_port)
    i18n::AddMessageArg(args, "and_switch", "check.counters.and_switch_port", {{"switch_port", *c.nic.switch_port}});
  else
    args.emplace_back("and_switch", "");
}

}  // namespace rocewatch::lint::checks::counters
