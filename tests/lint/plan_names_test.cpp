// plan.invalid-name (lint/plan/name_rules.h, name_checks.cpp): each field's character set, the
// finding naming the field and the node, and the example plan staying clean.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "lint/plan/name_rules.h"
#include "lint/plan_test_util.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::plan {
namespace {

using namespace std::string_literals;
using ::testing::HasSubstr;
using testing::AllFindings;
using testing::ReplaceOnce;
using testing::WithCheck;

TEST(NameRules, HostNames) {
  for (std::string ok : std::vector<std::string>{"gpu-01", "GPU01", "a", "gpu-01.rack-3.example.com", "0gpu"})
    EXPECT_EQ(HostNameProblem(ok), "") << ok;
  for (std::string bad : std::vector<std::string>{"", "../outside", "gpu-03\ngpu-99: passed (8 NICs)", "-gpu", "gpu-",
                          "a..b", ".a", "a.", "gpu_01", "gpu 01", "gpu\0x"s, "g\x1b[1m",
                          std::string(64, 'a'), std::string(254, 'a')})
    EXPECT_NE(HostNameProblem(bad), "") << Quote(bad);
  EXPECT_EQ(HostNameProblem("a\nb"), "it contains a control character");
}

TEST(NameRules, NetdevNamesAsTheKernelTakesThem) {
  // dev_valid_name: at most 15 bytes, not "." or "..", no '/', ':' or white space.
  for (std::string ok : std::vector<std::string>{"ens1f0np0", "eth0", "bond0.100", "e@x", "enp1s0f0np0-abc", "网卡"})
    EXPECT_EQ(NetdevNameProblem(ok), "") << ok;
  for (std::string bad : std::vector<std::string>{"", ".", "..", "a/b", "eth0:1", "a b", "a\tb", "a\nb",
                          "sixteen-chars-xx", "\x1b[31m", "bad\xff"})
    EXPECT_NE(NetdevNameProblem(bad), "") << Quote(bad);
  EXPECT_EQ(NetdevNameProblem("sixteen-chars-xx"), "it is longer than 15 bytes");
  EXPECT_EQ(NetdevNameProblem("eth0:1"), "it contains ':'");
}

TEST(NameRules, RdmaDevicesAndPrintableText) {
  EXPECT_EQ(RdmaDeviceNameProblem("mlx5_0"), "");
  EXPECT_EQ(RdmaDeviceNameProblem("rxe:0"), "");
  for (std::string bad : std::vector<std::string>{"", "..", "m/x", "m x", std::string(64, 'm'), "m\n"})
    EXPECT_NE(RdmaDeviceNameProblem(bad), "") << Quote(bad);
  for (std::string ok : std::vector<std::string>{"gpu-cluster-a", "roce 400g (rail-optimized)", "集群 A", "28.39.2048"})
    EXPECT_EQ(PrintableProblem(ok), "") << ok;
  for (std::string bad : std::vector<std::string>{"c1\nid > /tmp/x\n#", "a\rb", "a\tb", "\x1b[2J", "nul\0"s, "bad\xff",
                          "\xc2\x9b", "rtl\xe2\x80\xae", std::string(257, 'a')})
    EXPECT_NE(PrintableProblem(bad), "") << Quote(bad);
}

std::string ExampleText() {
  std::ifstream f(ROCEWATCH_SOURCE_DIR "/lint/plan/example-plan.json");
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

TEST(PlanInvalidName, ExamplePlanIsClean) {
  EXPECT_TRUE(WithCheck(AllFindings(ExampleText()), "plan.invalid-name").empty());
}

struct Mutation {
  std::string from, to, location, what;
};

TEST(PlanInvalidName, EveryFieldIsChecked) {
  const std::string text = ExampleText();
  const Mutation cases[] = {
      {"\"cluster\": \"gpu-cluster-a\"", "\"cluster\": \"c1\\nid > /tmp/x\\n#\"", "/cluster",
       "cluster"},
      {"\"name\": \"gpu-01\"", "\"name\": \"../outside\"", "/nodes/0/name",
       "node name of nodes[0]"},
      {"\"name\": \"gpu-02\"", "\"name\": \"gpu-03\\ngpu-99: passed (8 NICs)\"", "/nodes/1/name",
       "node name of nodes[1]"},
  };
  for (const auto& m : cases) {
    auto found = WithCheck(AllFindings(ReplaceOnce(text, m.from, m.to)), "plan.invalid-name");
    ASSERT_EQ(found.size(), 1u) << m.to;
    EXPECT_EQ(found[0].severity, Severity::kError);
    EXPECT_THAT(found[0].location, HasSubstr(m.location));
    EXPECT_THAT(found[0].message, HasSubstr(m.what));
    // The message quotes the name with its control characters escaped.
    for (unsigned char c : found[0].message) EXPECT_GE(c, 0x20);
  }
}

TEST(PlanInvalidName, NicsProfilesVersionsAndLabels) {
  const std::string plan = R"({"cluster": "c",
    "profiles": {"roce\ntouch /tmp/x\n#": {"firmware": ["28.39.2048", "x\u001b[31m"],
                                          "driver": "mlx5\rcore", "driver_version": "v\n1"}},
    "nodes": [{"name": "gpu-01", "management_ip": "10.0.0.1", "labels": {"rack": "r\u0007"},
      "nics": [{"ib_dev": "mlx5/0", "netdev": "ens1f0np0:1", "profile": "roce\ntouch /tmp/x\n#",
                "roce_ip": "10.1.0.1/24", "switch_port": "leaf\n1"}]}]})";
  auto found = WithCheck(AllFindings(plan), "plan.invalid-name");
  std::vector<std::string> where;
  for (const auto& f : found) where.push_back(f.location.substr(f.location.find(' ') + 1));
  EXPECT_THAT(where, ::testing::UnorderedElementsAre(
                         "/profiles/roce\ntouch ~1tmp~1x\n#", "/profiles/roce\ntouch ~1tmp~1x\n#/firmware/1",
                         "/profiles/roce\ntouch ~1tmp~1x\n#/driver",
                         "/profiles/roce\ntouch ~1tmp~1x\n#/driver_version", "/nodes/0/labels/rack",
                         "/nodes/0/nics/0/ib_dev", "/nodes/0/nics/0/netdev",
                         "/nodes/0/nics/0/switch_port"));
  for (const auto& f : found) {
    if (f.location.find("/nodes/") != std::string::npos) {
      EXPECT_EQ(f.node, "gpu-01");
    }
  }
}

}  // namespace
}  // namespace rocewatch::lint::plan
