// The counters' table template (metrics/table_template.h): while a render adds the same series,
// only its numbers are written anew, in place or around them when one got longer or shorter;
// any other difference (a label value, a sample more or less, another order) renders the table
// afresh. Every text is compared with what a fresh TextRenderer writes for the same render.

#include "exporter/metrics/table_template.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "exporter/metrics/label_value.h"

namespace rocewatch::metrics {
namespace {

const MetricSpec kCounter{"roce_test_counter_total", MetricType::kCounter, "A counter.", {"device", "counter"}};
const MetricSpec kGauge{"roce_test_state", MetricType::kGauge, "A state.", {"device"}};

struct Series {
  std::string device, counter;
  double value;
};

// A render that writes the two families in turn, as the rdma renderer does per device.
std::function<void(MetricSink&)> RenderOf(const std::vector<Series>& series) {
  return [series](MetricSink& out) {
    for (const auto& s : series) {
      out.Add(kGauge, {s.device}, 1);
      out.Add(kCounter, {s.device, s.counter}, s.value);
    }
  };
}

std::string Fresh(const std::function<void(MetricSink&)>& render) {
  TextRenderer text;
  render(text);
  return std::move(text).Take();
}

std::string Through(TableTemplate& t, const std::function<void(MetricSink&)>& render) {
  TextRenderer::SizeHints hints;
  std::string page = "before\n";
  t.RenderOnto(render, page, hints);
  EXPECT_EQ(page.rfind("before\n", 0), 0u);
  return page.substr(7);
}

TEST(TableTemplate, NewNumbersAreWrittenIntoTheKeptTextSameAsAFreshRender) {
  TableTemplate t;
  std::vector<Series> s = {{"mlx5_0", "np_cnp_sent", 100}, {"mlx5_1", "np_cnp_sent", 7},
                           {"mlx5_0", "rp_cnp_handled", 0}};
  EXPECT_EQ(Through(t, RenderOf(s)), Fresh(RenderOf(s)));
  EXPECT_EQ(t.rendered(), 1u);

  s[0].value = 101;  // as long as before: in place
  EXPECT_EQ(Through(t, RenderOf(s)), Fresh(RenderOf(s)));
  s[1].value = 12345678901234.0;  // longer
  s[2].value = 0.5;               // a fraction
  EXPECT_EQ(Through(t, RenderOf(s)), Fresh(RenderOf(s)));
  s[1].value = std::numeric_limits<double>::quiet_NaN();  // shorter, and not a number
  s[0].value = std::numeric_limits<double>::infinity();
  EXPECT_EQ(Through(t, RenderOf(s)), Fresh(RenderOf(s)));
  s[1].value = 3;
  EXPECT_EQ(Through(t, RenderOf(s)), Fresh(RenderOf(s)));
  EXPECT_EQ(t.reused(), 4u);
  EXPECT_EQ(t.rendered(), 1u);
}

TEST(TableTemplate, AnyOtherDifferenceRendersTheTableAfresh) {
  TableTemplate t;
  std::vector<Series> s = {{"mlx5_0", "np_cnp_sent", 1}, {"mlx5_1", "np_cnp_sent", 2}};
  Through(t, RenderOf(s));

  s[1].counter = "np_cnp_senT";  // a label value, same length
  EXPECT_EQ(Through(t, RenderOf(s)), Fresh(RenderOf(s)));
  EXPECT_EQ(t.rendered(), 2u);
  s.push_back({"mlx5_2", "np_ecn_marked_roce_packets", 3});  // a series more
  EXPECT_EQ(Through(t, RenderOf(s)), Fresh(RenderOf(s)));
  s.pop_back();  // and less
  EXPECT_EQ(Through(t, RenderOf(s)), Fresh(RenderOf(s)));
  std::swap(s[0], s[1]);  // another order
  EXPECT_EQ(Through(t, RenderOf(s)), Fresh(RenderOf(s)));
  EXPECT_EQ(t.rendered(), 5u);
  EXPECT_EQ(t.reused(), 0u);
  EXPECT_EQ(Through(t, RenderOf(s)), Fresh(RenderOf(s)));
  EXPECT_EQ(t.reused(), 1u);
}

TEST(TableTemplate, EscapedAndRepairedValuesAreKeptAndCountedOnEveryPage) {
  TableTemplate t;
  const std::vector<Series> s = {{"mlx5_\"0\"\n", "a\\b", 1}, {std::string("bad\xff", 4), "c", 2}};
  const std::uint64_t before = RepairedLabelValuesTotal();
  const std::string first = Through(t, RenderOf(s));
  EXPECT_EQ(first, Fresh(RenderOf(s)));
  const std::uint64_t per_render = RepairedLabelValuesTotal() - before;
  EXPECT_GT(per_render, 0u);
  const std::uint64_t mid = RepairedLabelValuesTotal();
  EXPECT_EQ(Through(t, RenderOf(s)), first);
  EXPECT_EQ(t.reused(), 1u);
  EXPECT_EQ(RepairedLabelValuesTotal() - mid, per_render / 2);  // Fresh counted as many again
}

TEST(TableTemplate, AMalformedSampleIsNeverServedFromTheTemplate) {
  TableTemplate t;
  auto render = [](MetricSink& out) {
    out.Add(kGauge, {"mlx5_0"}, 1);
    out.Add(kCounter, {"mlx5_0"}, 2);  // one label short: dropped
    out.Add(kCounter, {"mlx5_0", "x"}, 3);
  };
  EXPECT_EQ(Through(t, render), Fresh(render));
  EXPECT_EQ(Through(t, render), Fresh(render));
  EXPECT_EQ(t.reused(), 0u);
  EXPECT_EQ(t.rendered(), 2u);
}

}  // namespace
}  // namespace rocewatch::metrics
