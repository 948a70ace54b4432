// link.port-down: the port is not ACTIVE / LinkUp.

#include "lint/checks/link/group.h"
#include "lint/checks/observed.h"
#include "lint/checks/specs.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::link {
namespace {

// "DOWN (1)": the name of an IB port state (include/rdma/ib_verbs.h, enum ib_port_state).
std::string PortStateText(double state) {
  static const char* const kNames[] = {"NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER"};
  const auto n = static_cast<long long>(state);
  const std::string number = FormatNumber(state);
  if (static_cast<double>(n) != state || n < 0 || n > 5) return number;
  return std::string(kNames[n]) + " (" + number + ")";
}

// "Disabled (3)": the name of a physical port state (IBTA; the kernel's phys_state file).
std::string PhysicalStateText(double state) {
  static const char* const kNames[] = {"NoChange", "Sleep", "Polling", "Disabled", "PortConfigurationTraining",
                                       "LinkUp", "LinkErrorRecovery", "PhyTest"};
  const auto n = static_cast<long long>(state);
  const std::string number = FormatNumber(state);
  if (static_cast<double>(n) != state || n < 0 || n > 7) return number;
  return std::string(kNames[n]) + " (" + number + ")";
}

}  // namespace

void PortDown(const NicContext& c, FindingSink& sink) {
  const auto& v = c.view;
  const std::string& dev = c.nic.ib_dev;
  auto state = v.Value(metric::roce_port_state, {{label::device, dev}, {label::port, c.port}});
  auto phys = v.Value(metric::roce_port_physical_state, {{label::device, dev}, {label::port, c.port}});
  if ((state && *state != 4) || (phys && *phys != 5)) {
    std::string reason;
    for (const auto& r : v.Select(metric::roce_link_down_reason_info, {{label::netdev, c.nic.netdev}}))
      reason = std::string(r.Label(label::reason)) +
               (r.Label(label::detail).empty() ? "" : "/" + std::string(r.Label(label::detail)));
    // Each state by its name next to its number ("DOWN (1)", "Disabled (3)"), in every language.
    i18n::StoredArgs states = {{"state", state ? PortStateText(*state) : "?"},
                               {"physical", phys ? PhysicalStateText(*phys) : "?"},
                               {"reason", reason}};
    i18n::Phrase found = reason.empty() ? i18n::Phrase::Of("check.link.port_down.found", states)
                                        : i18n::Phrase::Of("check.link.port_down.found_reason", states);
    i18n::StoredArgs args = {{"device", dev}, {"port", c.port}, {"netdev", c.nic.netdev},
                             {"switch_port", c.nic.switch_port ? " " + *c.nic.switch_port : ""}};
    i18n::AddMessageArg(args, "found", reason.empty() ? i18n::MessageId("check.link.port_down.found")
                                                      : i18n::MessageId("check.link.port_down.found_reason"),
                        states);
    sink.Nic(kPortDown, c, i18n::Phrase::Of("check.link.port_down.expected", {}), std::move(found),
             i18n::Phrase::Of("check.link.port_down.message", args),
             i18n::Phrase::Of("check.link.port_down.fix", args));
  }
}

}  // namespace rocewatch::lint::checks::link
