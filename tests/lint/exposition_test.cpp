// The text exposition format 0.0.4 parser: exporter-style input, escapes, special values,
// timestamps, comments, malformed lines (reported with line numbers, the rest kept), duplicate
// series, the size cap, and the lookup index.

#include "lint/observe/exposition.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "exposition_corpus.h"

namespace rocewatch::lint::observe {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

Exposition MustParse(std::string text, const ParseOptions& options = {}) {
  auto r = Exposition::Parse(std::move(text), options);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return std::move(r).value();
}

std::vector<std::string> ErrorLines(const Exposition& x) {
  std::vector<std::string> out;
  for (const auto& e : x.errors()) out.push_back(e.ToString());
  return out;
}

std::vector<std::string> Series(const Exposition& x) {
  std::vector<std::string> out;
  for (const auto& s : x.samples()) out.push_back(x.SeriesString(s));
  return out;
}

constexpr std::string_view kExporterText =
    "# HELP roce_port_info RDMA port and its netdev.\n"
    "# TYPE roce_port_info gauge\n"
    "roce_port_info{device=\"mlx5_0\",link_layer=\"Ethernet\",netdev=\"ens1f0np0\",port=\"1\"} 1\n"
    "roce_port_info{device=\"mlx5_1\",link_layer=\"Ethernet\",netdev=\"ens2f0np0\",port=\"1\"} 1\n"
    "# HELP roce_hw_counter_total RDMA hw counter.\n"
    "# TYPE roce_hw_counter_total counter\n"
    "roce_hw_counter_total{counter=\"np_cnp_sent\",device=\"mlx5_0\",port=\"1\"} 12345\n"
    "roce_hw_counter_total{counter=\"np_cnp_sent\",device=\"mlx5_1\",port=\"1\"} 0\n"
    "roce_hw_counter_total{counter=\"rp_cnp_handled\",device=\"mlx5_0\",port=\"1\"} 4.2e+10\n"
    "# TYPE roce_pfc_enabled gauge\n"
    "roce_pfc_enabled{netdev=\"ens1f0np0\",priority=\"3\"} 1\n"
    "roce_pfc_enabled{netdev=\"ens1f0np0\",priority=\"4\"} 0\n"
    "roce_pfc_enabled{netdev=\"ens2f0np0\",priority=\"3\"} 0\n";

TEST(Exposition, ParsesExporterOutput) {
  Exposition x = MustParse(std::string(kExporterText));
  EXPECT_THAT(ErrorLines(x), IsEmpty());
  EXPECT_EQ(x.line_count(), 13u);
  ASSERT_EQ(x.samples().size(), 8u);
  const Sample& s = x.samples()[4];
  EXPECT_EQ(x.MetricName(s), "roce_hw_counter_total");
  EXPECT_EQ(s.line, 9u);
  EXPECT_EQ(s.value, 4.2e10);
  EXPECT_FALSE(s.has_timestamp);
  EXPECT_EQ(x.LabelValue(s, "counter"), "rp_cnp_handled");
  EXPECT_EQ(x.LabelValue(s, "device"), "mlx5_0");
  EXPECT_EQ(x.LabelValue(s, "netdev"), std::nullopt);
  EXPECT_EQ(x.LabelValue(s, "no_such_label_anywhere"), std::nullopt);
  EXPECT_EQ(
      x.SeriesString(x.samples()[0]),
      "roce_port_info{device=\"mlx5_0\",link_layer=\"Ethernet\",netdev=\"ens1f0np0\",port=\"1\"}");

  ASSERT_EQ(x.families().size(), 3u);
  const Family* f = x.FamilyOf("roce_hw_counter_total");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->type, MetricType::kCounter);
  EXPECT_EQ(f->help, "RDMA hw counter.");
  EXPECT_EQ(f->type_line, 6u);
  const Family* pfc = x.FamilyOf("roce_pfc_enabled");
  ASSERT_NE(pfc, nullptr);
  EXPECT_FALSE(pfc->has_help);
  EXPECT_EQ(MetricTypeName(pfc->type), "gauge");
}

TEST(Exposition, IndexByMetricAndByLabel) {
  Exposition x = MustParse(std::string(kExporterText));
  EXPECT_THAT(x.SamplesOf("roce_pfc_enabled"), ElementsAre(5u, 6u, 7u));
  EXPECT_THAT(x.SamplesOf("roce_hw_counter_total"), ElementsAre(2u, 3u, 4u));
  EXPECT_THAT(x.SamplesOf("roce_missing"), IsEmpty());
  EXPECT_THAT(x.SamplesOf("device"), IsEmpty());  // a label name, not a metric
  EXPECT_THAT(x.Find("roce_pfc_enabled", "netdev", "ens1f0np0"), ElementsAre(5u, 6u));
  EXPECT_THAT(x.Find("roce_pfc_enabled", "priority", "3"), ElementsAre(5u, 7u));
  EXPECT_THAT(x.Find("roce_pfc_enabled", "priority", "7"), IsEmpty());
  EXPECT_THAT(x.Find("roce_pfc_enabled", "device", "mlx5_0"), IsEmpty());
  EXPECT_THAT(x.Find("roce_hw_counter_total", "device", "mlx5_0"), ElementsAre(2u, 4u));
  // The same lookup again is served from the built index.
  EXPECT_THAT(x.Find("roce_pfc_enabled", "netdev", "ens1f0np0"), ElementsAre(5u, 6u));
}

TEST(Exposition, EscapesInLabelValuesAndHelp) {
  Exposition x = MustParse(
      "# HELP m Help with a \\\\ backslash\\nand a newline.\n"
      "m{path=\"C:\\\\dir\",quote=\"say \\\"hi\\\"\",text=\"l1\\nl2\"} 1\n");
  EXPECT_THAT(ErrorLines(x), IsEmpty());
  ASSERT_EQ(x.samples().size(), 1u);
  const Sample& s = x.samples()[0];
  EXPECT_EQ(x.LabelValue(s, "path"), "C:\\dir");
  EXPECT_EQ(x.LabelValue(s, "quote"), "say \"hi\"");
  EXPECT_EQ(x.LabelValue(s, "text"), "l1\nl2");
  EXPECT_EQ(x.FamilyOf("m")->help, "Help with a \\ backslash\nand a newline.");
  EXPECT_EQ(x.SeriesString(s), "m{path=\"C:\\\\dir\",quote=\"say \\\"hi\\\"\",text=\"l1\\nl2\"}");
}

TEST(Exposition, SpecialValuesAndTimestamps) {
  Exposition x = MustParse(
      "a NaN\n"
      "b +Inf\n"
      "c -Inf\n"
      "d 1.5e-3 1712000000000\n"
      "e -0.25 -5\n"
      "f Inf\n"
      "g +7\n"
      "h 0x1p3\n");
  EXPECT_THAT(ErrorLines(x), ElementsAre("line 8: invalid value \"0x1p3\" for h"));
  ASSERT_EQ(x.samples().size(), 7u);
  EXPECT_TRUE(std::isnan(x.samples()[0].value));
  EXPECT_EQ(x.samples()[1].value, INFINITY);
  EXPECT_EQ(x.samples()[2].value, -INFINITY);
  EXPECT_EQ(x.samples()[3].value, 0.0015);
  EXPECT_TRUE(x.samples()[3].has_timestamp);
  EXPECT_EQ(x.samples()[3].timestamp_ms, 1712000000000);
  EXPECT_EQ(x.samples()[4].value, -0.25);
  EXPECT_EQ(x.samples()[4].timestamp_ms, -5);
  EXPECT_EQ(x.samples()[5].value, INFINITY);
  EXPECT_EQ(x.samples()[6].value, 7.0);
}

TEST(Exposition, CommentsBlankLinesAndWhitespace) {
  Exposition x = MustParse(
      "# a plain comment\n"
      "#\n"
      "\n"
      "   \t\n"
      "# HELPER is no keyword, so this is a comment\n"
      "  m  {  a = \"1\" , b=\"2\", }   3  \n"
      "job:rate:sum{} 4\r\n"
      "# EOF\n");
  EXPECT_THAT(ErrorLines(x), IsEmpty());
  EXPECT_THAT(Series(x), ElementsAre("m{a=\"1\",b=\"2\"}", "job:rate:sum"));
  EXPECT_EQ(x.samples()[1].value, 4.0);
  EXPECT_TRUE(x.families().empty());
}

TEST(Exposition, LabelsAreSortedByName) {
  Exposition x = MustParse("m{zone=\"z\",app=\"a\",mid=\"m\"} 1\n");
  EXPECT_THAT(Series(x), ElementsAre("m{app=\"a\",mid=\"m\",zone=\"z\"}"));
}

TEST(Exposition, MalformedLinesAreReportedAndTheRestIsKept) {
  Exposition x = MustParse(
      "ok_1 1\n"
      "bad{x=1} 2\n"
      "missing_value\n"
      "m{a=\"b\"} notanumber\n"
      "m{a=\"c\"} 1 2 3\n"
      "m{a=\"d\" 1\n"
      "9metric 1\n"
      "m{a=\"\\q\"} 1\n"
      "m{a=\"b\",a=\"c\"} 1\n"
      "# TYPE m gauge extra\n"
      "# TYPE m foo\n"
      "m{a=\"e\"} 1 12.5\n"
      "m{a=\"unterminated} 1\n"
      "m-x 1\n"
      "m{1a=\"x\"} 1\n"
      "# HELP 1bad text\n"
      "ok_2 2\n");
  EXPECT_THAT(
      ErrorLines(x),
      ElementsAre("line 2: expected '\"' to open the value of label x of bad",
                  "line 3: missing value for missing_value",
                  "line 4: invalid value \"notanumber\" for m",
                  "line 5: unexpected text after the timestamp of m",
                  "line 6: expected ',' or '}' after the value of label a of m",
                  "line 7: invalid metric name at the start of \"9metric 1\"",
                  "line 8: invalid escape \\q in the value of label a (only \\\\, \\\" and \\n are "
                  "allowed)",
                  "line 9: label a appears twice in m",
                  "line 10: unexpected text after the type in TYPE line for m",
                  "line 11: unknown metric type \"foo\" for m (expected counter, gauge, histogram, "
                  "summary or untyped)",
                  "line 12: invalid timestamp \"12.5\" for m (expected integer milliseconds)",
                  "line 13: unterminated value of label a: missing closing '\"'",
                  "line 14: invalid character \"-\" in metric name \"m-\"",
                  "line 15: invalid label name in m at \"1a=\\\"x\\\"} 1\"",
                  "line 16: HELP line without a valid metric name: \"1bad text\""));
  EXPECT_EQ(x.error_count(), 15u);
  EXPECT_THAT(Series(x), ElementsAre("ok_1", "ok_2"));
  EXPECT_EQ(x.samples()[1].line, 17u);
  for (const auto& e : x.errors()) EXPECT_EQ(e.kind, LineError::Kind::kSyntax);
}

TEST(Exposition, DuplicateSeriesAndMetadataAreReported) {
  Exposition x = MustParse(
      "# TYPE m gauge\n"
      "m{a=\"1\",b=\"2\"} 1\n"
      "m{a=\"1\",b=\"3\"} 2\n"
      "m{b=\"2\",a=\"1\"} 3\n"
      "# TYPE m counter\n"
      "# HELP m first\n"
      "# HELP m second\n"
      "n 1\n"
      "n 2\n");
  EXPECT_THAT(
      ErrorLines(x),
      ElementsAre("line 4: duplicate series m{a=\"1\",b=\"2\"} (first at line 2); the repeat "
                  "is ignored",
                  "line 5: second TYPE line for m (first at line 1)",
                  "line 7: second HELP line for m (first at line 6)",
                  "line 9: duplicate series n (first at line 8); the repeat is ignored"));
  EXPECT_EQ(x.errors()[0].kind, LineError::Kind::kDuplicateSeries);
  EXPECT_EQ(x.errors()[1].kind, LineError::Kind::kDuplicateMetadata);
  ASSERT_EQ(x.samples().size(), 3u);
  EXPECT_EQ(x.samples()[0].value, 1.0);  // the first one is kept
  EXPECT_EQ(x.samples()[2].value, 1.0);
  EXPECT_EQ(x.FamilyOf("m")->type, MetricType::kGauge);
  EXPECT_EQ(x.FamilyOf("m")->help, "first");
}

TEST(Exposition, SizeCap) {
  auto r = Exposition::Parse(std::string(101, 'x'), {.max_bytes = 100});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "exposition text is 101 bytes, above the limit of 100 bytes");
  EXPECT_TRUE(Exposition::Parse(std::string(100, '\n'), {.max_bytes = 100}).ok());
}

TEST(Exposition, ErrorListIsCappedButCounted) {
  Exposition x = MustParse("{\n{\n{\n{\n{\nok 1\n", {.max_bytes = 1000, .max_errors = 2});
  EXPECT_EQ(x.errors().size(), 2u);
  EXPECT_EQ(x.error_count(), 5u);
  EXPECT_EQ(x.samples().size(), 1u);
}

TEST(Exposition, HistogramAndSummarySamplesFindTheirFamily) {
  Exposition x = MustParse(
      "# TYPE lat histogram\n"
      "lat_bucket{le=\"0.1\"} 1\n"
      "lat_bucket{le=\"+Inf\"} 2\n"
      "lat_sum 0.3\n"
      "lat_count 2\n"
      "# TYPE rpc summary\n"
      "rpc{quantile=\"0.5\"} 0.1\n"
      "rpc_count 5\n"
      "rpc_bucket 1\n");
  EXPECT_THAT(ErrorLines(x), IsEmpty());
  ASSERT_NE(x.FamilyOf("lat_bucket"), nullptr);
  EXPECT_EQ(x.FamilyOf("lat_bucket")->name, "lat");
  EXPECT_EQ(x.FamilyOf("lat_count")->type, MetricType::kHistogram);
  EXPECT_EQ(x.FamilyOf("rpc_count")->name, "rpc");
  EXPECT_EQ(x.FamilyOf("rpc_bucket"), nullptr);  // summaries have no buckets
  EXPECT_EQ(x.FamilyOf("nothing"), nullptr);
  EXPECT_THAT(x.Find("lat_bucket", "le", "+Inf"), ElementsAre(1u));
}

TEST(Exposition, ViewsSurviveMovingTheResult) {
  // A short input lives in the string's inline buffer: the parser must not keep views into a
  // string that moves with the result.
  auto r = Exposition::Parse("m{a=\"v\"} 1\n");
  ASSERT_TRUE(r.ok());
  Exposition moved = std::move(r).value();
  Exposition again = std::move(moved);
  ASSERT_EQ(again.samples().size(), 1u);
  EXPECT_EQ(again.MetricName(again.samples()[0]), "m");
  EXPECT_EQ(again.LabelValue(again.samples()[0], "a"), "v");
  EXPECT_THAT(again.Find("m", "a", "v"), ElementsAre(0u));
}

TEST(Exposition, GeneratedExporterCorpus) {
  auto corpus = lint::testing::MakeExporterText(8);
  Exposition x = MustParse(corpus.text);
  EXPECT_THAT(ErrorLines(x), IsEmpty());
  EXPECT_EQ(x.samples().size(), corpus.samples);
  EXPECT_EQ(corpus.samples, 8u * (24 + 16 + 12 + 8 + 20 + 1));
  EXPECT_EQ(x.SamplesOf("roce_pfc_pause_frames_total").size(), 8u * 16);
  EXPECT_EQ(x.Find("roce_pfc_pause_frames_total", "netdev", "ens3f0np0").size(), 16u);
  for (std::uint32_t i : x.Find("roce_pfc_pause_frames_total", "priority", "0")) {
    EXPECT_EQ(x.samples()[i].value, 0.0);
  }
}

TEST(Exposition, HostileBytesNeverCrash) {
  std::mt19937 rng(12345);
  static constexpr char kAlphabet[] = "m{}=\",\\ \t\n#x1.eE+-NaInf\r\0\xff_:";
  const std::string alphabet(kAlphabet, sizeof kAlphabet - 1);
  for (int round = 0; round < 300; ++round) {
    std::string text;
    const int n = static_cast<int>(rng() % 400);
    for (int i = 0; i < n; ++i) text += alphabet[rng() % alphabet.size()];
    auto r = Exposition::Parse(text);
    ASSERT_TRUE(r.ok());
    for (const auto& s : r->samples()) {
      EXPECT_GE(s.line, 1u);
      EXPECT_LE(s.line, r->line_count());
      (void)r->SeriesString(s);
    }
  }
}

// Found by tests/fuzz/exposition_fuzz.cpp (corpus/exposition/regression-label-value-not-utf8.prom):
// a label value that is not UTF-8 was kept, and `roce-lint check --format json` (and sarif, and
// the alerts of `serve`) then aborted in nlohmann's dump(). Like Prometheus, such a line is now
// malformed: reported and skipped, the rest kept.
TEST(Exposition, LabelValuesMustBeUtf8) {
  const Exposition x = MustParse(
      "roce_device_info{device=\"mlx5_0\",fw_version=\"28.39\xff"
      "2048\"} 1\n"
      "roce_device_info{device=\"mlx5_1\",fw_version=\"28.39.2048 \xc3\xa9\xe6\x9d\xb1\"} 1\n"
      "roce_device_info{device=\"mlx5_2\",board=\"x\\n\xc3\"} 1\n");
  EXPECT_THAT(ErrorLines(x),
              ElementsAre("line 1: the value of label fw_version is not UTF-8",
                          "line 3: the value of label board is not UTF-8"));
  EXPECT_THAT(Series(x), ElementsAre("roce_device_info{device=\"mlx5_1\",fw_version=\"28.39.2048 "
                                     "\xc3\xa9\xe6\x9d\xb1\"}"));
}

}  // namespace
}  // namespace rocewatch::lint::observe
