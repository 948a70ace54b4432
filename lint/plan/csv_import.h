#pragma once

// Import of a spreadsheet plan: one CSV row per NIC, plus a JSON file with the profiles (a plan
// without "nodes"), into the plan JSON of docs/plan.md. See docs/plan.md, "Importing a CSV".

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "rocewatch/result.h"

namespace rocewatch::lint::plan {

struct CsvImportInput {
  std::string_view csv;
  std::string csv_name;       // for error messages, e.g. "nics.csv"
  std::string_view profiles;  // JSON text: {"cluster"?, "defaults"?, "profiles": {...}}
  std::string profiles_name;  // e.g. "profiles.json"
  std::string cluster;        // overrides the profiles file's "cluster" when not empty
};

struct CsvImport {
  nlohmann::ordered_json plan;  // complete plan, keys in the documented order
  std::vector<Error> errors;    // every problem found; the plan is only usable when empty
  bool ok() const { return errors.empty(); }
};

CsvImport ImportCsvPlan(const CsvImportInput& input);

}  // namespace rocewatch::lint::plan
