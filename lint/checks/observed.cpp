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

}  // namespace rocewatch::lint::checks
