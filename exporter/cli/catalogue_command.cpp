#include "exporter/cli/catalogue_command.h"

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "exporter/collectors/registry.h"
#include "exporter/metrics/exporter_metrics.h"

namespace rocewatch::cli {
namespace {

nlohmann::ordered_json Entry(const metrics::MetricSpec& spec, std::string_view collector) {
  nlohmann::ordered_json e;
  e["name"] = std::string(spec.name);
  e["type"] = std::string(metrics::TypeName(spec.type));
  e["collector"] = std::string(collector);
  auto labels = nlohmann::ordered_json::array();
  for (auto label : spec.labels) labels.push_back(std::string(label));
  e["labels"] = std::move(labels);
  e["help"] = std::string(spec.help);
  return e;
}

}  // namespace

int RunCatalogue(int argc, const char* const* argv) {
  if (argc == 3 && (std::string(argv[2]) == "--help" || std::string(argv[2]) == "-h")) {
    std::printf("usage: roce_exporter catalogue\n\n"
                "Prints every metric family the exporter declares (name, type, collector, labels,\n"
                "help) as JSON, in declaration order. docs/metrics.json is this output.\n");
    return 0;
  }
  if (argc != 2) {
    std::fprintf(stderr, "roce_exporter catalogue: takes no arguments (see --help)\n");
    return 2;
  }
  nlohmann::ordered_json doc;
  doc["schema_version"] = 1;
  doc["generated_by"] = "roce_exporter catalogue";
  auto list = nlohmann::ordered_json::array();
  for (const auto& source : collectors::AllCollectors())
    for (const auto* spec : source.specs()) list.push_back(Entry(*spec, source.name));
  for (const auto* spec : metrics::ExporterSpecs()) list.push_back(Entry(*spec, "exporter"));
  doc["metrics"] = std::move(list);
  std::cout << doc.dump(2) << "\n";
  return std::cout.good() ? 0 : 1;
}

}  // namespace rocewatch::cli
