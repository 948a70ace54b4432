// The families table (lint/core/families.h) names every family the checks read: while the
// other tests of this binary run (the check tests, each fault of each check group; ctest runs
// each in its own process, and each process checks its own reads), a hook on NodeView records
// each family read; at the end every one must be in the table, as a latest or as an increase
// family. A check that starts reading a family the table lacks fails here,
// before roce-lint --prometheus silently stops asking the store for it. The same hook sees
// the label every read matches on: each must be a label of that family in the exporter's
// contract (lint/metric_contract.h), so a check that matches on a label the family does not
// have (a renamed label, or one of another family) fails here instead of finding nothing.

#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>
#include <set>
#include <string>

#include "check_test_util.h"
#include "lint/core/families.h"
#include "lint/metric_contract.h"
#include "lint/observe/node_view.h"

namespace rocewatch::lint::testing {
namespace {

std::mutex g_mu;
std::set<std::string> g_latest, g_increase;
std::set<std::pair<std::string, std::string>> g_labels;  // (family, label key) matched on

void Record(std::string_view metric, observe::LabelMatch labels, bool increase) {
  std::lock_guard lock(g_mu);
  (increase ? g_increase : g_latest).emplace(metric);
  for (const auto& [key, value] : labels) g_labels.emplace(metric, key);
}

bool Contains(const std::vector<std::string_view>& list, const std::string& name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

class FamiliesRead : public ::testing::Environment {
 public:
  void SetUp() override { observe::SetMetricReadHook(&Record); }
  void TearDown() override {
    observe::SetMetricReadHook(nullptr);
    const auto latest = lint::LatestFamilies();
    const auto increase = lint::IncreaseFamilies();
    for (const auto& m : g_latest)
      EXPECT_TRUE(Contains(latest, m)) << m << " is read at its latest value by a check but is not in "
                                       << "lint/core/families.cpp";
    for (const auto& m : g_increase)
      EXPECT_TRUE(Contains(increase, m)) << m << " is read as an increase by a check but is not an increase "
                                         << "family in lint/core/families.cpp";
    for (const auto& [metric, key] : g_labels) {
      const contract::Family* family = contract::FindFamily(metric);
      if (family == nullptr) continue;  // not the exporter's: the families test above names it
      EXPECT_TRUE(contract::HasLabel(*family, key))
          << "a check matches " << metric << " on the label " << key << ", which the exporter's "
          << "spec of " << metric << " does not have (exporter/collectors/" << family->collector
          << "/metrics.cpp)";
    }
  }
};

const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new FamiliesRead);

TEST(CheckFamilies, TheHookSeesWhatTheChecksRead) {
  Cluster c(3, 2);
  c.StartWindow(30);
  c.Run();
  std::lock_guard lock(g_mu);
  EXPECT_TRUE(g_latest.count("roce_device_info"));
  EXPECT_TRUE(g_latest.count("roce_pfc_enabled"));
  EXPECT_TRUE(g_increase.count("roce_pfc_pause_frames_total"));
  EXPECT_GT(g_latest.size(), 25u);
  EXPECT_TRUE(g_labels.count({"roce_pcie_link_width", "kind"}));
  EXPECT_GT(g_labels.size(), 40u);
}

TEST(CheckFamilies, TheLabelCheckFailsOnALabelTheFamilyLacks) {
  const contract::Family* width = contract::FindFamily(metric::roce_pcie_link_width);
  ASSERT_NE(width, nullptr);
  EXPECT_TRUE(contract::HasLabel(*width, label::kind));
  EXPECT_FALSE(contract::HasLabel(*width, label::netdev));  // pcie is keyed by device
  EXPECT_EQ(contract::FindFamily("roce_pcie_link_widths"), nullptr);
}

TEST(CheckFamilies, TableHasNoRepeatsAndCountersEndInTotal) {
  for (auto m : lint::IncreaseFamilies()) EXPECT_TRUE(m.ends_with("_total")) << m;
  for (auto m : lint::LatestFamilies()) EXPECT_TRUE(m.starts_with("roce_")) << m;
  EXPECT_FALSE(lint::LatestFamilies().empty());
}

}  // namespace
}  // namespace rocewatch::lint::testing
