#pragma once

// What `roce-lint fix` brings one planned NIC to: the settings of its profile (every
// one the profile states), or only those the checks found wrong (--only-findings).
// A setting left out (nullopt, empty map, false) is not touched by the script.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lint/core/finding.h"
#include "lint/plan/model.h"

namespace rocewatch::lint::fix {

struct NicTarget {
  std::string ib_dev;      // "mlx5_0"
  std::string netdev;      // "ens1f0np0"
  std::string profile;     // the profile's name, for comments
  std::string port = "1";  // the RDMA port of the rdma_cm settings and optional counters

  std::optional<std::string> trust;  // "dscp" or "pcp"
  std::map<std::int64_t, std::int64_t>
      trust_dscp;                                // entries that make an upstream device trust DSCP
  std::optional<std::vector<std::int64_t>> pfc;  // PFC on exactly these priorities
  std::map<std::int64_t, std::int64_t> dscp_priority;       // DSCP → priority entries to ensure
  std::optional<std::vector<std::int64_t>> ecn_np, ecn_rp;  // ECN on exactly these priorities
  // DCQCN parameters by mlx5 name; np carries the CNP's cnp_dscp / cnp_802p_prio.
  std::map<std::string, std::int64_t> dcqcn_np, dcqcn_rp;
  bool global_pause_off = false;            // 802.3x pause off (a PFC netdev)
  std::optional<std::int64_t> mtu;          // netdev MTU
  bool cm_roce_v2 = false;                  // rdma_cm default_roce_mode "RoCE v2"
  std::optional<std::int64_t> cm_tos_dscp;  // rdma_cm default_roce_tos carries this DSCP
  // The optional RDMA counters enabled on the port, exactly these (`rdma statistic set link
  // DEV/PORT optional-counters`), sorted; empty: left alone. The kernel forgets them at reboot.
  std::vector<std::string> optional_counters;
  // PCI bridges between the NIC and its GPU whose ACS redirect bits the script clears, sorted;
  // only from a finding (gpudirect.acs-redirect): the plan names no bridge.
  std::vector<std::string> acs_redirect_off;

  // For the precheck: what the profile accepts (empty / nullopt: not checked).
  std::vector<std::string> firmware;
  std::optional<std::string> driver;
  std::vector<std::string> driver_version;
  // The NIC's driver as the kernel reports it (roce_device_info's driver label, when the node was
  // observed: --only-findings), else the profile's `driver`; "" when neither says. It picks each
  // setting's tool or file (lint/fix/drivers.h).
  std::string kernel_driver;

  // Number of settings the script will bring to the plan.
  std::size_t SettingCount() const;
};

// Every setting `profile` states for `nic`.
NicTarget TargetFromProfile(const plan::Nic& nic, const plan::Profile& profile);

// A finding the script cannot repair (firmware, optics, a missing device…), kept to tell
// the operator what is left.
struct Unfixable {
  const Finding* finding;
  std::string why;  // "upgrade the firmware", "not a setting"…
};

struct FindingsTarget {
  std::vector<NicTarget> nics;  // only NICs with at least one setting to repair
  std::vector<Unfixable> unfixable;
};

// Keeps of `full` (one target per planned NIC of `node`, from TargetFromProfile) only the
// settings that `findings` (this node's, from checks::RunChecks) found wrong; drift.setting
// findings add the majority's value where it maps to a script step.
FindingsTarget RestrictToFindings(const std::vector<NicTarget>& full,
                                  const std::vector<Finding>& findings);

}  // namespace rocewatch::lint::fix
