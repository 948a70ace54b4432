// The spreadsheet plan import (`roce-lint import-csv`): the RFC 4180 reader (ParseCsv) and
// ImportCsvPlan, then what the command does with an accepted import: dump the plan JSON and
// load it back, which must give no shape findings.
//
// Input: the CSV, optionally followed by "\n==profiles==\n" and the profiles JSON; without it a
// fixed profiles file with one profile, "roce-400g", is used.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "fuzz_check.h"
#include "lint/plan/csv.h"
#include "lint/plan/csv_import.h"
#include "lint/plan/load.h"
#include "lint/plan/validate.h"

namespace {

constexpr std::string_view kProfiles = R"({
  "cluster": "gpu-cluster-a",
  "profiles": {"roce-400g": {"link_speed_gbps": 400, "netdev_mtu": 9000, "roce_mode": "v2",
    "trust": "dscp", "pfc_priorities": [3], "roce_dscp": 26, "roce_priority": 3}}
})";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rocewatch::lint;
  const auto parts = rocewatch::fuzz::Split2(rocewatch::fuzz::Text(data, size), "\n==profiles==\n");
  const std::string_view profiles = parts.second.data() != nullptr ? parts.second : kProfiles;

  if (auto records = plan::ParseCsv(parts.first, "fuzz.csv"); records.ok()) {
    for (std::size_t i = 0; i < records->size(); ++i) {
      FUZZ_CHECK((*records)[i].row == i + 1);
      if (i > 0) FUZZ_CHECK((*records)[i].line > (*records)[i - 1].line);
    }
  }

  plan::CsvImport imported =
      plan::ImportCsvPlan({parts.first, "fuzz.csv", profiles, "profiles.json", ""});
  if (!imported.ok()) return 0;
  // import-csv writes this; nlohmann's dump() throws on invalid UTF-8 in any field.
  const std::string text = imported.plan.dump(2) + "\n";
  auto loaded = plan::LoadPlanText(text, "imported.json");
  FUZZ_CHECK(loaded.ok());
  // With the fixed, well-formed profiles every shape problem would be the import's own doing.
  if (parts.second.data() == nullptr) {
    for (const Finding& f : loaded->findings) {
      std::fprintf(stderr, "imported plan has a shape finding: %s %s %s\n", f.check.c_str(),
                   f.location.c_str(), f.message.c_str());
    }
    FUZZ_CHECK(loaded->findings.empty());
  }
  (void)plan::ValidatePlan(loaded->plan);
  return 0;
}
