#include "lint/checks/observed.h"

#include <algorithm>
#include <cmath>

#include "rocewatch/strings.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks {

std::optional<std::vector<std::int64_t>> EnabledPriorities(const observe::NodeView& view,
                                                           std::string_view metric,
                                                           std::string_view netdev,
                                                           std::string_view point) {
  auto samples = point.empty() ? view.Select(metric, {{label::netdev, netdev}})
                               : view.Select(metric, {{label::netdev, netdev}, {label::point, point}});
  if (samples.empty()) return std::nullopt;
  std::vector<std::int64_t> on;
  for (const auto& s : samples) {
    auto prio = ParseI64(s.Label(label::priority));
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
  for (const auto& s : view.Select(metric::roce_qos_trust_info, {{label::netdev, netdev}}))
    if (s.value() == 1) return std::string(s.Label(label::mode));
  return std::nullopt;
}

std::optional<std::array<std::int8_t, 64>> DscpPriorities(const observe::NodeView& view,
                                                          std::string_view netdev) {
  auto samples = view.Select(metric::roce_dscp_priority, {{label::netdev, netdev}});
  // None of the DSCPs the exporter serves by default is in a non-empty map: still a map.
  if (samples.empty() && !DscpMapPartial(view, netdev)) return std::nullopt;
  std::array<std::int8_t, 64> out;
  out.fill(-1);
  for (const auto& s : samples) {
    auto dscp = ParseI64(s.Label(label::dscp));
    const double prio = s.value();
    if (dscp && *dscp >= 0 && *dscp < 64 && prio >= 0 && prio < 8)
      out[static_cast<std::size_t>(*dscp)] = static_cast<std::int8_t>(prio);
  }
  return out;
}

bool DscpMapPartial(const observe::NodeView& view, std::string_view netdev) {
  auto table = view.Select(metric::roce_dcb_table_entries, {{label::netdev, netdev}, {label::table, "dscp_map"}});
  if (table.empty()) return false;
  return view.Select(metric::roce_dscp_priority, {{label::netdev, netdev}}).size() <
         static_cast<std::size_t>(table.front().value());
}

std::vector<DcqcnParameter> DcqcnParameters(const observe::NodeView& view, std::string_view netdev,
                                            std::string_view point) {
  std::vector<DcqcnParameter> out;
  for (const auto& s : view.Select(metric::roce_dcqcn_parameter, {{label::netdev, netdev}, {label::point, point}})) {
    std::string_view name = s.Label(label::parameter);
    auto it = std::find_if(out.begin(), out.end(), [&](const auto& p) { return p.name == name; });
    if (it == out.end()) {
      out.push_back({name, s.value()});
    } else if (s.Label(label::source) == "sysfs") {
      it->value = s.value();
    }
  }
  return out;
}

const DcqcnParameter* FindParameter(const std::vector<DcqcnParameter>& params, std::string_view name) {
  for (const auto& p : params)
    if (p.name == name) return &p;
  return nullptr;
}

}  // namespace rocewatch::lint::checks
