#include "lint/core/families.h"

#include <algorithm>

#include "lint/metric_contract.h"

namespace rocewatch::lint {
namespace {

std::vector<std::string_view> Union(std::vector<std::string_view> CheckFamilies::*member) {
  std::vector<std::string_view> all;
  for (const auto& group : CheckFamilyTable())
    all.insert(all.end(), (group.*member).begin(), (group.*member).end());
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  return all;
}

}  // namespace

const std::vector<CheckFamilies>& CheckFamilyTable() {
  static const std::vector<CheckFamilies> kTable = {
      {"inventory",  // inventory.cpp, and run.cpp's device and port lookup
       {metric::roce_device_info, metric::roce_port_info, metric::roce_gid_info, metric::roce_exporter_collector_success},
       {}},
      {"link",
       {metric::roce_port_state, metric::roce_port_physical_state, metric::roce_port_rate_bytes_per_second,
        metric::roce_netdev_mtu_bytes, metric::roce_port_active_mtu_bytes, metric::roce_pcie_link_speed_transfers_per_second,
        metric::roce_pcie_link_width, metric::roce_pcie_info, metric::roce_link_down_reason_info, metric::roce_fec_active_info,
        metric::roce_fec_configured_info},
       {}},
      {"qos",
       {metric::roce_dcb_supported, metric::roce_qos_trust_info, metric::roce_pfc_enabled, metric::roce_dscp_priority,
        metric::roce_pause_rx_enabled, metric::roce_pause_tx_enabled, metric::roce_cm_default_roce_mode_info,
        metric::roce_cm_default_tos, metric::roce_dcb_table_entries},
       {}},
      {"ecn", {metric::roce_ecn_enabled, metric::roce_dcqcn_parameter}, {}},
      {"versions", {metric::roce_device_info, metric::roce_ethtool_driver_info}, {}},
      {"optics",
       {metric::roce_module_present, metric::roce_module_read_success, metric::roce_module_temperature_celsius,
        metric::roce_module_voltage_volts, metric::roce_module_lane_tx_bias_amperes, metric::roce_module_lane_tx_power_watts,
        metric::roce_module_lane_rx_power_watts, metric::roce_module_threshold, metric::roce_module_flag},
       {}},
      {"counters",
       {metric::roce_pfc_enabled, metric::roce_hw_optional_counter_enabled, metric::roce_ethtool_link_speed_bytes_per_second, metric::roce_port_rate_bytes_per_second,
        metric::roce_rdma_jobs, metric::roce_rdma_job_qps, metric::roce_rdma_job_pod_info},
       {metric::roce_pfc_pause_frames_total, metric::roce_dcb_pfc_pause_frames_total, metric::roce_pfc_frames_total,
        metric::roce_ethtool_tx_pause_storm_warning_events_total, metric::roce_ethtool_tx_pause_storm_error_events_total,
        metric::roce_pfc_pause_duration_seconds_total, metric::roce_ethtool_tx_discarded_packets_total,
        metric::roce_ethtool_rx_out_of_buffer_packets_total, metric::roce_priority_discards_total,
        metric::roce_ethtool_rx_discarded_packets_total, metric::roce_hw_stat_total, metric::roce_transport_events_total,
        metric::roce_port_stat_total,
        metric::roce_netdev_carrier_changes_total, metric::roce_ethtool_link_down_events_total,
        metric::roce_link_down_events_total, metric::roce_fec_uncorrectable_blocks_total,
        metric::roce_fec_lane_uncorrectable_blocks_total, metric::roce_fec_corrected_bits_total,
        metric::roce_ethtool_rx_fec_corrected_bit_errors_total, metric::roce_port_transmitted_packets_total,
        metric::roce_port_received_packets_total}},
      {"cabling",  // cabling.cpp: LLDP neighbours against the plan's switch ports and rails
       {metric::roce_lldp_daemon_reachable, metric::roce_lldp_neighbor_info, metric::roce_link_detected,
        metric::roce_netdev_carrier},
       {}},
      {"drift",  // settings.cpp: the settings every NIC is compared on with its profile peers
       {metric::roce_netdev_mtu_bytes, metric::roce_port_active_mtu_bytes, metric::roce_port_rate_bytes_per_second,
        metric::roce_pcie_link_speed_transfers_per_second, metric::roce_pcie_link_width, metric::roce_pfc_enabled,
        metric::roce_qos_trust_info, metric::roce_dscp_priority, metric::roce_ecn_enabled, metric::roce_dcqcn_parameter,
        metric::roce_cm_default_roce_mode_info, metric::roce_cm_default_tos, metric::roce_device_info,
        metric::roce_ethtool_driver_info, metric::roce_pause_rx_enabled, metric::roce_pause_tx_enabled,
        metric::roce_ets_priority_traffic_class, metric::roce_dcb_table_entries},
       {}},
      {"peer",  // peer/switch_side.cpp: the LLDP neighbour's DCBX against the NIC's DCB
       {metric::roce_lldp_daemon_reachable, metric::roce_lldp_neighbor_info, metric::roce_lldp_peer_dcbx_sent,
        metric::roce_lldp_peer_dcbx_info, metric::roce_lldp_peer_pfc_enabled, metric::roce_lldp_peer_app_info,
        metric::roce_lldp_peer_dscp_priority, metric::roce_lldp_peer_table_entries, metric::roce_dcb_supported,
        metric::roce_pfc_enabled, metric::roce_dscp_priority, metric::roce_dcb_table_entries},
       // peer/link_pauses.cpp: the NIC's side of peer.pause-mismatch
       {metric::roce_pfc_pause_frames_total, metric::roce_dcb_pfc_pause_frames_total}},
      {"gpudirect",  // lint/checks/gpudirect: the PCIe path between a NIC and its GPU
       {metric::roce_gpu_nic_relation, metric::roce_gpu_nic_acs_redirect_bridges, metric::roce_gpu_nic_path_bridge,
        metric::roce_pcie_bridge_acs_control, metric::roce_pcie_iommu_group_info, metric::roce_gpu_peer_memory_module_loaded,
        metric::roce_pcie_max_read_request_bytes, metric::roce_pcie_info, metric::roce_pcie_upstream_bridge},
       {metric::roce_pcie_aer_errors_total}},
  };
  return kTable;
}

std::vector<std::string_view> LatestFamilies() { return Union(&CheckFamilies::latest); }
std::vector<std::string_view> IncreaseFamilies() { return Union(&CheckFamilies::increase); }

}  // namespace rocewatch::lint
