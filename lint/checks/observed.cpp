#include "lint/checks/observed.h"

#include <algorithm>
#include <cmath>

#include "rocewatch/strings.h"

namespace rocewatch::lint::checks {

std::optional<std::vector<std::int64_t>> EnabledPriorities(const observe::NodeView& view,
                                                           std::string_view metric,
                                                           std::string_view netdev,
                                                           std::string_view point) {
  auto samples = point.empty() ? view.Select(metric, {{"netdev", netdev}})
                               : view.Select(metric, {{"netdev", netdev}, {"point", point}});
  if (samples.empty()) return std::nullopt;
  std::vector<std::int64_t> on;
  for (const auto& s : samples) {
    auto prio = ParseI64(s.Label("priority"));
    if (prio && s.value() == 1) on.push_back(*prio);
  }
  std::sort(on.begin(), on.end());
  return on;
}

std::string FormatPriorities(const std::vector<std::int64_t>& priorities) {
  if (priorities.empty()) return "none";
  std::string out;
  for (auto p : priorities) out += (out.empty() ? "" : ",") + std::to_string(p);
  return out;
}

std::string FormatNumber(double v) { return FormatDouble(v); }

std::optional<std::string> TrustMode(const observe::NodeView& view, std::string_view netdev) {
  for (const auto& s : view.Select("roce_qos_trust_info", {{"netdev", netdev}}))
    if (s.value() == 1) return std::string(s.Label("mode"));
  return std::nullopt;
}

std::map<std::int64_t, std::int64_t> DscpPriorities(const observe::NodeView& view,
                                                    std::string_view netdev) {
  std::map<std::int64_t, std::int64_t> out;
  for (const auto& s : view.Select("roce_dscp_priority", {{"netdev", netdev}})) {
    auto dscp = ParseI64(s.Label("dscp"));
    if (dscp) out[*dscp] = static_cast<std::int64_t>(s.value());
  }
  return out;
}

std::map<std::string, double> DcqcnParameters(const observe::NodeView& view,
                                              std::string_view netdev, std::string_view point) {
  std::map<std::string, double> out;
  for (const auto& s : view.Select("roce_dcqcn_parameter", {{"netdev", netdev}, {"point", point}})) {
    std::string name(s.Label("parameter"));
    if (s.Label("source") == "sysfs" || !out.count(name)) out[name] = s.value();
  }
  return out;
}

std::map<std::string, std::string> NicSettings(const observe::NodeView& view,
                                               std::string_view device, std::string_view port,
                                               std::string_view netdev) {
  std::map<std::string, std::string> s;
  auto put = [&](const std::string& key, std::optional<double> v) {
    if (v) s[key] = FormatNumber(*v);
  };
  put("netdev_mtu", view.Value("roce_netdev_mtu_bytes", {{"netdev", netdev}}));
  put("roce_active_mtu", view.Value("roce_port_active_mtu_bytes", {{"device", device}, {"port", port}}));
  put("port_rate", view.Value("roce_port_rate_bytes_per_second", {{"device", device}, {"port", port}}));
  put("pcie_speed", view.Value("roce_pcie_link_speed_transfers_per_second", {{"device", device}, {"kind", "current"}}));
  put("pcie_width", view.Value("roce_pcie_link_width", {{"device", device}, {"kind", "current"}}));
  if (auto pfc = EnabledPriorities(view, "roce_pfc_enabled", netdev)) s["pfc"] = FormatPriorities(*pfc);
  if (auto trust = TrustMode(view, netdev)) s["trust"] = *trust;
  for (const auto& [dscp, prio] : DscpPriorities(view, netdev))
    s["dscp." + std::to_string(dscp)] = std::to_string(prio);
  for (const char* point : {"np", "rp"}) {
    if (auto ecn = EnabledPriorities(view, "roce_ecn_enabled", netdev, point))
      s[std::string("ecn.") + point] = FormatPriorities(*ecn);
    for (const auto& [name, value] : DcqcnParameters(view, netdev, point))
      s[std::string("dcqcn.") + point + "." + name] = FormatNumber(value);
  }
  for (const auto& m : view.Select("roce_cm_default_roce_mode_info", {{"device", device}, {"port", port}}))
    s["cm.roce_mode"] = std::string(m.Label("mode"));
  put("cm.tos", view.Value("roce_cm_default_tos", {{"device", device}, {"port", port}}));
  for (const auto& d : view.Select("roce_device_info", {{"device", device}})) {
    s["firmware"] = std::string(d.Label("fw_version"));
    s["driver"] = std::string(d.Label("driver"));
  }
  for (const auto& d : view.Select("roce_ethtool_driver_info", {{"netdev", netdev}}))
    s["driver_version"] = std::string(d.Label("version"));
  put("pause.rx", view.Value("roce_pause_rx_enabled", {{"netdev", netdev}}));
  put("pause.tx", view.Value("roce_pause_tx_enabled", {{"netdev", netdev}}));
  for (const auto& t : view.Select("roce_ets_priority_traffic_class", {{"netdev", netdev}}))
    s["ets.tc." + std::string(t.Label("priority"))] = FormatNumber(t.value());
  return s;
}

}  // namespace rocewatch::lint::checks
