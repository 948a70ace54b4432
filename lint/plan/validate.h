#pragma once

// Semantic checks of a loaded plan ("plan.*" findings, documented in docs/plan.md, section
// "Plan checks"): duplicates, invalid addresses, values out of range and internal contradictions
// of the RoCE profiles. Shape problems are found by LoadPlan, not here. The checks are in the
// one registry (lint/plan/plan_checks.h, lint::PlanCheckSpecs()).

#include <cstdint>
#include <string_view>
#include <vector>

#include "lint/core/finding.h"
#include "lint/plan/model.h"

namespace rocewatch::lint::plan {

// All findings of all plan checks, in document order.
std::vector<Finding> ValidatePlan(const Plan& plan);

// RoCEv2 headers the kernel subtracts from the netdev MTU before choosing the RoCE MTU
// (iboe_get_mtu in include/rdma/ib_addr.h): GRH/IPv6 40 + UDP 8 + BTH 12 + XRC ext 4 +
// AtomicETH 28 + ICRC 4 = 96 bytes. A 4096-byte RoCE MTU needs a netdev MTU of at least 4192.
inline constexpr std::int64_t kRoceHeaderBytes = 96;

// The RoCE MTU the kernel derives from a netdev MTU: the largest of 4096/2048/1024/512/256 that
// fits after kRoceHeaderBytes; 0 when not even 256 fits.
std::int64_t ActiveRoceMtu(std::int64_t netdev_mtu);
bool IsRdmaMtu(std::int64_t mtu);

}  // namespace rocewatch::lint::plan
