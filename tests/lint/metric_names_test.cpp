// Every metric name roce-lint uses exists in the exporter's catalogue (docs/metrics.json, which
// tests/exporter/metrics_json_test.sh keeps equal to `roce_exporter catalogue`). Checks skip a
// family that is absent, so a metric renamed in the exporter would otherwise mute a check
// instead of failing anything: here it fails, naming the file and the name.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "lint/checks/families.h"

namespace rocewatch::lint {
namespace {

namespace fs = std::filesystem;

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::set<std::string> CatalogueNames() {
  auto doc = nlohmann::json::parse(ReadFile(fs::path(ROCEWATCH_SOURCE_DIR) / "docs/metrics.json"));
  std::set<std::string> names;
  for (const auto& m : doc.at("metrics")) names.insert(m.at("name").get<std::string>());
  return names;
}

// roce-lint serve's own series (roce_lint_*), documented in docs/metrics.md.
std::set<std::string> LintOwnNames() {
  std::set<std::string> names;
  std::string md = ReadFile(fs::path(ROCEWATCH_SOURCE_DIR) / "docs/metrics.md");
  std::regex row("\\| `(roce_lint_[a-z0-9_]+)`");
  for (std::sregex_iterator it(md.begin(), md.end(), row), end; it != end; ++it)
    names.insert((*it)[1]);
  return names;
}

// `"roce_…"` literals in lint/ that are not metric names: plan fields, hw counter names (label
// values of roce_hw_stat_total), the exporter's job name.
const std::set<std::string> kNotMetrics = {
    "roce_ip", "roce_dscp", "roce_priority", "roce_mtu", "roce_mode", "roce_active_mtu",
    "roce_adp_retrans", "roce_adp_retrans_to", "roce_exporter",
};

TEST(MetricNames, EveryRoceLiteralInLintIsACataloguedMetric) {
  const auto catalogue = CatalogueNames();
  ASSERT_GT(catalogue.size(), 60u);
  const auto own = LintOwnNames();
  ASSERT_GT(own.size(), 5u);
  const std::regex literal("\"(roce_[a-z0-9_]+)\"");
  std::set<std::string> used;
  std::size_t literals = 0;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(ROCEWATCH_SOURCE_DIR) / "lint")) {
    const auto ext = entry.path().extension();
    if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".h")) continue;
    const std::string text = ReadFile(entry.path());
    for (std::sregex_iterator it(text.begin(), text.end(), literal), end; it != end; ++it) {
      const std::string name = (*it)[1];
      if (kNotMetrics.count(name)) continue;
      ++literals;
      used.insert(name);
      EXPECT_TRUE(catalogue.count(name) || own.count(name))
          << fs::relative(entry.path(), ROCEWATCH_SOURCE_DIR).string() << " uses " << name
          << ", which is not in docs/metrics.json (renamed or removed in the exporter?)";
    }
  }
  // What the scan saw, for the record (the count: 68 names, 112 literals).
  std::cout << "lint uses " << used.size() << " distinct roce_ metric names in " << literals
            << " literals\n";
  EXPECT_GT(used.size(), 50u);  // the scan did find the checks' names
}

TEST(MetricNames, EveryFamilyTheChecksQueryIsCatalogued) {
  const auto catalogue = CatalogueNames();
  for (const auto& group : checks::CheckFamilyTable()) {
    for (const auto* list : {&group.latest, &group.increase})
      for (auto name : *list)
        EXPECT_TRUE(catalogue.count(std::string(name))) << group.group << ": " << name;
  }
}

}  // namespace
}  // namespace rocewatch::lint
