#include "lint/plan/validate.h"

#include "lint/plan/checks_internal.h"

namespace rocewatch::lint::plan {

const std::vector<PlanCheck>& PlanChecks() {
  static const std::vector<PlanCheck> kChecks = {
      {"plan.invalid-name", Severity::kError,
       "a name or text outside the character set of its field (control characters never)"},
      {"plan.no-nodes", Severity::kWarning, "the plan lists no nodes"},
      {"plan.node-without-nics", Severity::kWarning, "a node lists no NICs"},
      {"plan.duplicate-node-name", Severity::kError, "two nodes have the same name"},
      {"plan.duplicate-management-ip", Severity::kError, "two nodes have the same management IP"},
      {"plan.duplicate-exporter", Severity::kError, "two nodes name the same exporter address"},
      {"plan.duplicate-roce-ip", Severity::kError, "two NICs of the cluster have the same RoCE IP"},
      {"plan.duplicate-ib-dev", Severity::kError, "two NICs of one node have the same ib_dev"},
      {"plan.duplicate-netdev", Severity::kError, "two NICs of one node have the same netdev"},
      {"plan.duplicate-rail", Severity::kError, "two NICs of one node are on the same rail"},
      {"plan.invalid-ip", Severity::kError, "a management IP or RoCE IP/prefix is not valid"},
      {"plan.invalid-exporter", Severity::kError, "an exporter address is not host:port"},
      {"plan.roce-ip-not-host", Severity::kWarning,
       "a RoCE IP is the network or broadcast address of its own subnet"},
      {"plan.unknown-profile", Severity::kError, "a NIC refers to a profile the plan lacks"},
      {"plan.unused-profile", Severity::kInfo, "a profile no NIC uses"},
      {"plan.priority-range", Severity::kError, "a priority outside 0-7"},
      {"plan.dscp-range", Severity::kError, "a DSCP value outside 0-63"},
      {"plan.value-range", Severity::kError,
       "link speed, netdev MTU, PCIe speed/width or optics limits out of range"},
      {"plan.roce-mtu-invalid", Severity::kError, "roce_mtu is not 256, 512, 1024, 2048 or 4096"},
      {"plan.roce-mtu-exceeds-netdev-mtu", Severity::kError,
       "the netdev MTU is too small for the RoCE MTU plus 96 bytes of headers"},
      {"plan.roce-priority-not-lossless", Severity::kError,
       "the RoCE priority is not one of the PFC (lossless) priorities"},
      {"plan.ecn-not-lossless", Severity::kWarning,
       "ECN/DCQCN is enabled on a priority outside the lossless set"},
      {"plan.ecn-missing-roce-priority", Severity::kWarning,
       "ECN/DCQCN is not enabled on the RoCE priority"},
      {"plan.cnp-on-lossless", Severity::kError, "CNPs share a lossless (PFC) priority"},
      {"plan.cnp-dscp-equals-roce-dscp", Severity::kError, "CNPs use the RoCE data DSCP"},
      {"plan.dcqcn-cnp-mismatch", Severity::kError,
       "dcqcn.np cnp_dscp/cnp_802p_prio differ from the profile's cnp_dscp/cnp_priority"},
  };
  return kChecks;
}

namespace internal {

Finding MakeFinding(std::string_view id, std::string message, std::string expected,
                    std::string found, std::string fix) {
  Finding f;
  f.check = std::string(id);
  f.severity = Severity::kError;
  for (const auto& c : PlanChecks()) {
    if (c.id == id) f.severity = c.severity;
  }
  f.message = std::move(message);
  f.expected = std::move(expected);
  f.found = std::move(found);
  f.fix = std::move(fix);
  return f;
}

std::string ProfilePointer(std::string_view name) {
  std::string p = "/profiles";
  AppendPointerToken(p, name);
  return p;
}

}  // namespace internal

std::int64_t ActiveRoceMtu(std::int64_t netdev_mtu) {
  std::int64_t room = netdev_mtu - kRoceHeaderBytes;
  for (std::int64_t mtu : {4096, 2048, 1024, 512, 256}) {
    if (room >= mtu) return mtu;
  }
  return 0;
}

bool IsRdmaMtu(std::int64_t mtu) {
  return mtu == 256 || mtu == 512 || mtu == 1024 || mtu == 2048 || mtu == 4096;
}

std::vector<Finding> ValidatePlan(const Plan& plan) {
  FindingSink sink(plan.source);
  internal::CheckNames(plan, sink);
  internal::CheckNodes(plan, sink);
  internal::CheckProfiles(plan, sink);
  return sink.Finish();
}

}  // namespace rocewatch::lint::plan
