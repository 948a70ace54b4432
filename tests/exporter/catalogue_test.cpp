// Keeps docs/metrics.md true: every metric the exporter declares is documented
// with the same type and labels, and every documented metric exists.

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <regex>
#include <sstream>

#include "exporter/collectors/registry.h"
#include "exporter/metrics/exporter_metrics.h"
#include "rocewatch/strings.h"

namespace rocewatch {
namespace {

struct DocRow {
  std::string type;
  std::vector<std::string> labels;
};

std::map<std::string, DocRow> ReadCatalogue() {
  std::ifstream in(std::string(ROCEWATCH_SOURCE_DIR) + "/docs/metrics.md");
  std::map<std::string, DocRow> rows;
  std::string line;
  const std::regex name_re("`([a-z_:][a-z0-9_:]*)`");
  while (std::getline(in, line)) {
    if (line.rfind("| `", 0) != 0) continue;
    auto cells = Split(line, '|');
    if (cells.size() < 5) continue;
    std::smatch m;
    std::string name_cell(Trim(cells[1]));
    if (!std::regex_search(name_cell, m, name_re)) continue;
    DocRow row;
    row.type = std::string(Trim(cells[2]));
    std::string labels(cells[3]);
    for (std::sregex_iterator it(labels.begin(), labels.end(), name_re), end; it != end; ++it)
      row.labels.push_back((*it)[1]);
    EXPECT_TRUE(rows.emplace(m[1], row).second) << "documented twice: " << m[1];
  }
  return rows;
}

std::vector<const metrics::MetricSpec*> AllSpecs() {
  std::vector<const metrics::MetricSpec*> all;
  for (const auto& s : collectors::AllCollectors())
    for (const auto* spec : s.specs()) all.push_back(spec);
  for (const auto* spec : metrics::ExporterSpecs()) all.push_back(spec);
  return all;
}

TEST(Catalogue, EveryDeclaredMetricIsDocumentedWithItsTypeAndLabels) {
  auto rows = ReadCatalogue();
  ASSERT_GT(rows.size(), 40u);
  for (const auto* spec : AllSpecs()) {
    std::string name(spec->name);
    auto it = rows.find(name);
    ASSERT_NE(it, rows.end()) << name << " is missing from docs/metrics.md";
    EXPECT_EQ(it->second.type, metrics::TypeName(spec->type)) << name;
    std::vector<std::string> labels(spec->labels.begin(), spec->labels.end());
    EXPECT_EQ(it->second.labels, labels) << name;
  }
}

TEST(Catalogue, EveryDocumentedMetricExists) {
  std::set<std::string> declared;
  for (const auto* spec : AllSpecs()) declared.emplace(spec->name);
  for (const auto& [name, row] : ReadCatalogue()) {
    if (name.rfind("exposer_", 0) == 0) continue;    // prometheus-cpp's own series
    if (name.rfind("roce_lint_", 0) == 0) continue;  // roce-lint serve's, checked by its tests
    EXPECT_TRUE(declared.count(name)) << name << " is documented but not declared";
  }
}

TEST(Catalogue, NamesFollowTheConventions) {
  for (const auto* spec : AllSpecs()) {
    std::string name(spec->name);
    EXPECT_EQ(name.rfind("roce_", 0), 0u) << name;
    bool total = name.size() > 6 && name.substr(name.size() - 6) == "_total";
    EXPECT_EQ(total, spec->type == metrics::MetricType::kCounter) << name;
    EXPECT_EQ(std::string(spec->help).find_first_of("\\\n"), std::string::npos) << name;
    EXPECT_FALSE(spec->help.empty()) << name;
  }
}

}  // namespace
}  // namespace rocewatch
