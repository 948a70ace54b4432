#include "metrics/family_set.h"

#include <gtest/gtest.h>

namespace rocewatch::metrics {
namespace {

const MetricSpec kGauge{"roce_test_gauge", MetricType::kGauge, "A gauge.", {"device", "port"}};
const MetricSpec kCounter{"roce_test_total", MetricType::kCounter, "A counter.", {"netdev"}};

TEST(FamilySet, GroupsSamplesPerSpecInFirstUseOrder) {
  FamilySet set;
  set.Add(kCounter, {"ens1f0np0"}, 7);
  set.Add(kGauge, {"mlx5_0", "1"}, 4);
  set.Add(kCounter, {"ens2f0np0"}, 9);
  auto families = std::move(set).Take();
  ASSERT_EQ(families.size(), 2u);
  EXPECT_EQ(families[0].name, "roce_test_total");
  EXPECT_EQ(families[0].type, prometheus::MetricType::Counter);
  ASSERT_EQ(families[0].metric.size(), 2u);
  EXPECT_EQ(families[0].metric[1].label[0].name, "netdev");
  EXPECT_EQ(families[0].metric[1].label[0].value, "ens2f0np0");
  EXPECT_EQ(families[0].metric[1].counter.value, 9);
  EXPECT_EQ(families[1].name, "roce_test_gauge");
  EXPECT_EQ(families[1].metric[0].gauge.value, 4);
  EXPECT_EQ(families[1].metric[0].label[1].value, "1");
}

TEST(FamilySet, DropsSamplesWithTheWrongLabelCount) {
  FamilySet set;
  set.Add(kGauge, {"mlx5_0"}, 1);
  EXPECT_EQ(set.malformed(), 1u);
  EXPECT_TRUE(std::move(set).Take().empty());
}

}  // namespace
}  // namespace rocewatch::metrics
