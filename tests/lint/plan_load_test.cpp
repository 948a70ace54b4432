// LoadPlanText / LoadPlan: JSON syntax errors, the shape findings ("plan.schema.*") with their
// exact JSON pointer and line:column, "did you mean", and the values read into the model.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "lint/plan/load.h"
#include "plan_test_util.h"

namespace rocewatch::lint::plan {
namespace {

using lint::testing::CheckIds;
using ::testing::ElementsAre;
using ::testing::SizeIs;

// Every line of this plan has one mistake, at a position written in the test below.
constexpr std::string_view kSchemaErrors = R"({
  "cluster": "c",
  "profiles": {
    "roce": {
      "netdev_mtu": "9000",
      "roce_dcsp": 26,
      "trust": "DSCP",
      "pfc_priorities": [3, "4"],
      "firmware": [],
      "dcqcn": {"rp": {"rpg_ai_rat": 5, "rpg_gd": -1}}
    }
  },
  "nodes": [
    {"name": "gpu-01", "management_ip": "10.0.0.11", "nics": [
      {"ib_dev": "mlx5_0", "netdev": "ens1f0np0", "profile": "roce"}
    ]},
    {"name": "gpu-02", "management_ip": 10, "nics": {}}
  ],
  "nodez": 1
})";

TEST(PlanLoad, SchemaFindingsHaveExactPointerAndLineColumn) {
  auto loaded = LoadPlanText(kSchemaErrors, "plan.json");
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  const auto& f = loaded->findings;
  ASSERT_THAT(f, SizeIs(11));
  std::vector<std::string> lines;
  for (const auto& x : f) lines.push_back(x.location + " [" + x.check + "] " + x.message);
  EXPECT_THAT(
      lines,
      ElementsAre(
          "plan.json:5:21 /profiles/roce/netdev_mtu [plan.schema.type] netdev_mtu must be an "
          "integer, found string \"9000\"",
          "plan.json:6:7 /profiles/roce/roce_dcsp [plan.schema.unknown-key] unknown key "
          "\"roce_dcsp\" in profile \"roce\"; did you mean \"roce_dscp\"?",
          "plan.json:7:16 /profiles/roce/trust [plan.schema.enum] trust must be one of \"dscp\", "
          "\"pcp\", found string \"DSCP\"",
          "plan.json:8:29 /profiles/roce/pfc_priorities/1 [plan.schema.type] pfc_priorities[1] "
          "must be an integer, found string \"4\"",
          "plan.json:9:19 /profiles/roce/firmware [plan.schema.type] firmware must be a non-empty "
          "string or a non-empty array of them, found an array",
          "plan.json:10:24 /profiles/roce/dcqcn/rp/rpg_ai_rat [plan.schema.unknown-key] unknown "
          "key \"rpg_ai_rat\" in the DCQCN rp parameters (mlx5 names); did you mean "
          "\"rpg_ai_rate\"?",
          "plan.json:10:51 /profiles/roce/dcqcn/rp/rpg_gd [plan.schema.type] rpg_gd must be a "
          "non-negative integer, found number -1",
          "plan.json:15:7 /nodes/0/nics/0/roce_ip [plan.schema.missing-key] nics[0] of node "
          "\"gpu-01\" lacks the required key \"roce_ip\"",
          "plan.json:17:41 /nodes/1/management_ip [plan.schema.type] management_ip must be a "
          "string, found number 10",
          "plan.json:17:53 /nodes/1/nics [plan.schema.type] nics must be an array, found an "
          "object",
          "plan.json:19:3 /nodez [plan.schema.unknown-key] unknown key \"nodez\" in the plan; did "
          "you mean \"nodes\"?"));
  for (const auto& x : f) EXPECT_EQ(x.severity, Severity::kError) << x.location;
}

TEST(PlanLoad, FindingsCarryExpectedFoundFixAndNode) {
  auto loaded = LoadPlanText(kSchemaErrors, "plan.json");
  ASSERT_TRUE(loaded.ok());
  const auto& f = loaded->findings;
  EXPECT_EQ(f[0].expected, "an integer");
  EXPECT_EQ(f[0].found, "string \"9000\"");
  EXPECT_EQ(f[0].fix, "remove the quotes: 9000");
  EXPECT_EQ(f[0].node, "");
  EXPECT_EQ(f[1].fix, "rename \"roce_dcsp\" to \"roce_dscp\"");
  EXPECT_EQ(f[1].expected, "roce_dscp");
  EXPECT_EQ(f[1].found, "roce_dcsp");
  EXPECT_EQ(f[7].fix, "add \"roce_ip\": \"10.1.0.11/24\"");
  EXPECT_EQ(f[7].node, "gpu-01");
  EXPECT_EQ(f[8].node, "gpu-02");
}

TEST(PlanLoad, UnknownKeyWithoutCloseMatchListsTheKnownKeys) {
  auto loaded =
      LoadPlanText(R"({"cluster": "c", "profiles": {}, "nodes": [], "owner": "x"})", "p.json");
  ASSERT_TRUE(loaded.ok());
  ASSERT_THAT(loaded->findings, SizeIs(1));
  EXPECT_EQ(loaded->findings[0].message, "unknown key \"owner\" in the plan");
  EXPECT_EQ(loaded->findings[0].location, "p.json:1:47 /owner");
  EXPECT_EQ(loaded->findings[0].fix,
            "remove \"owner\" (known keys: \"$schema\", \"cluster\", \"defaults\", \"profiles\", "
            "\"nodes\")");
}

// An optional counter's name goes into a command (`rdma statistic set`): the loader takes what the
// kernel names counters with and nothing else.
TEST(PlanLoad, OptionalCounterNamesAreKernelCounterNames) {
  auto loaded = LoadPlanText(R"({"cluster": "c", "nodes": [],
    "profiles": {"roce": {"optional_counters": ["cc_rx_ce_pkts", "x; reboot"]},
                 "ok": {"optional_counters": "cc_tx_cnp_pkts"}}})",
                             "plan.json");
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  ASSERT_THAT(loaded->findings, SizeIs(1));
  const Finding& f = loaded->findings[0];
  EXPECT_EQ(f.check, "plan.schema.type");
  EXPECT_EQ(f.location, "plan.json:2:66 /profiles/roce/optional_counters/1");
  EXPECT_EQ(f.message, "optional_counters[1] must be an optional counter name (1-63 of a-z, 0-9, _), found string \"x; reboot\"");
  EXPECT_TRUE(loaded->plan.profiles.at("roce").optional_counters.empty());
  EXPECT_EQ(loaded->plan.profiles.at("ok").optional_counters, std::vector<std::string>{"cc_tx_cnp_pkts"});
}

TEST(PlanLoad, MissingTopLevelKeysArePlacedAtTheRootObject) {
  auto loaded = LoadPlanText("\n\n  {\"cluster\": \"c\"}", "p.json");
  ASSERT_TRUE(loaded.ok());
  ASSERT_THAT(loaded->findings, SizeIs(2));
  EXPECT_EQ(loaded->findings[0].location, "p.json:3:3 /profiles");
  EXPECT_EQ(loaded->findings[0].message, "the plan lacks the required key \"profiles\"");
  EXPECT_EQ(loaded->findings[1].location, "p.json:3:3 /nodes");
  EXPECT_EQ(loaded->findings[1].fix, "add \"nodes\": []");
}

TEST(PlanLoad, RootThatIsNotAnObject) {
  auto loaded = LoadPlanText("[1, 2]", "p.json");
  ASSERT_TRUE(loaded.ok());
  ASSERT_THAT(loaded->findings, SizeIs(1));
  EXPECT_EQ(loaded->findings[0].location, "p.json:1:1 /");
  EXPECT_EQ(loaded->findings[0].message, "the plan must be an object, found an array");
}

TEST(PlanLoad, DuplicateKeysAreReportedAtTheRepeat) {
  constexpr std::string_view kText = R"({
  "cluster": "a",
  "profiles": {},
  "cluster": "b",
  "nodes": []
})";
  auto loaded = LoadPlanText(kText, "p.json");
  ASSERT_TRUE(loaded.ok());
  ASSERT_THAT(loaded->findings, SizeIs(1));
  const Finding& f = loaded->findings[0];
  EXPECT_EQ(f.check, "plan.schema.duplicate-key");
  EXPECT_EQ(f.location, "p.json:4:3 /cluster");
  EXPECT_EQ(f.message,
            "key \"cluster\" appears twice in one object (first at 2:3); only the last one counts");
  EXPECT_EQ(loaded->plan.cluster, "b");  // what nlohmann-json keeps
}

TEST(PlanLoad, ColumnsCountCharactersNotBytes) {
  // "größe" has 5 characters in 7 bytes: the unknown key starts at column 51, byte 53.
  auto loaded =
      LoadPlanText(R"({"cluster": "größe", "nodes": [], "profiles": {}, "x": 1})", "p.json");
  ASSERT_TRUE(loaded.ok());
  ASSERT_THAT(loaded->findings, SizeIs(1));
  EXPECT_EQ(loaded->findings[0].location, "p.json:1:51 /x");
}

TEST(PlanLoad, KeysWithSlashAndTildeAreEscapedInPointers) {
  auto loaded =
      LoadPlanText(R"({"cluster": "c", "nodes": [], "profiles": {"a/b~c": {"mtu": 1}}})", "p.json");
  ASSERT_TRUE(loaded.ok());
  ASSERT_THAT(loaded->findings, SizeIs(1));
  EXPECT_EQ(loaded->findings[0].location, "p.json:1:54 /profiles/a~1b~0c/mtu");
  EXPECT_EQ(loaded->findings[0].message, "unknown key \"mtu\" in profile \"a/b~c\"");
}

TEST(PlanLoad, MalformedJsonIsAnErrorWithLineAndColumn) {
  auto missing_comma = LoadPlanText("{\n  \"cluster\": \"c\"\n  \"nodes\": []\n}", "p.json");
  ASSERT_FALSE(missing_comma.ok());
  EXPECT_EQ(missing_comma.error().message,
            "p.json:3:9: invalid JSON: syntax error while parsing object - unexpected string "
            "literal; expected '}'");

  auto trailing_comma = LoadPlanText("{\"a\": [1, 2,]}", "p.json");
  ASSERT_FALSE(trailing_comma.ok());
  EXPECT_EQ(trailing_comma.error().message,
            "p.json:1:13: invalid JSON: syntax error while parsing value - unexpected ']'; "
            "expected '[', '{', or a literal");

  auto empty = LoadPlanText("", "p.json");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().message,
            "p.json:1:1: invalid JSON: syntax error while parsing value - unexpected end of "
            "input; expected '[', '{', or a literal");
}

TEST(PlanLoad, DeepNestingIsRefusedBeforeParsing) {
  std::string deep = R"({"cluster": "c", "profiles": {}, "nodes": )" + std::string(100, '[') +
                     std::string(100, ']') + "}";
  auto loaded = LoadPlanText(deep, "p.json");
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.error().message, "p.json: invalid plan: JSON nested deeper than 64 levels");
}

TEST(PlanLoad, OversizedTextIsRefused) {
  std::string big(kMaxPlanBytes + 1, ' ');
  auto loaded = LoadPlanText(big, "p.json");
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.error().message,
            "p.json: plan is 67108865 bytes, above the limit of 67108864 bytes");
}

TEST(PlanLoad, UnreadableFileIsAnError) {
  auto loaded = LoadPlan("/nonexistent/plan.json");
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.error().message,
            "cannot open /nonexistent/plan.json: No such file or directory");
  EXPECT_EQ(loaded.error().code, ENOENT);
}

TEST(PlanLoad, ExamplePlanIsReadCompletely) {
  auto loaded = LoadPlan(ROCEWATCH_SOURCE_DIR "/lint/plan/example-plan.json");
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_THAT(loaded->findings, SizeIs(0));
  const Plan& plan = loaded->plan;
  EXPECT_EQ(plan.cluster, "gpu-cluster-a");
  EXPECT_EQ(plan.exporter_port, 9879);
  ASSERT_EQ(plan.profiles.size(), 1u);
  const Profile* p = plan.FindProfile("roce-400g");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->link_speed_gbps, 400);
  EXPECT_EQ(p->netdev_mtu, 9000);
  EXPECT_EQ(p->roce_mode, "v2");
  EXPECT_EQ(p->roce_mtu, 4096);
  EXPECT_EQ(p->trust, "dscp");
  EXPECT_EQ(p->pfc_priorities, std::vector<std::int64_t>{3});
  EXPECT_EQ(p->roce_dscp, 26);
  EXPECT_EQ(p->roce_priority, 3);
  EXPECT_EQ(p->cnp_dscp, 48);
  EXPECT_EQ(p->cnp_priority, 6);
  EXPECT_EQ(p->ecn.np_priorities, std::vector<std::int64_t>{3});
  EXPECT_EQ(p->ecn.rp_priorities, std::vector<std::int64_t>{3});
  ASSERT_TRUE(p->dcqcn.has_value());
  EXPECT_EQ(p->dcqcn->np.size(), 3u);
  EXPECT_EQ(p->dcqcn->np.at("cnp_dscp"), 48);
  EXPECT_EQ(p->dcqcn->rp.size(), 16u);
  EXPECT_EQ(p->dcqcn->rp.at("rpg_time_reset"), 300);
  EXPECT_EQ(p->dcqcn->rp.at("rpg_byte_reset"), 32767);
  EXPECT_EQ(p->dcqcn->rp.at("dce_tcp_g"), 1019);
  EXPECT_EQ(p->firmware, (std::vector<std::string>{"28.39.1002", "28.39.2048"}));
  EXPECT_EQ(p->driver, "mlx5_core");
  EXPECT_EQ(p->driver_version, std::vector<std::string>{"24.04-0.6.6"});
  ASSERT_TRUE(p->pcie.has_value());
  EXPECT_EQ(p->pcie->speed_gts, 32.0);
  EXPECT_EQ(p->pcie->width, 16);
  ASSERT_TRUE(p->optics.has_value());
  EXPECT_EQ(p->optics->temperature_celsius_max, 70.0);
  EXPECT_EQ(p->optics->rx_power_dbm_min, -7.0);
  EXPECT_FALSE(p->optics->voltage_volts_min.has_value());

  ASSERT_EQ(plan.nodes.size(), 6u);
  const Node& n = plan.nodes[2];
  EXPECT_EQ(n.name, "gpu-03");
  EXPECT_EQ(n.management_ip, "10.0.0.13");
  EXPECT_EQ(n.exporter, "10.0.0.13:9879");
  EXPECT_FALSE(n.exporter_given);
  EXPECT_EQ(n.labels.at("rack"), "r1");
  ASSERT_EQ(n.nics.size(), 2u);
  EXPECT_EQ(n.nics[1].ib_dev, "mlx5_1");
  EXPECT_EQ(n.nics[1].netdev, "ens2f0np0");
  EXPECT_EQ(n.nics[1].profile, "roce-400g");
  EXPECT_EQ(n.nics[1].roce_ip, "10.1.1.13/24");
  EXPECT_EQ(n.nics[1].rail, 1);
  EXPECT_EQ(n.nics[1].switch_port, "leaf-1:Ethernet24");
}

TEST(PlanLoad, ExporterDefaultsToManagementIpAndDefaultsPort) {
  auto loaded =
      LoadPlanText(R"({"cluster": "c", "profiles": {}, "defaults": {"exporter_port": 9100},
    "nodes": [{"name": "a", "management_ip": "fd00::11", "nics": []},
              {"name": "b", "management_ip": "10.0.0.2", "exporter": "b.example:9200", "nics": []}]})",
                   "p.json");
  ASSERT_TRUE(loaded.ok());
  EXPECT_THAT(loaded->findings, SizeIs(0));
  EXPECT_EQ(loaded->plan.nodes[0].exporter, "[fd00::11]:9100");
  EXPECT_EQ(loaded->plan.nodes[1].exporter, "b.example:9200");
  EXPECT_TRUE(loaded->plan.nodes[1].exporter_given);
}

TEST(PlanLoad, ExporterPortOutOfRange) {
  auto loaded = LoadPlanText(
      R"({"cluster": "c", "profiles": {}, "nodes": [], "defaults": {"exporter_port": 70000}})",
      "p.json");
  ASSERT_TRUE(loaded.ok());
  ASSERT_THAT(loaded->findings, SizeIs(1));
  EXPECT_EQ(loaded->findings[0].message,
            "exporter_port must be an integer from 1 to 65535, found number 70000");
  EXPECT_EQ(loaded->findings[0].location, "p.json:1:77 /defaults/exporter_port");
}

TEST(PlanLoad, IntegralFloatsCountAsIntegersLikeJsonSchema) {
  auto loaded = LoadPlanText(
      R"({"cluster": "c", "nodes": [], "profiles": {"p": {"netdev_mtu": 9000.0, "roce_mtu": 4096.5}}})",
      "p.json");
  ASSERT_TRUE(loaded.ok());
  ASSERT_THAT(loaded->findings, SizeIs(1));
  EXPECT_EQ(loaded->findings[0].message, "roce_mtu must be an integer, found number 4096.5");
  EXPECT_EQ(loaded->plan.FindProfile("p")->netdev_mtu, 9000);
  EXPECT_FALSE(loaded->plan.FindProfile("p")->roce_mtu.has_value());
}

TEST(PlanLoad, EmptyStringsAreRejected) {
  auto loaded = LoadPlanText(R"({"cluster": "", "profiles": {}, "nodes": []})", "p.json");
  ASSERT_TRUE(loaded.ok());
  EXPECT_THAT(CheckIds(loaded->findings), ElementsAre("plan.schema.type"));
  EXPECT_EQ(loaded->findings[0].message, "cluster must be a non-empty string, found string \"\"");
}

TEST(PlanLoad, SchemaFindingsAreErrors) {
  for (const auto& key : AllowedKeys(PlanObject::kProfile)) {
    auto loaded = LoadPlanText(
        R"({"cluster": "c", "nodes": [], "profiles": {"p": {")" + key + R"(": {"x": null}}}})",
        "p.json");
    ASSERT_TRUE(loaded.ok());
    ASSERT_FALSE(loaded->findings.empty()) << key << " accepted an object of junk";
    EXPECT_EQ(loaded->findings[0].severity, Severity::kError);
  }
}

}  // namespace
}  // namespace rocewatch::lint::plan
