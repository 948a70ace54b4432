// The counter window (lint/observe/counter_window.h) and the queries that read it from a store
// (counter_queries.h): what a counter grew by, from raw samples, from two files, and from a
// range query's matrix answer. The same rule on every path; tests/e2e/
// lint_prometheus_fleet_test.py holds the real engines to it.

#include "lint/observe/counter_window.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "lint/observe/counter_queries.h"
#include "lint/observe/exposition.h"
#include "lint/observe/node_view.h"
#include "lint/observe/prometheus_answer.h"

namespace rocewatch::lint::observe {
namespace {

// A 300 s window ending at 1000: its start is 700, the start's lookback reaches back to 400.
constexpr CounterWindow kWindow{.end = 1000, .length = 300};

std::optional<double> Over(std::vector<TimedValue> samples) { return IncreaseOver(kWindow, samples); }

TEST(CounterWindow, GrowthFromTheLastSampleAtTheStartToTheEnd) {
  EXPECT_EQ(Over({{650, 5}, {700, 7}, {850, 9}, {1000, 12}}), 5);  // from 7 at 700, the start
  EXPECT_EQ(Over({{690, 5}, {995, 7}}), 2);
  EXPECT_EQ(Over({{700, 5}, {1000, 5}}), 0);
}

TEST(CounterWindow, ASeriesNewInsideTheWindowCountsFromZero) {
  // One sample: the trimmed per-priority series that appeared with its first count of 5.
  EXPECT_EQ(Over({{900, 5}}), 5);
  EXPECT_EQ(Over({{800, 5}, {1000, 7}}), 7);
  // A sample older than the start's lookback says nothing about the start.
  EXPECT_EQ(Over({{400, 3}, {1000, 7}}), 7);
  EXPECT_EQ(Over({{401, 3}, {1000, 7}}), 4);
}

TEST(CounterWindow, AResetCountsItsNewValue) {
  EXPECT_EQ(Over({{700, 100}, {1000, 5}}), 5);
  // Grew 20, reset, grew to 150, reset, grew to 3: 20 + 150 + 3.
  EXPECT_EQ(Over({{700, 100}, {750, 120}, {800, 50}, {900, 150}, {950, 0}, {1000, 3}}), 173);
}

TEST(CounterWindow, ASeriesGoneBeforeTheEndHasNoIncrease) {
  EXPECT_EQ(Over({}), std::nullopt);
  EXPECT_EQ(Over({{650, 5}, {700, 9}}), std::nullopt);  // nothing within the end's lookback
  EXPECT_EQ(Over({{1001, 9}}), std::nullopt);           // after the end
  // Held at the start and still there at the end (no sample inside a short window): no growth.
  CounterWindow minute{.end = 1000, .length = 60};
  std::vector<TimedValue> one = {{930, 9}};
  EXPECT_EQ(IncreaseOver(minute, one), 0);
}

TEST(CounterWindow, NotANumberIsNoSample) {
  EXPECT_EQ(Over({{700, 5}, {800, std::nan("")}, {1000, 8}}), 3);
}

TEST(CounterWindow, TwoFilesMeanWhatTheWindowMeans) {
  auto before = Exposition::Parse(
      "# TYPE c_total counter\nc_total{p=\"3\"} 100\nc_total{p=\"4\"} 10\n"
      "# TYPE g gauge\ng 1\n");
  auto after = Exposition::Parse(
      "# TYPE c_total counter\nc_total{p=\"3\"} 5\nc_total{p=\"4\"} 12\nc_total{p=\"0\"} 7\n"
      "# TYPE g gauge\ng 9\n");
  ASSERT_TRUE(before.ok() && after.ok());
  auto inc = ComputeIncrease(*before, *after);
  ASSERT_TRUE(inc.ok());
  std::vector<std::pair<std::string, double>> got;
  for (const Sample& s : inc->samples()) got.emplace_back(inc->SeriesString(s), s.value);
  EXPECT_EQ(got, (std::vector<std::pair<std::string, double>>{
                     {"c_total{p=\"3\"}", 5}, {"c_total{p=\"4\"}", 2}, {"c_total{p=\"0\"}", 7}}));
}

TEST(CounterWindow, AMatrixAnswerBecomesEachSeriesIncrease) {
  AnswerOptions o{.key_label = "instance", .metric_name = "c_total", .increase_over = &kWindow};
  auto answer = ParseVectorAnswer(R"({"status":"success","data":{"resultType":"matrix","result":[
      {"metric":{"__name__":"c_total","instance":"a:1","p":"3"},
       "values":[[650,"90"],[700,"100"],[800,"120"],[900,"50"],[1000,"60"]]},
      {"metric":{"instance":"a:1","p":"4"},"values":[[1000,"7"]]},
      {"metric":{"instance":"b:1","p":"3"},"values":[[600,"1"],[690,"2"]]},
      {"metric":{"instance":"b:1","p":"5"},"values":[[1000,"1"],[800,"x"]]},
      {"metric":{"instance":"b:1","p":"6"},"values":[["800","1"]]},
      {"metric":{"instance":"b:1","p":"7"},"values":[[1000,"4"],[700,"1"]]}]}})",
                                  "query q", o);
  ASSERT_TRUE(answer.ok()) << answer.error().message;
  // a:1 p=3: +20, reset to 50, +10 = 80; p=4 new: 7. b:1 p=3 gone at the end; p=5 and p=6
  // malformed (a value that is no number, a time that is a string): left out; p=7 out of order.
  EXPECT_EQ(answer->texts.at("a:1"), "c_total{instance=\"a:1\",p=\"3\"} 80\nc_total{instance=\"a:1\",p=\"4\"} 7\n");
  EXPECT_EQ(answer->texts.at("b:1"), "c_total{instance=\"b:1\",p=\"7\"} 3\n");
  // A matrix is what this asks for; a vector is an error, and the other way round.
  auto vector = ParseVectorAnswer(R"({"status":"success","data":{"resultType":"vector","result":[]}})", "query q", o);
  ASSERT_FALSE(vector.ok());
  EXPECT_EQ(vector.error().message, "query q: expected a result matrix");
}

TEST(CounterQueries, OnlyWhatEveryEngineEvaluatesAlike) {
  const std::string m = R"(instance=~"a:1")";
  EXPECT_EQ(EndsQuery("c_total", m, kWindow),
            R"(last_over_time(c_total{instance=~"a:1"}[300000ms]) - )"
            R"((last_over_time(c_total{instance=~"a:1"}[300000ms] offset 300000ms) or )"
            R"(last_over_time(c_total{instance=~"a:1"}[300000ms]) * 0))");
  EXPECT_EQ(ResetsQuery("c_total", m, kWindow), R"(resets(c_total{instance=~"a:1"}[600000ms]) > 0)");
  EXPECT_EQ(RawSamplesQuery("c_total", m, kWindow), R"(c_total{instance=~"a:1"}[600000ms])");
  EXPECT_EQ(ObservedAtStartQuery("up", "node", m, kWindow),
            R"(count by (node) (last_over_time(up{instance=~"a:1"}[300000ms] offset 300000ms)))");
}

}  // namespace
}  // namespace rocewatch::lint::observe
