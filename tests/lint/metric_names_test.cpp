// roce-lint names the exporter's families and labels only through the metric contract
// (lint/metric_contract.h, written at build time from the exporter's spec tables), so a metric
// or label renamed in the exporter fails roce-lint's build instead of muting a check (checks
// skip a family that is absent). What the compiler cannot see is checked here, on lint's
// sources: a family name typed as a literal again, a label key typed as a literal in a
// family's matchers, and a matcher on a label the family does not have. The labels the checks
// match on at run time are checked the same way by tests/lint/check_families_test.cpp.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "lint/core/families.h"
#include "lint/core/setting_table.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint {
namespace {

namespace fs = std::filesystem;

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

struct SourceFile {
  std::string path;  // relative to the source tree
  std::string text;
};

std::vector<SourceFile> LintSources() {
  std::vector<SourceFile> files;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(ROCEWATCH_SOURCE_DIR) / "lint")) {
    const auto ext = entry.path().extension();
    if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".h")) continue;
    files.push_back({fs::relative(entry.path(), ROCEWATCH_SOURCE_DIR).string(), ReadFile(entry.path())});
  }
  return files;
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

// `roce_…` words in lint/ that are not metric names and no setting's (below): the NIC's plan
// field roce_ip, hw counter names (label values of roce_hw_stat_total), the exporter's job name.
const std::set<std::string> kNotMetrics = {
    "roce_ip", "roce_adp_retrans", "roce_adp_retrans_to", "roce_exporter", "roce_v2",
    // The tail of mlx5's hw counter np_ecn_marked_roce_packets (transport_events.cpp).
    "roce_packets",
    // Parts of the message catalogue's IDs (lint/i18n/en.h: "plan.roce_ip_network", …).
    "roce_ip_broadcast", "roce_ip_network", "roce_ip_not_host", "roce_mtu_exceeds",
    "roce_mtu_invalid", "roce_not_lossless", "roce_ip_missing", "roce_priority_pfc",
};

// The `roce_…` words of the setting table (lint/core/setting_table.h): its keys, the plan
// fields that hold them (roce_dscp, roce_mtu, roce_mode …) and the files its repairs write
// (default_roce_tos …). A setting's words are known because the setting is.
std::set<std::string> SettingWords() {
  std::set<std::string> words;
  const std::regex word("roce_[a-z0-9_]+");
  for (const setting::Spec* spec : setting::kAll)
    for (std::string_view field : {spec->key, spec->plan, spec->repair}) {
      const std::string text(field);
      for (std::sregex_iterator it(text.begin(), text.end(), word), end; it != end; ++it)
        if (contract::FindFamily((*it)[0].str()) == nullptr) words.insert((*it)[0]);
    }
  return words;
}

bool Known(const std::string& name) {
  static const std::set<std::string> settings = SettingWords();
  return kNotMetrics.count(name) > 0 || settings.count(name) > 0;
}

TEST(MetricNames, TheContractHasTheExportersFamiliesAndLabels) {
  EXPECT_GT(contract::kFamilies.size(), 150u);
  const auto* info = contract::FindFamily(metric::roce_device_info);
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->type, "gauge");
  EXPECT_EQ(info->collector, "rdma");
  EXPECT_TRUE(contract::HasLabel(*info, label::fw_version));
  EXPECT_FALSE(contract::HasLabel(*info, label::netdev));
  for (const auto& family : contract::kFamilies) {
    EXPECT_TRUE(family.name.starts_with("roce_")) << family.name;
    EXPECT_EQ(contract::FindFamily(family.name), &family) << family.name << " is declared twice";
    EXPECT_LE(family.labels.size(), contract::kMostLabels) << family.name;
  }
}

TEST(MetricNames, NoRoceLiteralInLintNamesAnExporterFamily) {
  const auto own = LintOwnNames();
  ASSERT_GT(own.size(), 5u);
  const std::regex literal("\"(roce_[a-z0-9_]+)\"");
  std::size_t own_literals = 0, other_literals = 0;
  for (const auto& file : LintSources()) {
    for (std::sregex_iterator it(file.text.begin(), file.text.end(), literal), end; it != end; ++it) {
      const std::string name = (*it)[1];
      if (contract::FindFamily(name) != nullptr) {
        ADD_FAILURE() << file.path << " types \"" << name << "\": name it as metric::" << name
                      << " (lint/metric_contract.h), so that a rename in the exporter fails the build";
      } else if (own.count(name)) {
        ++own_literals;  // lint/serve declares its own series
      } else {
        ++other_literals;
        EXPECT_TRUE(Known(name))
            << file.path << " uses " << name << ", which the exporter does not declare (renamed or "
            << "removed in the exporter?), nor roce-lint serve; if it is not a metric, list it above";
      }
    }
  }
  std::cout << "roce_ literals in lint: 0 exporter families, " << own_literals
            << " roce-lint serve series, " << other_literals << " other (plan fields, counter names)\n";
  EXPECT_GE(own_literals, own.size());  // the scan did find serve's declarations
}

// Families named in comments and in the texts of findings and reports are not constants, but
// a rename must not leave them behind: every `roce_…` word in lint/ (outside metric::, and
// but for patterns such as roce_ethtool_*) is a family of the exporter or of roce-lint serve.
TEST(MetricNames, EveryRoceWordInLintIsAFamilyOrKnown) {
  const auto own = LintOwnNames();
  const std::regex word("(metric::)?(roce_[a-z0-9_]+)(\\*?)");
  std::size_t families = 0;
  for (const auto& file : LintSources()) {
    for (std::sregex_iterator it(file.text.begin(), file.text.end(), word), end; it != end; ++it) {
      if ((*it)[1].matched || (*it)[3].length() > 0) continue;
      const std::string name = (*it)[2];
      if (contract::FindFamily(name) != nullptr) {
        ++families;
        continue;
      }
      EXPECT_TRUE(own.count(name) || Known(name))
          << file.path << " mentions " << name << ", which neither the exporter nor roce-lint serve "
          << "declares (renamed or removed?); if it is not a metric, list it in kNotMetrics";
    }
  }
  std::cout << "families named in lint's comments and texts: " << families << "\n";
}

// `metric::X, {{label::K, …}, …}`: every matcher list a lint file gives a family.
TEST(MetricNames, EveryMatcherInLintIsALabelOfItsFamily) {
  const std::regex call("metric::([a-z0-9_]+),\\s*\\{((?:\\s*\\{[^{}]*\\},?)+)\\s*\\}");
  const std::regex named_key("\\{\\s*label::([a-z0-9_]+)\\s*,");
  const std::regex typed_key("\\{\\s*\"([a-z_0-9]+)\"\\s*,");
  std::size_t checked = 0;
  for (const auto& file : LintSources()) {
    for (std::sregex_iterator it(file.text.begin(), file.text.end(), call), end; it != end; ++it) {
      const std::string name = (*it)[1];
      const std::string matchers = (*it)[2];
      const contract::Family* family = contract::FindFamily(name);
      ASSERT_NE(family, nullptr) << file.path << ": " << name;
      for (std::sregex_iterator k(matchers.begin(), matchers.end(), named_key); k != end; ++k) {
        ++checked;
        EXPECT_TRUE(contract::HasLabel(*family, (*k)[1].str()))
            << file.path << " matches " << name << " on " << (*k)[1] << ", a label the exporter's "
            << name << " does not have (exporter/collectors/" << family->collector << "/metrics.cpp)";
      }
      for (std::sregex_iterator k(matchers.begin(), matchers.end(), typed_key); k != end; ++k)
        ADD_FAILURE() << file.path << " matches " << name << " on \"" << (*k)[1]
                      << "\": name the label as label::" << (*k)[1] << " (lint/metric_contract.h)";
    }
  }
  std::cout << "label matchers checked against their family: " << checked << "\n";
  EXPECT_GT(checked, 60u);  // the scan did find the checks' matchers
}

TEST(MetricNames, EveryFamilyTheChecksQueryIsInTheContract) {
  for (const auto& group : lint::CheckFamilyTable()) {
    for (const auto* list : {&group.latest, &group.increase})
      for (auto name : *list) EXPECT_NE(contract::FindFamily(name), nullptr) << group.group << ": " << name;
  }
}

}  // namespace
}  // namespace rocewatch::lint
