#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "lint/report/json_report.h"
#include "lint/report/text_report.h"

namespace rocewatch::lint::report {
namespace {

Finding Sample(Severity severity) {
  Finding f;
  f.check = "plan.duplicate-roce-ip";
  f.severity = severity;
  f.node = "gpu-02";
  f.device = "mlx5_0";
  f.netdev = "ens1f0np0";
  f.expected = "a unique RoCE IP";
  f.found = "10.1.0.11";
  f.message = "RoCE IP 10.1.0.11 is used twice";
  f.fix = "correct one";
  f.location = "plan.json:19:87 /nodes/1/nics/0/roce_ip";
  return f;
}

TEST(TextReport, OneLinePerFinding) {
  EXPECT_EQ(FormatFindingLine(Sample(Severity::kError)),
            "plan.json:19:87 /nodes/1/nics/0/roce_ip: error: RoCE IP 10.1.0.11 is used twice "
            "[plan.duplicate-roce-ip]");
  Finding no_location = Sample(Severity::kWarning);
  no_location.location.clear();
  EXPECT_EQ(FormatFindingLine(no_location),
            "gpu-02 mlx5_0 ens1f0np0: warning: RoCE IP 10.1.0.11 is used twice "
            "[plan.duplicate-roce-ip]");
  std::ostringstream out;
  WriteTextFindings(out, {Sample(Severity::kInfo), Sample(Severity::kCritical)});
  const std::string text = out.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2);
  EXPECT_EQ(text.substr(0, text.find('\n')),
            "plan.json:19:87 /nodes/1/nics/0/roce_ip: info: RoCE IP 10.1.0.11 is used twice "
            "[plan.duplicate-roce-ip]");
}

TEST(TextReport, SeverityCounts) {
  EXPECT_EQ(SeverityCounts({}), "no findings");
  EXPECT_EQ(
      SeverityCounts({Sample(Severity::kError), Sample(Severity::kWarning),
                      Sample(Severity::kError), Sample(Severity::kInfo), Sample(Severity::kInfo)}),
      "2 errors, 1 warning, 2 info");
  EXPECT_EQ(SeverityCounts({Sample(Severity::kCritical), Sample(Severity::kCritical)}),
            "2 critical");
}

TEST(JsonReport, CarriesEveryFieldAndASummary) {
  auto j = JsonReport({Sample(Severity::kWarning), Sample(Severity::kInfo)},
                      {"plan", "plan.json", Severity::kError});
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["tool"], "roce-lint");
  EXPECT_EQ(j["command"], "plan");
  EXPECT_EQ(j["input"], "plan.json");
  EXPECT_EQ(j["summary"]["total"], 2);
  EXPECT_EQ(j["summary"]["warning"], 1);
  EXPECT_EQ(j["summary"]["info"], 1);
  EXPECT_EQ(j["summary"]["error"], 0);
  EXPECT_EQ(j["summary"]["fail_on"], "error");
  EXPECT_EQ(j["summary"]["failed"], false);
  ASSERT_EQ(j["findings"].size(), 2u);
  const auto& f = j["findings"][0];
  std::vector<std::string> keys;
  for (const auto& [k, v] : f.items()) keys.push_back(k);
  EXPECT_THAT(keys, ::testing::ElementsAre("check", "severity", "node", "device", "port", "netdev",
                                           "expected", "found", "message", "fix", "location"));
  EXPECT_EQ(f["severity"], "warning");
  EXPECT_EQ(f["port"], "");
  EXPECT_EQ(f["location"], "plan.json:19:87 /nodes/1/nics/0/roce_ip");
  // Round trip through text.
  auto back = nlohmann::json::parse(j.dump());
  EXPECT_EQ(back["findings"][1]["check"], "plan.duplicate-roce-ip");
}

}  // namespace
}  // namespace rocewatch::lint::report
