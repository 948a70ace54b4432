// SARIF 2.1.0: one rule per check ID, one result per finding, located at the
// plan entry of the NIC (or node) it concerns, so code-scanning UIs annotate
// the plan file.

#include <nlohmann/json.hpp>

#include "lint/checks/check.h"
#include "lint/report/json_report.h"
#include "lint/report/node_report.h"
#include "rocewatch/version.h"

namespace rocewatch::lint::report {
namespace {

std::string Level(Severity s) {
  switch (s) {
    case Severity::kCritical:
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kInfo: return "note";
  }
  return "note";
}

// The JSON pointer of the plan entry a finding concerns.
std::string PointerOf(const plan::Plan& plan, const Finding& f) {
  for (std::size_t n = 0; n < plan.nodes.size(); ++n) {
    if (plan.nodes[n].name != f.node) continue;
    for (std::size_t i = 0; i < plan.nodes[n].nics.size(); ++i)
      if (!f.device.empty() && plan.nodes[n].nics[i].ib_dev == f.device)
        return "/nodes/" + std::to_string(n) + "/nics/" + std::to_string(i);
    return "/nodes/" + std::to_string(n);
  }
  return "";
}

}  // namespace

void WriteSarifReport(std::ostream& out, const CheckRun& run, const std::string& plan_path) {
  nlohmann::ordered_json rules = nlohmann::ordered_json::array();
  for (const auto* spec : lint::AllCheckSpecs()) {
    rules.push_back({{"id", spec->id},
                     {"shortDescription", {{"text", spec->title}}},
                     {"helpUri", spec->DocsUrl()},
                     {"defaultConfiguration", {{"level", Level(spec->severity)}}}});
  }
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  for (const auto& f : run.findings) {
    nlohmann::ordered_json result = {
        {"ruleId", f.check},
        {"level", Level(f.severity)},
        {"message", {{"text", f.message}}},
    };
    std::string pointer = PointerOf(*run.plan, f);
    auto pos = plan::PositionOf(run.plan->source, pointer);
    nlohmann::ordered_json physical = {{"artifactLocation", {{"uri", plan_path}}}};
    if (pos.line > 0) physical["region"] = {{"startLine", pos.line}, {"startColumn", pos.column}};
    std::string logical = f.node;
    for (const std::string* part : {&f.device, &f.netdev})
      if (!part->empty()) logical += "/" + *part;
    result["locations"] = nlohmann::ordered_json::array(
        {{{"physicalLocation", physical},
          {"logicalLocations", nlohmann::ordered_json::array({{{"fullyQualifiedName", logical}}})}}});
    result["properties"] = {{"severity", SeverityName(f.severity)}, {"node", f.node},
                            {"device", f.device}, {"port", f.port}, {"netdev", f.netdev},
                            {"expected", f.expected}, {"found", f.found}, {"fix", f.fix}};
    results.push_back(std::move(result));
  }
  nlohmann::ordered_json doc = {
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", nlohmann::ordered_json::array(
                   {{{"tool", {{"driver", {{"name", "roce-lint"},
                                           {"version", kVersion},
                                           {"informationUri", "docs/checks.md"},
                                           {"rules", rules}}}}},
                     {"results", results}}})}};
  WriteJsonDocument(out, doc);
}

}  // namespace rocewatch::lint::report
