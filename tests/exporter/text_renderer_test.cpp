// The text renderer on hostile label values: what a capture's names and contents can carry
// (quotes, backslashes, newlines, bytes that are not UTF-8, NUL) is served escaped per the
// exposition format 0.0.4 and as valid UTF-8, the same as prometheus-cpp's own serializer
// would write it for the valid values.

#include "exporter/metrics/text_renderer.h"

#include <gtest/gtest.h>
#include <prometheus/text_serializer.h>

#include <sstream>

#include "exporter/metrics/label_value.h"

namespace rocewatch::metrics {
namespace {

const MetricSpec kSpec{"roce_test_total", MetricType::kCounter, "A test family.", {"device", "counter"}};

std::string Render(std::string_view a, std::string_view b) {
  TextRenderer r;
  r.Add(kSpec, {a, b}, 1);
  return std::move(r).Take();
}

std::string SampleLine(const std::string& text) {
  auto pos = text.find("\nroce_test_total");
  return text.substr(pos + 1, text.find('\n', pos + 1) - pos - 1);
}

TEST(TextRenderer, EscapesQuoteBackslashAndNewline) {
  EXPECT_EQ(SampleLine(Render("mlx5_0", "a\"b\\c\nd")),
            R"(roce_test_total{device="mlx5_0",counter="a\"b\\c\nd"} 1)");
  // A value that tries to close the label set and add a series of its own stays one value.
  EXPECT_EQ(SampleLine(Render("x\"} 1\nroce_fake{a=\"", "c")),
            R"(roce_test_total{device="x\"} 1\nroce_fake{a=\"",counter="c"} 1)");
  // Other bytes are not escaped by the format (tab, CR, DEL are valid label text).
  EXPECT_EQ(SampleLine(Render("a\tb\rc\x7f", "")), "roce_test_total{device=\"a\tb\rc\x7f\",counter=\"\"} 1");
}

// Many families in turn, more than the renderer's recent-family slots, each sample going to
// its own family's group: the order is that of first use, and the size hints of one page
// (what the render cache hands the next) change nothing of the next page's text.
TEST(TextRenderer, FamiliesInTurnAreGroupedAndHintsChangeNoText) {
  std::vector<MetricSpec> specs;
  std::vector<std::string> names;
  names.reserve(40);
  for (int i = 0; i < 40; ++i) names.push_back("roce_family_" + std::to_string(i));
  for (const auto& n : names) specs.push_back(MetricSpec{n, MetricType::kGauge, "A family.", {"device"}});
  auto page = [&](const TextRenderer::SizeHints* hints, TextRenderer::SizeHints* sizes) {
    TextRenderer r;
    r.UseSizeHints(hints);
    for (int device = 0; device < 3; ++device)
      for (const auto& s : specs) r.Add(s, {"mlx5_" + std::to_string(device)}, device);
    if (sizes != nullptr) r.KeepSizes(*sizes);
    return std::move(r).Take();
  };
  TextRenderer::SizeHints sizes;
  const std::string first = page(nullptr, &sizes);
  ASSERT_EQ(sizes.size(), specs.size());
  EXPECT_EQ(sizes.at(&specs[7]), 3 * std::string("roce_family_7{device=\"mlx5_0\"} 0\n").size());
  EXPECT_EQ(page(&sizes, nullptr), first);
  const auto at = first.find("roce_family_7{device=\"mlx5_0\"} 0\nroce_family_7{device=\"mlx5_1\"} 1\n"
                             "roce_family_7{device=\"mlx5_2\"} 2\n# HELP roce_family_8 ");
  EXPECT_NE(at, std::string::npos) << first;
  EXPECT_LT(first.find("# HELP roce_family_39 "), first.size());
  EXPECT_LT(first.find("# HELP roce_family_0 "), first.find("# HELP roce_family_1 "));
}

TEST(TextRenderer, SameTextAsPrometheusCppForValidValues) {
  const std::vector<std::pair<std::string, std::string>> values = {
      {"mlx5_0", "np_cnp_sent"}, {"a\"b", "c\\d"}, {"new\nline", "\xc3\xa9t\xc3\xa9"}, {"", "\\n"}};
  TextRenderer text;
  prometheus::MetricFamily family{std::string(kSpec.name), std::string(kSpec.help),
                                  prometheus::MetricType::Counter, {}};
  for (const auto& [a, b] : values) {
    text.Add(kSpec, {a, b}, 7);
    prometheus::ClientMetric m;
    m.label = {{"device", a}, {"counter", b}};
    m.counter.value = 7;
    family.metric.push_back(std::move(m));
  }
  std::ostringstream want;
  prometheus::TextSerializer().Serialize(want, {family});
  EXPECT_EQ(std::move(text).Take(), want.str());
}

TEST(LabelValue, ValidUtf8IsKeptAsItIs) {
  for (std::string_view v : {"", "mlx5_0", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xef\xbf\xbd",
                             "\xf4\x8f\xbf\xbf"}) {
    EXPECT_TRUE(IsValidLabelValue(v)) << v;
    EXPECT_EQ(RepairLabelValue(v), v);
  }
}

TEST(LabelValue, EachMaximalIllFormedSubpartBecomesOneReplacement) {
  const std::string r = "\xef\xbf\xbd";
  struct Case {
    std::string in, out;
  } cases[] = {
      {"bad\xff\xfe", "bad" + r + r},               // bytes that never start a sequence
      {std::string("a\0b", 3), "a" + r + "b"},       // NUL
      {"\xc3\x28", r + "("},                         // lead byte, then not a continuation
      {"\xe2\x82", r},                               // truncated 3-byte: one subpart
      {"\xe2\x82x", r + "x"},
      {"\xc0\xaf", r + r},                           // overlong: C0 never starts one
      {"\xe0\x80\xaf", r + r + r},                   // overlong 3-byte: E0 needs A0..BF next
      {"\xed\xa0\x80", r + r + r},                   // a surrogate
      {"\xf4\x90\x80\x80", r + r + r + r},           // above U+10FFFF
      {"\xf0\x9f\x98", r},                           // truncated 4-byte
      {"\x80\x80", r + r},                           // lone continuations
  };
  for (const auto& c : cases) {
    EXPECT_FALSE(IsValidLabelValue(c.in));
    EXPECT_EQ(RepairLabelValue(c.in), c.out);
    EXPECT_TRUE(IsValidLabelValue(RepairLabelValue(c.in)));
  }
}

TEST(TextRenderer, RepairsAndCountsValuesThatAreNotUtf8) {
  const std::uint64_t before = RepairedLabelValuesTotal();
  TextRenderer r;
  r.Add(kSpec, {"mlx5_0", "bad\xff\xfe"}, 42);
  r.Add(kSpec, {"mlx5_0", "good"}, 1);
  r.Add(kSpec, {std::string_view("fw\0\"", 4), "x\xc3"}, 2);
  EXPECT_EQ(r.repaired(), 3u);
  EXPECT_EQ(RepairedLabelValuesTotal() - before, 3u);
  std::string text = std::move(r).Take();
  EXPECT_NE(text.find("roce_test_total{device=\"mlx5_0\",counter=\"bad\xef\xbf\xbd\xef\xbf\xbd\"} 42\n"),
            std::string::npos);
  EXPECT_NE(text.find("roce_test_total{device=\"fw\xef\xbf\xbd\\\"\",counter=\"x\xef\xbf\xbd\"} 2\n"),
            std::string::npos);
  EXPECT_TRUE(IsValidLabelValue(text));
}

}  // namespace
}  // namespace rocewatch::metrics
