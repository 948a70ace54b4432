// ValidatePlan: every plan check fires on a plan with that one mistake (exact message and
// location) and stays quiet on good plans.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "lint/plan/plan_checks.h"
#include "lint/plan/validate.h"
#include "plan_test_util.h"

namespace rocewatch::lint::plan {
namespace {

using lint::testing::AllFindings;
using lint::testing::CheckIds;
using lint::testing::ReplaceOnce;
using lint::testing::WithCheck;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAre;

// A good plan; each test below changes one thing in it.
constexpr std::string_view kGood = R"({
  "cluster": "test",
  "profiles": {
    "roce": {
      "netdev_mtu": 9000, "roce_mtu": 4096, "trust": "dscp",
      "pfc_priorities": [3], "roce_dscp": 26, "roce_priority": 3,
      "cnp_dscp": 48, "cnp_priority": 6,
      "ecn": {"np_priorities": [3], "rp_priorities": [3]},
      "dcqcn": {"np": {"cnp_dscp": 48, "cnp_802p_prio": 6}},
      "pcie": {"speed_gts": 32, "width": 16},
      "optics": {"rx_power_dbm_min": -7.0, "rx_power_dbm_max": 4.0}
    }
  },
  "nodes": [
    {"name": "gpu-01", "management_ip": "10.0.0.11", "nics": [
      {"ib_dev": "mlx5_0", "netdev": "ens1f0np0", "profile": "roce", "roce_ip": "10.1.0.11/24", "rail": 0},
      {"ib_dev": "mlx5_1", "netdev": "ens2f0np0", "profile": "roce", "roce_ip": "10.1.1.11/24", "rail": 1}]},
    {"name": "gpu-02", "management_ip": "10.0.0.12", "nics": [
      {"ib_dev": "mlx5_0", "netdev": "ens1f0np0", "profile": "roce", "roce_ip": "10.1.0.12/24", "rail": 0},
      {"ib_dev": "mlx5_1", "netdev": "ens2f0np0", "profile": "roce", "roce_ip": "10.1.1.12/24", "rail": 1}]}
  ]
})";

std::string Mutate(std::string_view from, std::string_view to) {
  return ReplaceOnce(std::string(kGood), from, to);
}

TEST(PlanChecks, GoodPlanIsClean) { EXPECT_THAT(AllFindings(kGood), IsEmpty()); }

TEST(PlanChecks, ExamplePlanIsClean) {
  std::ifstream f(ROCEWATCH_SOURCE_DIR "/lint/plan/example-plan.json");
  std::stringstream ss;
  ss << f.rdbuf();
  ASSERT_GT(ss.str().size(), 1000u);
  EXPECT_THAT(AllFindings(ss.str(), "example-plan.json"), IsEmpty());
}

TEST(PlanChecks, DocumentedExampleIsClean) {
  std::ifstream f(ROCEWATCH_SOURCE_DIR "/docs/plan.md");
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string doc = ss.str();
  std::size_t section = doc.find("## A complete example");
  ASSERT_NE(section, std::string::npos);
  std::size_t begin = doc.find("```json\n", section);
  ASSERT_NE(begin, std::string::npos);
  begin += 8;
  std::size_t end = doc.find("```", begin);
  ASSERT_NE(end, std::string::npos);
  auto loaded = LoadPlanText(doc.substr(begin, end - begin), "plan.md");
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ(loaded->plan.nodes.size(), 2u);
  EXPECT_EQ(loaded->plan.nodes[1].exporter, "gpu-02.mgmt.example.net:9879");
  ASSERT_NE(loaded->plan.FindProfile("roce-400g"), nullptr);
  EXPECT_EQ(loaded->plan.FindProfile("roce-400g")->optics->voltage_volts_max, 3.465);
  EXPECT_THAT(loaded->findings, IsEmpty());
  EXPECT_THAT(ValidatePlan(loaded->plan), IsEmpty());
}

TEST(PlanChecks, NoNodes) {
  auto f = AllFindings(R"({"cluster": "c", "profiles": {}, "nodes": []})");
  ASSERT_THAT(CheckIds(f), ElementsAre("plan.no-nodes"));
  EXPECT_EQ(f[0].location, "plan.json:1:43 /nodes");
  EXPECT_EQ(f[0].severity, Severity::kWarning);
  EXPECT_EQ(f[0].message, "the plan lists no nodes, so nothing will be checked");
}

TEST(PlanChecks, NodeWithoutNics) {
  auto f = AllFindings(R"({"cluster": "c", "profiles": {},
  "nodes": [{"name": "gpu-01", "management_ip": "10.0.0.11", "nics": []}]})");
  ASSERT_THAT(CheckIds(f), ElementsAre("plan.node-without-nics"));
  EXPECT_EQ(f[0].location, "plan.json:2:70 /nodes/0/nics");
  EXPECT_EQ(f[0].message, "node \"gpu-01\" lists no NICs, so nothing on it will be checked");
  EXPECT_EQ(f[0].node, "gpu-01");
}

TEST(PlanChecks, DuplicateNodeName) {
  auto f = AllFindings(Mutate(R"("name": "gpu-02")", R"("name": "gpu-01")"));
  ASSERT_THAT(CheckIds(f), ElementsAre("plan.duplicate-node-name"));
  EXPECT_EQ(f[0].location, "plan.json:18:14 /nodes/1/name");
  EXPECT_EQ(f[0].message, "node name \"gpu-01\" is also used by nodes[0] at plan.json:15:14");
  EXPECT_EQ(f[0].severity, Severity::kError);
  EXPECT_EQ(f[0].found, "gpu-01");
}

TEST(PlanChecks, DuplicateManagementIpComparesAddressesNotText) {
  auto f =
      AllFindings(Mutate(R"("management_ip": "10.0.0.12")", R"("management_ip": "10.0.0.11")"));
  ASSERT_THAT(CheckIds(f), ElementsAre("plan.duplicate-management-ip"));
  EXPECT_EQ(f[0].location, "plan.json:18:41 /nodes/1/management_ip");
  EXPECT_EQ(f[0].message,
            "management IP 10.0.0.11 of node \"gpu-02\" is also used by node \"gpu-01\" at "
            "plan.json:15:41");
  EXPECT_EQ(f[0].node, "gpu-02");
  // The derived exporter addresses collide too, but that is the same mistake: reported once.

  auto v6 = AllFindings(Mutate(R"("management_ip": "10.0.0.11")", R"("management_ip": "fd00::1")"));
  EXPECT_THAT(v6, IsEmpty());
  std::string both =
      ReplaceOnce(Mutate(R"("management_ip": "10.0.0.11")", R"("management_ip": "fd00::1")"),
                  R"("management_ip": "10.0.0.12")", R"("management_ip": "FD00:0::1")");
  EXPECT_THAT(CheckIds(AllFindings(both)), ElementsAre("plan.duplicate-management-ip"));
}

TEST(PlanChecks, DuplicateExporter) {
  auto f = AllFindings(Mutate(R"("management_ip": "10.0.0.12",)",
                              R"("management_ip": "10.0.0.12", "exporter": "10.0.0.11:9879",)"));
  ASSERT_THAT(CheckIds(f), ElementsAre("plan.duplicate-exporter"));
  EXPECT_EQ(f[0].location, "plan.json:18:66 /nodes/1/exporter");
  EXPECT_EQ(f[0].message,
            "exporter 10.0.0.11:9879 of node \"gpu-02\" is also the exporter of node \"gpu-01\", "
            "so one node's metrics would be read for both");
}

TEST(PlanChecks, InvalidExporter) {
  auto f = AllFindings(Mutate(R"("management_ip": "10.0.0.12",)",
                              R"("management_ip": "10.0.0.12", "exporter": "gpu-02:http",)"));
  ASSERT_THAT(CheckIds(f), ElementsAre("plan.invalid-exporter"));
  EXPECT_EQ(f[0].location, "plan.json:18:66 /nodes/1/exporter");
  EXPECT_EQ(f[0].message,
            "exporter of node \"gpu-02\": \"gpu-02:http\": port \"http\" is not a number from 1 "
            "to 65535");
}

TEST(PlanChecks, DuplicateRoceIpAcrossNodesIgnoresThePrefix) {
  auto f = AllFindings(Mutate(R"("10.1.0.12/24")", R"("10.1.0.11/16")"));
  ASSERT_THAT(CheckIds(f), ElementsAre("plan.duplicate-roce-ip"));
  EXPECT_EQ(f[0].location, "plan.json:19:81 /nodes/1/nics/0/roce_ip");
  EXPECT_EQ(f[0].message,
            "RoCE IP 10.1.0.11 of mlx5_0 of node \"gpu-02\" is also used by mlx5_0 of node "
            "\"gpu-01\" at plan.json:16:81");
  EXPECT_EQ(f[0].node, "gpu-02");
  EXPECT_EQ(f[0].device, "mlx5_0");
  EXPECT_EQ(f[0].netdev, "ens1f0np0");
}

TEST(PlanChecks, DuplicateIbDevNetdevAndRailWithinANode) {
  auto ib = AllFindings(Mutate(
      R"("ib_dev": "mlx5_1", "netdev": "ens2f0np0", "profile": "roce", "roce_ip": "10.1.1.11/24")",
      R"("ib_dev": "mlx5_0", "netdev": "ens2f0np0", "profile": "roce", "roce_ip": "10.1.1.11/24")"));
  ASSERT_THAT(CheckIds(ib), ElementsAre("plan.duplicate-ib-dev"));
  EXPECT_EQ(ib[0].location, "plan.json:17:18 /nodes/0/nics/1/ib_dev");
  EXPECT_EQ(ib[0].message,
            "ib_dev \"mlx5_0\" appears twice in node \"gpu-01\": nics[1] and nics[0] at "
            "plan.json:16:18");

  auto nd =
      AllFindings(Mutate(R"("netdev": "ens2f0np0", "profile": "roce", "roce_ip": "10.1.1.12/24")",
                         R"("netdev": "ens1f0np0", "profile": "roce", "roce_ip": "10.1.1.12/24")"));
  ASSERT_THAT(CheckIds(nd), ElementsAre("plan.duplicate-netdev"));
  EXPECT_EQ(nd[0].location, "plan.json:20:38 /nodes/1/nics/1/netdev");
  EXPECT_EQ(nd[0].message,
            "netdev \"ens1f0np0\" appears twice in node \"gpu-02\": nics[1] and nics[0] at "
            "plan.json:19:38");

  auto rail = AllFindings(Mutate(R"("10.1.1.12/24", "rail": 1)", R"("10.1.1.12/24", "rail": 0)"));
  ASSERT_THAT(CheckIds(rail), ElementsAre("plan.duplicate-rail"));
  EXPECT_EQ(rail[0].location, "plan.json:20:105 /nodes/1/nics/1/rail");
  EXPECT_EQ(rail[0].message,
            "rail 0 is given to two NICs of node \"gpu-02\": nics[1] and nics[0] at "
            "plan.json:19:105");
}

TEST(PlanChecks, InvalidIps) {
  auto mgmt = AllFindings(Mutate(R"("10.0.0.12")", R"("10.0.0.256")"));
  ASSERT_THAT(CheckIds(mgmt), ElementsAre("plan.invalid-ip"));
  EXPECT_EQ(mgmt[0].location, "plan.json:18:41 /nodes/1/management_ip");
  EXPECT_EQ(mgmt[0].message,
            "management_ip of node \"gpu-02\": \"10.0.0.256\" is not a valid IPv4 address (four "
            "decimal numbers 0-255, no leading zeros)");

  auto no_prefix = AllFindings(Mutate(R"("10.1.1.12/24")", R"("10.1.1.12")"));
  ASSERT_THAT(CheckIds(no_prefix), ElementsAre("plan.invalid-ip"));
  EXPECT_EQ(no_prefix[0].location, "plan.json:20:81 /nodes/1/nics/1/roce_ip");
  EXPECT_EQ(no_prefix[0].message,
            "roce_ip of mlx5_1 of node \"gpu-02\": \"10.1.1.12\" has no prefix length; write it "
            "as address/length, e.g. 10.1.0.11/24");
  EXPECT_EQ(no_prefix[0].device, "mlx5_1");

  auto v6 = AllFindings(Mutate(R"("10.1.1.12/24")", R"("fd00:1::12/129")"));
  ASSERT_THAT(CheckIds(v6), ElementsAre("plan.invalid-ip"));
  EXPECT_EQ(v6[0].message,
            "roce_ip of mlx5_1 of node \"gpu-02\": \"fd00:1::12/129\": prefix length \"129\" is "
            "not a number from 0 to 128");

  EXPECT_THAT(AllFindings(Mutate(R"("10.1.1.12/24")", R"("fd00:1::12/64")")), IsEmpty());
}

TEST(PlanChecks, RoceIpThatIsNotAHostAddress) {
  auto f = AllFindings(Mutate(R"("10.1.1.12/24")", R"("10.1.1.255/24")"));
  ASSERT_THAT(CheckIds(f), ElementsAre("plan.roce-ip-not-host"));
  EXPECT_EQ(f[0].severity, Severity::kWarning);
  EXPECT_EQ(f[0].message,
            "roce_ip 10.1.1.255/24 of mlx5_1 of node \"gpu-02\" is the broadcast address of its "
            "subnet, not a host address");
  auto net = AllFindings(Mutate(R"("10.1.1.12/24")", R"("10.1.1.0/24")"));
  ASSERT_THAT(CheckIds(net), ElementsAre("plan.roce-ip-not-host"));
  // Point-to-point /31 and host /32 have no network or broadcast address.
  EXPECT_THAT(AllFindings(Mutate(R"("10.1.1.12/24")", R"("10.1.1.12/31")")), IsEmpty());
}

TEST(PlanChecks, UnknownProfileSuggestsTheClosest) {
  auto f = AllFindings(Mutate(R"("profile": "roce", "roce_ip": "10.1.1.12/24")",
                              R"("profile": "Roce", "roce_ip": "10.1.1.12/24")"));
  ASSERT_THAT(CheckIds(f), ElementsAre("plan.unknown-profile"));
  EXPECT_EQ(f[0].location, "plan.json:20:62 /nodes/1/nics/1/profile");
  EXPECT_EQ(f[0].message,
            "mlx5_1 of node \"gpu-02\" refers to profile \"Roce\", which the plan does not "
            "define; did you mean \"roce\"?");
  EXPECT_EQ(f[0].fix, "set profile to \"roce\"");
}

TEST(PlanChecks, UnusedProfile) {
  auto f = AllFindings(Mutate(R"("profiles": {)", R"("profiles": {"spare": {},)"));
  ASSERT_THAT(CheckIds(f), ElementsAre("plan.unused-profile"));
  EXPECT_EQ(f[0].severity, Severity::kInfo);
  EXPECT_EQ(f[0].location, "plan.json:3:16 /profiles/spare");
  EXPECT_EQ(f[0].message, "profile \"spare\" is not used by any NIC");
}

TEST(PlanChecks, PriorityAndDscpRanges) {
  auto prio = AllFindings(Mutate(R"("cnp_priority": 6)", R"("cnp_priority": 8)"));
  ASSERT_THAT(CheckIds(prio),
              UnorderedElementsAre("plan.priority-range", "plan.dcqcn-cnp-mismatch"));
  auto range = WithCheck(prio, "plan.priority-range");
  EXPECT_EQ(range[0].location, "plan.json:7:39 /profiles/roce/cnp_priority");
  EXPECT_EQ(range[0].message, "cnp_priority of profile \"roce\" is 8; priorities are 0 to 7");
  EXPECT_EQ(range[0].expected, "0-7");
  EXPECT_EQ(range[0].found, "8");

  auto pfc = AllFindings(Mutate(R"("pfc_priorities": [3])", R"("pfc_priorities": [3, -1])"));
  ASSERT_THAT(CheckIds(pfc), ElementsAre("plan.priority-range"));
  EXPECT_EQ(pfc[0].location, "plan.json:6:29 /profiles/roce/pfc_priorities/1");
  EXPECT_EQ(pfc[0].message, "pfc_priorities[1] of profile \"roce\" is -1; priorities are 0 to 7");

  auto dscp = AllFindings(Mutate(R"("roce_dscp": 26)", R"("roce_dscp": 64)"));
  ASSERT_THAT(CheckIds(dscp), ElementsAre("plan.dscp-range"));
  EXPECT_EQ(dscp[0].location, "plan.json:6:43 /profiles/roce/roce_dscp");
  EXPECT_EQ(dscp[0].message, "roce_dscp of profile \"roce\" is 64; DSCP values are 0 to 63");

  auto np =
      AllFindings(Mutate(R"({"cnp_dscp": 48, "cnp_802p_prio": 6})",
                         R"({"cnp_dscp": 48, "cnp_802p_prio": 6, "min_time_between_cnps": 4})"));
  EXPECT_THAT(np, IsEmpty());
}

TEST(PlanChecks, ValueRanges) {
  auto width = AllFindings(Mutate(R"("width": 16)", R"("width": 15)"));
  ASSERT_THAT(CheckIds(width), ElementsAre("plan.value-range"));
  EXPECT_EQ(width[0].location, "plan.json:10:42 /profiles/roce/pcie/width");
  EXPECT_EQ(width[0].message,
            "pcie.width of profile \"roce\" is 15; PCIe links are x1, x2, x4, x8, x12, x16 or x32");

  auto speed = AllFindings(Mutate(R"("speed_gts": 32)", R"("speed_gts": 30)"));
  ASSERT_THAT(CheckIds(speed), ElementsAre("plan.value-range"));
  EXPECT_EQ(speed[0].message,
            "pcie.speed_gts of profile \"roce\" is 30; PCIe runs at 2.5, 5, 8, 16, 32 or 64 GT/s");
  EXPECT_THAT(AllFindings(Mutate(R"("speed_gts": 32)", R"("speed_gts": 2.5)")), IsEmpty());

  auto optics = AllFindings(Mutate(R"("rx_power_dbm_max": 4.0)", R"("rx_power_dbm_max": -8.5)"));
  ASSERT_THAT(CheckIds(optics), ElementsAre("plan.value-range"));
  EXPECT_EQ(optics[0].location, "plan.json:11:38 /profiles/roce/optics/rx_power_dbm_min");
  EXPECT_EQ(optics[0].message,
            "optics.rx_power_dbm_min of profile \"roce\" (-7) is above optics.rx_power_dbm_max "
            "(-8.5), so every module would fail");

  auto mtu = AllFindings(Mutate(R"("netdev_mtu": 9000, "roce_mtu": 4096)", R"("netdev_mtu": 40)"));
  ASSERT_THAT(CheckIds(mtu), ElementsAre("plan.value-range"));
  EXPECT_EQ(mtu[0].message,
            "netdev_mtu of profile \"roce\" is 40; an Ethernet MTU is 68 to 65535 bytes");
}

TEST(PlanChecks, RoceMtuNotAnRdmaMtu) {
  auto f = AllFindings(Mutate(R"("roce_mtu": 4096)", R"("roce_mtu": 9000)"));
  ASSERT_THAT(CheckIds(f), ElementsAre("plan.roce-mtu-invalid"));
  EXPECT_EQ(f[0].location, "plan.json:5:39 /profiles/roce/roce_mtu");
  EXPECT_EQ(f[0].message,
            "roce_mtu of profile \"roce\" is 9000; RDMA MTUs are 256, 512, 1024, 2048 and 4096 "
            "bytes");
}

TEST(PlanChecks, RoceMtuNeedsNinetySixBytesOfHeaders) {
  auto f = AllFindings(Mutate(R"("netdev_mtu": 9000)", R"("netdev_mtu": 4191)"));
  ASSERT_THAT(CheckIds(f), ElementsAre("plan.roce-mtu-exceeds-netdev-mtu"));
  EXPECT_EQ(f[0].location, "plan.json:5:39 /profiles/roce/roce_mtu");
  EXPECT_EQ(f[0].message,
            "roce_mtu 4096 of profile \"roce\" needs a netdev MTU of at least 4192 (96 bytes of "
            "RoCEv2 headers), but netdev_mtu is 4191: the port would run RoCE MTU 2048");
  EXPECT_EQ(f[0].expected, "netdev_mtu >= 4192");
  EXPECT_EQ(f[0].found, "netdev_mtu 4191");
  EXPECT_THAT(AllFindings(Mutate(R"("netdev_mtu": 9000)", R"("netdev_mtu": 4192)")), IsEmpty());

  auto tiny = AllFindings(Mutate(R"("netdev_mtu": 9000)", R"("netdev_mtu": 300)"));
  ASSERT_THAT(CheckIds(tiny), ElementsAre("plan.roce-mtu-exceeds-netdev-mtu"));
  EXPECT_EQ(tiny[0].message,
            "roce_mtu 4096 of profile \"roce\" needs a netdev MTU of at least 4192 (96 bytes of "
            "RoCEv2 headers), but netdev_mtu is 300: RoCE could not run at all");
}

TEST(PlanChecks, ActiveRoceMtuFollowsTheKernel) {
  EXPECT_EQ(ActiveRoceMtu(9000), 4096);
  EXPECT_EQ(ActiveRoceMtu(4192), 4096);
  EXPECT_EQ(ActiveRoceMtu(4191), 2048);
  EXPECT_EQ(ActiveRoceMtu(1500), 1024);
  EXPECT_EQ(ActiveRoceMtu(352), 256);
  EXPECT_EQ(ActiveRoceMtu(351), 0);
}

TEST(PlanChecks, RocePriorityWithoutPfc) {
  auto f = AllFindings(Mutate(R"("pfc_priorities": [3])", R"("pfc_priorities": [4])"));
  ASSERT_THAT(CheckIds(f), ElementsAre("plan.roce-priority-not-lossless", "plan.ecn-not-lossless",
                                       "plan.ecn-not-lossless"));
  EXPECT_EQ(f[0].location, "plan.json:6:64 /profiles/roce/roce_priority");
  EXPECT_EQ(f[0].message,
            "RoCE traffic (DSCP 26) of profile \"roce\" goes to priority 3, which has no PFC "
            "(pfc_priorities [4]), so RoCE drops packets under congestion");
  EXPECT_EQ(f[0].fix, "set roce_priority to 4 or add 3 to pfc_priorities");
  EXPECT_EQ(f[1].location, "plan.json:8:33 /profiles/roce/ecn/np_priorities/0");
  EXPECT_EQ(f[1].message,
            "ecn.np_priorities of profile \"roce\" enables ECN on priority 3, which is not "
            "lossless (pfc_priorities [4])");
  EXPECT_EQ(f[2].location, "plan.json:8:55 /profiles/roce/ecn/rp_priorities/0");
}

TEST(PlanChecks, LossyRoceWithEmptyPfcListIsADecisionNotAContradiction) {
  EXPECT_THAT(AllFindings(Mutate(R"("pfc_priorities": [3])", R"("pfc_priorities": [])")),
              IsEmpty());
}

TEST(PlanChecks, EcnOnALossyPriority) {
  auto f = AllFindings(Mutate(R"("np_priorities": [3])", R"("np_priorities": [3, 5])"));
  ASSERT_THAT(CheckIds(f), ElementsAre("plan.ecn-not-lossless"));
  EXPECT_EQ(f[0].severity, Severity::kWarning);
  EXPECT_EQ(f[0].location, "plan.json:8:36 /profiles/roce/ecn/np_priorities/1");
}

TEST(PlanChecks, EcnMissingOnTheRocePriority) {
  auto f = AllFindings(Mutate(R"("rp_priorities": [3])", R"("rp_priorities": [])"));
  ASSERT_THAT(CheckIds(f), ElementsAre("plan.ecn-missing-roce-priority"));
  EXPECT_EQ(f[0].location, "plan.json:8:54 /profiles/roce/ecn/rp_priorities");
  EXPECT_EQ(f[0].message,
            "ecn.rp_priorities of profile \"roce\" does not include the RoCE priority 3, so DCQCN "
            "does not slow down RoCE traffic");
  EXPECT_EQ(f[0].fix, "add 3 to ecn.rp_priorities");
}

TEST(PlanChecks, CnpOnALosslessPriority) {
  auto f = AllFindings(Mutate(R"("pfc_priorities": [3])", R"("pfc_priorities": [3, 6])"));
  ASSERT_THAT(CheckIds(f), ElementsAre("plan.cnp-on-lossless"));
  EXPECT_EQ(f[0].location, "plan.json:7:39 /profiles/roce/cnp_priority");
  EXPECT_EQ(f[0].message,
            "CNPs of profile \"roce\" go to priority 6, a lossless priority, so congestion "
            "notifications wait behind the paused traffic they should slow down");
}

TEST(PlanChecks, CnpDscpEqualsRoceDscp) {
  auto f =
      AllFindings(Mutate(R"("cnp_dscp": 48, "cnp_priority")", R"("cnp_dscp": 26, "cnp_priority")"));
  ASSERT_THAT(CheckIds(f),
              ElementsAre("plan.cnp-dscp-equals-roce-dscp", "plan.dcqcn-cnp-mismatch"));
  EXPECT_EQ(f[0].location, "plan.json:7:19 /profiles/roce/cnp_dscp");
  EXPECT_EQ(f[0].message,
            "CNPs of profile \"roce\" use DSCP 26, the RoCE data DSCP, so switches cannot queue "
            "them apart from the data");
}

TEST(PlanChecks, DcqcnCnpSettingsDisagreeWithTheProfile) {
  auto f = AllFindings(Mutate(R"("cnp_802p_prio": 6)", R"("cnp_802p_prio": 5)"));
  ASSERT_THAT(CheckIds(f), ElementsAre("plan.dcqcn-cnp-mismatch"));
  EXPECT_EQ(f[0].location, "plan.json:9:57 /profiles/roce/dcqcn/np/cnp_802p_prio");
  EXPECT_EQ(f[0].message,
            "dcqcn.np.cnp_802p_prio of profile \"roce\" is 5 but cnp_priority is 6; the NIC marks "
            "CNPs with the dcqcn.np value");
  EXPECT_EQ(f[0].expected, "6");
  EXPECT_EQ(f[0].found, "5");
}

TEST(PlanChecks, ValidatorCopesWithPlansBuiltInCode) {
  Plan plan;  // no source positions: locations are the pointer alone
  plan.cluster = "c";
  Node node;
  node.name = "n";
  node.management_ip = "10.0.0.1";
  node.nics.push_back(Nic{"mlx5_0", "e0", "missing", "10.1.0.1/24", std::nullopt, std::nullopt});
  plan.nodes.push_back(node);
  auto f = ValidatePlan(plan);
  ASSERT_THAT(CheckIds(f), ElementsAre("plan.unknown-profile"));
  EXPECT_EQ(f[0].location, "plan /nodes/0/nics/0/profile");
}

TEST(PlanChecks, EveryCheckIsDocumented) {
  std::ifstream doc(ROCEWATCH_SOURCE_DIR "/docs/plan.md");
  std::stringstream ss;
  ss << doc.rdbuf();
  const std::string text = ss.str();
  ASSERT_FALSE(text.empty());
  ASSERT_FALSE(lint::PlanCheckSpecs().empty());
  for (const lint::CheckSpec* check : lint::PlanCheckSpecs()) {
    EXPECT_NE(text.find("`" + std::string(check->id) + "`"), std::string::npos)
        << check->id << " is not in docs/plan.md";
  }
  for (const char* schema_check :
       {"plan.schema.type", "plan.schema.missing-key", "plan.schema.unknown-key",
        "plan.schema.enum", "plan.schema.duplicate-key"}) {
    EXPECT_NE(text.find(std::string("`") + schema_check + "`"), std::string::npos) << schema_check;
  }
}

}  // namespace
}  // namespace rocewatch::lint::plan
