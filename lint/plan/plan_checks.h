#pragma once

// The registry's plan checks ("plan.*" findings, lint/core/check_spec.h kind kPlan): one
// registration line per check, with its ID, severity and what it finds in one line (its
// title), documented in docs/plan.md, section "Plan checks" (the anchor CheckSpec::DocsUrl
// names). Registration order is the order of docs/plan.md. The checks' logic is in
// lint/plan/{name,node,profile}_checks.cpp, which name a check only through these constants.
// Shape problems ("plan.schema.*") are the loader's (lint/plan/load.cpp), not checks.

#include "lint/core/check_spec.h"

namespace rocewatch::lint::plan {

inline constexpr std::string_view kPlanDoc = "docs/plan.md";
inline constexpr std::string_view kPlanChecksAnchor = "plan-checks";

// A plan check, documented in the "Plan checks" section of docs/plan.md.
inline const lint::CheckSpec& Register(std::string_view id, Severity severity, std::string_view title) {
  return lint::RegisterPlanCheck({.id = id, .severity = severity, .title = title,
                                    .docs_page = kPlanDoc, .docs_anchor = kPlanChecksAnchor});
}

inline const lint::CheckSpec& kPlanInvalidName = Register("plan.invalid-name", Severity::kError,
    "a name or text outside the character set of its field (control characters never)");
inline const lint::CheckSpec& kPlanNoNodes = Register("plan.no-nodes", Severity::kWarning,
    "the plan lists no nodes");
inline const lint::CheckSpec& kPlanNodeWithoutNics = Register("plan.node-without-nics", Severity::kWarning,
    "a node lists no NICs");
inline const lint::CheckSpec& kPlanDuplicateNodeName = Register("plan.duplicate-node-name", Severity::kError,
    "two nodes have the same name");
inline const lint::CheckSpec& kPlanDuplicateManagementIp = Register("plan.duplicate-management-ip", Severity::kError,
    "two nodes have the same management IP");
inline const lint::CheckSpec& kPlanDuplicateExporter = Register("plan.duplicate-exporter", Severity::kError,
    "two nodes name the same exporter address");
inline const lint::CheckSpec& kPlanDuplicateRoceIp = Register("plan.duplicate-roce-ip", Severity::kError,
    "two NICs of the cluster have the same RoCE IP");
inline const lint::CheckSpec& kPlanDuplicateIbDev = Register("plan.duplicate-ib-dev", Severity::kError,
    "two NICs of one node have the same ib_dev");
inline const lint::CheckSpec& kPlanDuplicateNetdev = Register("plan.duplicate-netdev", Severity::kError,
    "two NICs of one node have the same netdev");
inline const lint::CheckSpec& kPlanDuplicateRail = Register("plan.duplicate-rail", Severity::kError,
    "two NICs of one node are on the same rail");
inline const lint::CheckSpec& kPlanInvalidIp = Register("plan.invalid-ip", Severity::kError,
    "a management IP or RoCE IP/prefix is not valid");
inline const lint::CheckSpec& kPlanInvalidExporter = Register("plan.invalid-exporter", Severity::kError,
    "an exporter address is not host:port");
inline const lint::CheckSpec& kPlanRoceIpNotHost = Register("plan.roce-ip-not-host", Severity::kWarning,
    "a RoCE IP is the network or broadcast address of its own subnet");
inline const lint::CheckSpec& kPlanUnknownProfile = Register("plan.unknown-profile", Severity::kError,
    "a NIC refers to a profile the plan lacks");
inline const lint::CheckSpec& kPlanUnusedProfile = Register("plan.unused-profile", Severity::kInfo,
    "a profile no NIC uses");
inline const lint::CheckSpec& kPlanPriorityRange = Register("plan.priority-range", Severity::kError,
    "a priority outside 0-7");
inline const lint::CheckSpec& kPlanDscpRange = Register("plan.dscp-range", Severity::kError,
    "a DSCP value outside 0-63");
inline const lint::CheckSpec& kPlanValueRange = Register("plan.value-range", Severity::kError,
    "link speed, netdev MTU, PCIe speed/width or optics limits out of range");
inline const lint::CheckSpec& kPlanRoceMtuInvalid = Register("plan.roce-mtu-invalid", Severity::kError,
    "roce_mtu is not 256, 512, 1024, 2048 or 4096");
inline const lint::CheckSpec& kPlanRoceMtuExceedsNetdevMtu = Register("plan.roce-mtu-exceeds-netdev-mtu", Severity::kError,
    "the netdev MTU is too small for the RoCE MTU plus 96 bytes of headers");
inline const lint::CheckSpec& kPlanRocePriorityNotLossless = Register("plan.roce-priority-not-lossless", Severity::kError,
    "the RoCE priority is not one of the PFC (lossless) priorities");
inline const lint::CheckSpec& kPlanEcnNotLossless = Register("plan.ecn-not-lossless", Severity::kWarning,
    "ECN/DCQCN is enabled on a priority outside the lossless set");
inline const lint::CheckSpec& kPlanEcnMissingRocePriority = Register("plan.ecn-missing-roce-priority", Severity::kWarning,
    "ECN/DCQCN is not enabled on the RoCE priority");
inline const lint::CheckSpec& kPlanCnpOnLossless = Register("plan.cnp-on-lossless", Severity::kError,
    "CNPs share a lossless (PFC) priority");
inline const lint::CheckSpec& kPlanCnpDscpEqualsRoceDscp = Register("plan.cnp-dscp-equals-roce-dscp", Severity::kError,
    "CNPs use the RoCE data DSCP");
inline const lint::CheckSpec& kPlanDcqcnCnpMismatch = Register("plan.dcqcn-cnp-mismatch", Severity::kError,
    "dcqcn.np cnp_dscp/cnp_802p_prio differ from the profile's cnp_dscp/cnp_priority");

}  // namespace rocewatch::lint::plan
