// SplitVectorAnswerByInstance: the JSON answer of a Prometheus-compatible instant query turned
// into exposition text per instance (lint/observe/prometheus_answer.h). The last three tests are
// regressions of bugs of the code this replaced (inline in prometheus_api.cpp), found with
// tests/fuzz/prometheus_answer_fuzz.cpp; their inputs are in tests/fuzz/corpus/prometheus_answer/
// as regression-*.json.

#include "lint/observe/prometheus_answer.h"

#include <gtest/gtest.h>

#include "lint/observe/exposition.h"

namespace rocewatch::lint::observe {
namespace {

constexpr std::string_view kWhere = "query http://prom:9090";

TEST(PrometheusAnswer, SplitsTheVectorByInstance) {
  auto split = SplitVectorAnswerByInstance(R"({"status":"success","data":{"resultType":"vector",
    "result":[
      {"metric":{"__name__":"roce_port_state","instance":"gpu-01:9879","device":"mlx5_0"},
       "value":[1700000000.5,"4"]},
      {"metric":{"__name__":"roce_netdev_mtu_bytes","instance":"gpu-02:9879","netdev":"a\"b\\c\nd"},
       "value":[1700000000.5,"NaN"]},
      {"metric":{"__name__":"roce_port_state","instance":"gpu-01:9879","device":"mlx5_1"},
       "value":[1700000000.5,"+Inf"]}]}})",
                                           kWhere);
  ASSERT_TRUE(split.ok()) << split.error().message;
  ASSERT_EQ(split->size(), 2u);
  EXPECT_EQ(split->at("gpu-01:9879"),
            "roce_port_state{device=\"mlx5_0\",instance=\"gpu-01:9879\"} 4\n"
            "roce_port_state{device=\"mlx5_1\",instance=\"gpu-01:9879\"} +Inf\n");
  auto parsed = Exposition::Parse(split->at("gpu-02:9879"));
  ASSERT_TRUE(parsed.ok());
  ASSERT_EQ(parsed->samples().size(), 1u);
  EXPECT_EQ(parsed->LabelValue(parsed->samples()[0], "netdev"), "a\"b\\c\nd");
}

TEST(PrometheusAnswer, ErrorsNameTheQuery) {
  auto not_json = SplitVectorAnswerByInstance("<html>", kWhere);
  ASSERT_FALSE(not_json.ok());
  EXPECT_EQ(not_json.error().message, "query http://prom:9090: answer is not JSON");
  auto error = SplitVectorAnswerByInstance(
      R"({"status":"error","errorType":"bad_data","error":"parse error"})", kWhere);
  ASSERT_FALSE(error.ok());
  EXPECT_EQ(error.error().message, "query http://prom:9090: parse error");
  auto matrix = SplitVectorAnswerByInstance(
      R"({"status":"success","data":{"resultType":"matrix","result":[]}})", kWhere);
  ASSERT_FALSE(matrix.ok());
  EXPECT_EQ(matrix.error().message, "query http://prom:9090: expected a result vector");
}

// Members of the wrong type made nlohmann's value() throw type_error 302 out of roce-lint
// ({"status": {...}}, a numeric __name__ or resultType): std::terminate.
TEST(PrometheusAnswer, MembersOfTheWrongTypeAreErrorsNotExceptions) {
  auto status = SplitVectorAnswerByInstance(R"({"status":1})", kWhere);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message, "query http://prom:9090: status is not success");
  auto error = SplitVectorAnswerByInstance(R"({"status":"error","error":["x"]})", kWhere);
  ASSERT_FALSE(error.ok());
  EXPECT_EQ(error.error().message, "query http://prom:9090: status is not success");
  auto type = SplitVectorAnswerByInstance(
      R"({"status":"success","data":{"resultType":7,"result":[]}})", kWhere);
  EXPECT_FALSE(type.ok());
  auto name = SplitVectorAnswerByInstance(R"({"status":"success","data":{"resultType":"vector",
    "result":[{"metric":{"__name__":3,"instance":"a"},"value":[1,"1"]}]}})",
                                          kWhere);
  ASSERT_TRUE(name.ok());
  EXPECT_TRUE(name->empty());
}

// A missing "result", "metric" or "value" member was read through nlohmann's const operator[],
// which is undefined behaviour (an assertion failure in builds without NDEBUG).
TEST(PrometheusAnswer, MissingMembersAreSkippedOrErrors) {
  auto no_result = SplitVectorAnswerByInstance(
      R"({"status":"success","data":{"resultType":"vector"}})", kWhere);
  ASSERT_FALSE(no_result.ok());
  EXPECT_EQ(no_result.error().message, "query http://prom:9090: expected a result vector");
  auto no_data = SplitVectorAnswerByInstance(R"({"status":"success"})", kWhere);
  EXPECT_FALSE(no_data.ok());
  auto items = SplitVectorAnswerByInstance(R"({"status":"success","data":{"resultType":"vector",
    "result":[{"value":[1,"1"]},{"metric":{"__name__":"roce_x","instance":"a"}},
              {"metric":{"__name__":"roce_x","instance":"a"},"value":[1]}, 5, null,
              {"metric":{"__name__":"roce_y","instance":"a"},"value":[1,"2"]}]}})",
                                           kWhere);
  ASSERT_TRUE(items.ok());
  ASSERT_EQ(items->size(), 1u);
  EXPECT_EQ(items->at("a"), "roce_y{instance=\"a\"} 2\n");
}

// The value and the label names were copied into the text unchecked, so one answer item could
// inject other samples ("1\nroce_other{...} 5") into a node's metrics (found by review; the fuzz
// target checks that no item becomes more than one line).
TEST(PrometheusAnswer, OneItemNeverBecomesSeveralSamples) {
  auto split = SplitVectorAnswerByInstance(R"({"status":"success","data":{"resultType":"vector",
    "result":[
      {"metric":{"__name__":"roce_x","instance":"a"},
       "value":[1,"1\nroce_injected{instance=\"a\"} 5"]},
      {"metric":{"__name__":"roce_x","instance":"a","b=\"1\"} 2\nroce_injected{c":"d"},
       "value":[1,"1"]},
      {"metric":{"__name__":"roce_x{instance=\"a\"} 3\nroce_injected","instance":"a"},
       "value":[1,"1"]},
      {"metric":{"__name__":"roce_ok","instance":"a"},"value":[1,"1e+06"]}]}})",
                                           kWhere);
  ASSERT_TRUE(split.ok());
  ASSERT_EQ(split->size(), 1u);
  EXPECT_EQ(split->at("a"), "roce_ok{instance=\"a\"} 1e+06\n");
}

}  // namespace
}  // namespace rocewatch::lint::observe
