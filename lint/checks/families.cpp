#include "lint/checks/families.h"

#include <algorithm>

namespace rocewatch::lint::checks {
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
       {"roce_device_info", "roce_port_info", "roce_gid_info", "roce_exporter_collector_success"},
       {}},
      {"link",
       {"roce_port_state", "roce_port_physical_state", "roce_port_rate_bytes_per_second",
        "roce_netdev_mtu_bytes", "roce_port_active_mtu_bytes", "roce_pcie_link_speed_transfers_per_second",
        "roce_pcie_link_width", "roce_pcie_info", "roce_link_down_reason_info", "roce_fec_active_info",
        "roce_fec_configured_info"},
       {}},
      {"qos",
       {"roce_dcb_supported", "roce_qos_trust_info", "roce_pfc_enabled", "roce_dscp_priority",
        "roce_pause_rx_enabled", "roce_pause_tx_enabled", "roce_cm_default_roce_mode_info",
        "roce_cm_default_tos", "roce_dcb_table_entries"},
       {}},
      {"ecn", {"roce_ecn_enabled", "roce_dcqcn_parameter"}, {}},
      {"versions", {"roce_device_info", "roce_ethtool_driver_info"}, {}},
      {"optics",
       {"roce_module_present", "roce_module_read_success", "roce_module_temperature_celsius",
        "roce_module_voltage_volts", "roce_module_lane_tx_bias_amperes", "roce_module_lane_tx_power_watts",
        "roce_module_lane_rx_power_watts", "roce_module_threshold", "roce_module_flag"},
       {}},
      {"counters",
       {"roce_pfc_enabled", "roce_ethtool_link_speed_bytes_per_second", "roce_port_rate_bytes_per_second"},
       {"roce_pfc_pause_frames_total", "roce_dcb_pfc_pause_frames_total",
        "roce_ethtool_tx_pause_storm_warning_events_total", "roce_ethtool_tx_pause_storm_error_events_total",
        "roce_pfc_pause_duration_seconds_total", "roce_ethtool_tx_discarded_packets_total",
        "roce_ethtool_rx_out_of_buffer_packets_total", "roce_priority_discards_total",
        "roce_ethtool_rx_discarded_packets_total", "roce_hw_stat_total", "roce_port_stat_total",
        "roce_netdev_carrier_changes_total", "roce_ethtool_link_down_events_total",
        "roce_link_down_events_total", "roce_fec_uncorrectable_blocks_total",
        "roce_fec_lane_uncorrectable_blocks_total", "roce_fec_corrected_bits_total",
        "roce_ethtool_rx_fec_corrected_bit_errors_total"}},
      {"cabling",  // cabling.cpp: LLDP neighbours against the plan's switch ports and rails
       {"roce_lldp_daemon_reachable", "roce_lldp_neighbor_info", "roce_link_detected",
        "roce_netdev_carrier"},
       {}},
      {"drift",  // settings.cpp: the settings every NIC is compared on with its profile peers
       {"roce_netdev_mtu_bytes", "roce_port_active_mtu_bytes", "roce_port_rate_bytes_per_second",
        "roce_pcie_link_speed_transfers_per_second", "roce_pcie_link_width", "roce_pfc_enabled",
        "roce_qos_trust_info", "roce_dscp_priority", "roce_ecn_enabled", "roce_dcqcn_parameter",
        "roce_cm_default_roce_mode_info", "roce_cm_default_tos", "roce_device_info",
        "roce_ethtool_driver_info", "roce_pause_rx_enabled", "roce_pause_tx_enabled",
        "roce_ets_priority_traffic_class", "roce_dcb_table_entries"},
       {}},
  };
  return kTable;
}

std::vector<std::string_view> LatestFamilies() { return Union(&CheckFamilies::latest); }
std::vector<std::string_view> IncreaseFamilies() { return Union(&CheckFamilies::increase); }

}  // namespace rocewatch::lint::checks
