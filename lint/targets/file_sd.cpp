#include "lint/targets/file_sd.h"

#include <set>

namespace rocewatch::lint::targets {
namespace {

// [a-zA-Z_][a-zA-Z0-9_]*, not reserved (__*).
bool IsTargetLabelName(const std::string& s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9') || s.rfind("__", 0) == 0) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

}  // namespace

Result<nlohmann::json> FileSdTargets(const plan::Plan& plan) {
  nlohmann::json groups = nlohmann::json::array();
  for (const auto& node : plan.nodes) {
    nlohmann::json labels = nlohmann::json::object();
    if (!plan.cluster.empty()) labels["cluster"] = plan.cluster;
    labels["node"] = node.name;
    for (const auto& [name, value] : node.labels) {
      if (!IsTargetLabelName(name))
        return Error{"node " + nlohmann::json(node.name).dump() + ": label " + nlohmann::json(name).dump() +
                     " is not a Prometheus label name ([a-zA-Z_][a-zA-Z0-9_]*, not starting with __)"};
      if (name == "cluster" || name == "node" || name == "instance" || name == "job")
        return Error{"node " + nlohmann::json(node.name).dump() + ": label " + nlohmann::json(name).dump() +
                     " would replace the target's own " + name + " label"};
      labels[name] = value;
    }
    // Rails are per NIC; a target is a node, so it carries the rails its NICs are on ("0,1,…").
    std::set<std::int64_t> rails;
    for (const auto& nic : node.nics)
      if (nic.rail) rails.insert(*nic.rail);
    std::string rail_list;
    for (auto r : rails) rail_list += (rail_list.empty() ? "" : ",") + std::to_string(r);
    if (!rail_list.empty() && !labels.contains("rails")) labels["rails"] = rail_list;
    groups.push_back({{"targets", {node.exporter}}, {"labels", std::move(labels)}});
  }
  return groups;
}

std::string ScrapeConfigSnippet(const std::string& job_name, const std::string& file_sd_path) {
  // JSON strings are YAML flow scalars: the dump() quoting is the YAML quoting.
  return "# roce-lint targets: the plan's exporters with the plan's labels (docs/operations.md)\n"
         "scrape_configs:\n"
         "  - job_name: " + nlohmann::json(job_name).dump() + "\n"
         "    file_sd_configs:\n"
         "      - files: [" + nlohmann::json(file_sd_path).dump() + "]\n"
         "        refresh_interval: 1m\n";
}

}  // namespace rocewatch::lint::targets
