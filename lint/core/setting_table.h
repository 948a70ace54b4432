#pragma once

// Every setting roce-lint compares, changes or restores, typed once: its key, the type of its
// value, where the plan holds it, which family shows it on a node, what `roce-lint fix` runs to
// repair it and what the rollback restores. Checks, drift, the fix path and docs/plan.md's
// "Settings" table (setting_table_docs_test) follow from this table, as the metric contract
// does for families: a key is written `setting::kPfc.key`, never as a literal.
//
// A key ending in '.' is a family of keys: "dscp." + DSCP ("dscp.26"), "dcqcn." + point + parameter
// ("dcqcn.np.cnp_dscp"), "ecn." + point + priority in a fix's change ("ecn.np.3").

#include <string>
#include <string_view>

#include "lint/metric_contract.h"

namespace rocewatch::lint::setting {

enum class ValueType {
  kNumber,      // an integer (a number where the family serves fractions)
  kPriorities,  // a list of priorities 0-7, "3,4" or "none"
  kText,        // text: "dscp", "RoCE v2", a version
  kDigest,      // a table the exporter serves as a digest: equal digests, equal tables
};

struct Spec {
  std::string_view key;
  ValueType type;
  std::string_view plan;      // where the plan holds it (docs/plan.md "Profile"); "" none
  std::string_view metric;    // the family that shows it on a node
  std::string_view repair;    // what `roce-lint fix` runs; "" it repairs none
  std::string_view rollback;  // the backup kind the rollback restores (templates/rollback.sh)
  // Compared only while the port is up (a port that is down reports a fallback rate).
  bool port_up_only = false;

  constexpr bool IsFamily() const { return !key.empty() && key.back() == '.'; }
  // Whether `name` is this setting as a check's registration names it (CheckSpec::setting:
  // "pfc", a family without its dot: "dscp", "dcqcn").
  constexpr std::string_view name() const { return IsFamily() ? key.substr(0, key.size() - 1) : key; }
  bool Named(std::string_view n) const { return n == name(); }
  // Whether `k` is this key or, for a family, one of its keys.
  bool Names(std::string_view k) const {
    return IsFamily() ? k.size() > key.size() && k.substr(0, key.size()) == key : k == key;
  }
};

// The typed names. The order is the table's (kAll).
inline constexpr Spec kNetdevMtu{"netdev_mtu", ValueType::kNumber, "netdev_mtu", metric::roce_netdev_mtu_bytes,
                                 "ip link set dev NETDEV mtu N", "mtu"};
inline constexpr Spec kRoceActiveMtu{"roce_active_mtu", ValueType::kNumber, "roce_mtu",
                                     metric::roce_port_active_mtu_bytes, "", ""};
inline constexpr Spec kPortRate{"port_rate", ValueType::kNumber, "link_speed_gbps",
                                metric::roce_port_rate_bytes_per_second, "", "", true};
inline constexpr Spec kPcieSpeed{"pcie_speed", ValueType::kNumber, "pcie.speed_gts",
                                 metric::roce_pcie_link_speed_transfers_per_second, "", ""};
inline constexpr Spec kPcieWidth{"pcie_width", ValueType::kNumber, "pcie.width", metric::roce_pcie_link_width, "",
                                 ""};
inline constexpr Spec kPfc{"pfc", ValueType::kPriorities, "pfc_priorities", metric::roce_pfc_enabled,
                           "dcb pfc set dev NETDEV prio-pfc (mlnx_qos --pfc on mlx5 with --tool mlnx)", "pfc"};
inline constexpr Spec kTrust{"trust", ValueType::kText, "trust", metric::roce_qos_trust_info,
                             "dcb app add/flush dev NETDEV dscp-prio (mlnx_qos --trust)", "app"};
inline constexpr Spec kDscp{"dscp.", ValueType::kNumber, "roce_dscp → roce_priority, cnp_dscp → cnp_priority",
                            metric::roce_dscp_priority, "dcb app replace dev NETDEV dscp-prio D:P (mlnx_qos --dscp2prio)",
                            "app"};
inline constexpr Spec kEcnNp{"ecn.np", ValueType::kPriorities, "ecn.np_priorities", metric::roce_ecn_enabled,
                             "the driver's ECN file (mlx5: sysfs ecn/roce_np/enable/P; bnxt_re: configfs cc/ecn_enable)",
                             "ecn"};
inline constexpr Spec kEcnRp{"ecn.rp", ValueType::kPriorities, "ecn.rp_priorities", metric::roce_ecn_enabled,
                             "the driver's ECN file (mlx5: sysfs ecn/roce_rp/enable/P; bnxt_re: configfs cc/ecn_enable)",
                             "ecn"};
// A fix's change of one priority ("ecn.np.3": 1 on, 0 off); after kEcnNp and kEcnRp in kAll.
inline constexpr Spec kEcnPriority{"ecn.", ValueType::kNumber, "ecn.np_priorities, ecn.rp_priorities",
                                   metric::roce_ecn_enabled, "the driver's ECN file for one priority", "ecn"};
// "dcqcn.np.<parameter>", "dcqcn.rp.<parameter>" (mlx5's names).
inline constexpr Spec kDcqcn{"dcqcn.", ValueType::kNumber, "dcqcn.np, dcqcn.rp", metric::roce_dcqcn_parameter,
                             "the driver's DCQCN file (mlx5: sysfs ecn/roce_np|roce_rp/N; bnxt_re: configfs cc "
                             "cnp_dscp, cnp_prio)",
                             "dcqcn"};
inline constexpr Spec kCmRoceMode{"cm.roce_mode", ValueType::kText, "roce_mode",
                                  metric::roce_cm_default_roce_mode_info,
                                  "configfs rdma_cm default_roce_mode (cma_roce_mode)", "cm_mode"};
inline constexpr Spec kCmTos{"cm.tos", ValueType::kNumber, "roce_dscp (ToS = DSCP × 4)", metric::roce_cm_default_tos,
                             "configfs rdma_cm default_roce_tos (cma_roce_tos)", "cm_tos"};
inline constexpr Spec kFirmware{"firmware", ValueType::kText, "firmware", metric::roce_device_info, "", ""};
inline constexpr Spec kDriver{"driver", ValueType::kText, "driver", metric::roce_device_info, "", ""};
inline constexpr Spec kDriverVersion{"driver_version", ValueType::kText, "driver_version",
                                     metric::roce_ethtool_driver_info, "", ""};
inline constexpr Spec kPauseRx{"pause.rx", ValueType::kNumber, "pfc_priorities (802.3x pause off with PFC)",
                               metric::roce_pause_rx_enabled, "ethtool -A NETDEV rx off tx off", "pause"};
inline constexpr Spec kPauseTx{"pause.tx", ValueType::kNumber, "pfc_priorities (802.3x pause off with PFC)",
                               metric::roce_pause_tx_enabled, "ethtool -A NETDEV rx off tx off", "pause"};
inline constexpr Spec kGlobalPause{"global_pause", ValueType::kNumber, "pfc_priorities (802.3x pause off with PFC)",
                                   metric::roce_pause_rx_enabled, "ethtool -A NETDEV rx off tx off", "pause"};
inline constexpr Spec kOptionalCounters{"optional_counters", ValueType::kText, "optional_counters",
                                        metric::roce_hw_optional_counter_enabled,
                                        "rdma statistic set link DEV/PORT optional-counters", "optional_counters"};
// The bridges between a NIC and its GPU that redirect peer-to-peer requests or completions
// (ACS ReqRedir, CmpltRedir): comma-separated PCI addresses, "" none.
inline constexpr Spec kAcsRedirect{"acs_redirect", ValueType::kText,
                                   "gpudirect.max_relation (any gpudirect profile wants none on the path)",
                                   metric::roce_pcie_bridge_acs_control,
                                   "setpci -s BRIDGE ECAP_ACS+6.w=0000:000c (the two redirect bits only)", "acs"};
inline constexpr Spec kDcbTable{"dcb.table.", ValueType::kDigest, "", metric::roce_dcb_table_entries, "", ""};
inline constexpr Spec kEtsTc{"ets.tc.", ValueType::kNumber, "", metric::roce_ets_priority_traffic_class, "", ""};

// The table, one pointer per setting (compare a found setting with `&setting::kPfc`).
inline constexpr const Spec* kAll[] = {
    &kNetdevMtu,
    &kRoceActiveMtu,
    &kPortRate,
    &kPcieSpeed,
    &kPcieWidth,
    &kPfc,
    &kTrust,
    &kDscp,
    &kEcnNp,
    &kEcnRp,
    &kEcnPriority,
    &kDcqcn,
    &kCmRoceMode,
    &kCmTos,
    &kFirmware,
    &kDriver,
    &kDriverVersion,
    &kPauseRx,
    &kPauseTx,
    &kGlobalPause,
    &kOptionalCounters,
    &kAcsRedirect,
    &kDcbTable,
    &kEtsTc};

// The setting `key` is (a family's spec for "dscp.26"); nullptr for a key no setting has.
const Spec* Find(std::string_view key);
// The setting a check's registration names (CheckSpec::setting); nullptr for none.
const Spec* Named(std::string_view name);

// docs/plan.md's "Settings" table, written from kAll (setting_table_docs_test compares).
std::string DocsTable();

}  // namespace rocewatch::lint::setting
