#include <algorithm>
#include <map>
#include <tuple>

#include "lint/checks/check.h"
#include "lint/checks/specs.h"

namespace rocewatch::lint::checks {

const std::vector<const CheckSpec*>& AllCheckSpecs() {
  static const std::vector<const CheckSpec*> kSpecs = {
      &kExporterUnreachable, &kCollectorFailing, &kDeviceMissing, &kNetdevMismatch, &kRoceIpMissing,
      &kUnplannedDevice,     &kPortDown,         &kLinkRate,      &kNetdevMtu,      &kRoceMtu,
      &kPcieDegraded,        &kPcieProfile,      &kDcbUnsupported, &kTrust,         &kPfcPriorities,
      &kDscpPriority,        &kGlobalPause,      &kCmRoceMode,    &kCmTos,          &kEcnNp,
      &kEcnRp,               &kDcqcnParameter,   &kFirmware,      &kDriver,         &kDriverVersion,
      &kModuleMissing,       &kOpticsReadFailed,  &kOpticsAlarm,      &kOpticsWarning, &kOpticsProfileLimit,
      &kPauseNonPfc,         &kPauseStorm,       &kDiscards,      &kTransportErrors, &kLinkFlaps,
      &kDrift};
  return kSpecs;
}

const CheckSpec* FindCheckSpec(std::string_view id) {
  for (const auto* s : AllCheckSpecs())
    if (s->id == id) return s;
  return nullptr;
}

std::vector<Finding> RunChecks(const plan::Plan& plan, const std::vector<observe::NodeView>& views) {
  FindingSink sink;
  std::vector<NicContext> contexts;
  for (std::size_t i = 0; i < plan.nodes.size() && i < views.size(); ++i) {
    const plan::Node& node = plan.nodes[i];
    const observe::NodeView& view = views[i];
    CheckInventory(plan, node, view, sink);
    if (!view.reachable()) continue;
    for (const auto& nic : node.nics) {
      bool present = !view.Select("roce_device_info", {{"device", nic.ib_dev}}).empty();
      if (!present) continue;  // inventory.device-missing says so; nothing else to compare
      std::string port = "1";
      auto ports = view.Select("roce_port_info", {{"device", nic.ib_dev}});
      if (!ports.empty()) port = std::string(ports.front().Label("port"));
      NicContext c{plan, node, nic, plan.FindProfile(nic.profile), view, port, present};
      CheckLink(c, sink);
      CheckQos(c, sink);
      CheckEcn(c, sink);
      CheckVersions(c, sink);
      CheckOptics(c, sink);
      CheckCounters(c, sink);
      contexts.push_back(c);
    }
  }
  CheckDrift(contexts, sink);
  std::vector<Finding> findings = std::move(sink.findings());
  std::map<std::string, std::size_t> node_order;
  for (std::size_t i = 0; i < plan.nodes.size(); ++i) node_order[plan.nodes[i].name] = i;
  std::stable_sort(findings.begin(), findings.end(), [&](const Finding& a, const Finding& b) {
    return std::tie(node_order[a.node], a.device, a.check) < std::tie(node_order[b.node], b.device, b.check);
  });
  return findings;
}

}  // namespace rocewatch::lint::checks
