// The families of `roce-lint serve` (lint/serve/serve_metrics.h) and docs/metrics.md's table of
// them say the same: each family once, with its type and labels, nothing else. That table is
// the catalogue the bundled dashboards and rules are checked against (tests/dashboards).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <stdexcept>

#include "lint/serve/serve_metrics.h"
#include "rocewatch/read_file.h"

namespace rocewatch::lint::serve {
namespace {

// "type | labels" of each row "| `roce_lint_…` | type | `a`, `b` | meaning |" of the docs.
std::map<std::string, std::string> DocumentedFamilies(const std::string& docs) {
  std::map<std::string, std::string> out;
  std::istringstream lines(docs);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("| `roce_lint_", 0) != 0) continue;
    std::vector<std::string> cells;
    std::istringstream row(line.substr(1));
    for (std::string cell; std::getline(row, cell, '|');) {
      const auto first = cell.find_first_not_of(' '), last = cell.find_last_not_of(' ');
      cells.push_back(first == std::string::npos ? "" : cell.substr(first, last - first + 1));
    }
    if (cells.size() < 3) continue;
    std::string labels;
    for (char ch : cells[2])
      if (ch != '`') labels += ch;
    const std::string name = cells[0].substr(1, cells[0].size() - 2);
    EXPECT_FALSE(out.count(name)) << name << " has two rows";
    out[name] = cells[1] + " | " + labels;
  }
  return out;
}

TEST(ServeMetrics, DocsTableIsTheSpecs) {
  auto docs = ReadFileCapped(ROCEWATCH_SOURCE_DIR "/docs/metrics.md", 4 << 20);
  ASSERT_TRUE(docs) << docs.error().message;
  const auto documented = DocumentedFamilies(*docs);
  ASSERT_FALSE(documented.empty()) << "no roce_lint_ rows in docs/metrics.md";
  std::map<std::string, std::string> specified;
  for (const ServeMetricSpec* spec : ServeMetricSpecs()) {
    std::string labels;
    for (auto l : spec->labels) labels += (labels.empty() ? "" : ", ") + std::string(l);
    const char* type = spec->type == prometheus::MetricType::Counter ? "counter" : "gauge";
    EXPECT_FALSE(specified.count(std::string(spec->name))) << spec->name << " is specified twice";
    specified[std::string(spec->name)] = std::string(type) + " | " + labels;
  }
  EXPECT_EQ(documented, specified);
}

TEST(ServeMetrics, ASampleTakesExactlyItsFamilysLabels) {
  auto family = MakeFamily(kNodes);
  AddSample(family, kNodes, {"passed"}, 3);
  ASSERT_EQ(family.metric.size(), 1u);
  EXPECT_EQ(family.metric[0].label.at(0).name, "state");
  EXPECT_EQ(family.metric[0].gauge.value, 3);
  EXPECT_THROW(AddSample(family, kNodes, {}, 1), std::logic_error);
  EXPECT_THROW(AddSample(family, kFindings, {"error"}, 1), std::logic_error);  // another family's spec
  auto runs = MakeFamily(kRuns);
  AddSample(runs, kRuns, {}, 7);
  EXPECT_EQ(runs.metric.at(0).counter.value, 7);
}

}  // namespace
}  // namespace rocewatch::lint::serve
