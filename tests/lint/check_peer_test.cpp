// Both ends of a link (peer.*): the fixture's NICs against the switch ports their LLDP
// neighbours describe, by DCBX (the roce_lldp_peer_* series as the lldp collector serves them)
// and by --switch-config files. An agreeing link gives nothing; each disagreement exactly its
// finding, naming node, NIC, switch and port; a NIC without a switch source is listed once.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "check_test_util.h"
#include "peer_test_util.h"
#include "lint/checks/peer/group.h"
#include "lint/report/node_report.h"
#include "lint/switch/switch_config.h"

namespace rocewatch::lint::testing {
namespace {

using ::testing::HasSubstr;
using namespace checks;

std::vector<Finding> RunWith(Cluster& c, const switch_config::SwitchConfigs& switches) {
  c.Run();
  CheckRunner runner(c.plan, &switches);
  for (std::size_t i = 0; i < c.views.size(); ++i) runner.AddNode(i, c.views[i]);
  auto findings = runner.Finish();
  ExpectChinese(findings, c.plan);
  return findings;
}

switch_config::SwitchConfigs Sonic(const std::string& text) {
  switch_config::SwitchConfigs all;
  auto config = switch_config::ParseSwitchConfig(text, "leaf-0.json");
  EXPECT_TRUE(config.ok()) << (config.ok() ? "" : config.error().message);
  if (config.ok()) all.Add(std::move(*config));
  return all;
}

TEST(CheckPeer, AgreeingLinksGiveNothing) {
  Cluster c = Agreeing();
  auto findings = c.Run();
  EXPECT_TRUE(findings.empty()) << Describe(findings);
  EXPECT_TRUE(peer::NicsWithoutSwitchSide(c.plan.nodes[0], c.views[0], nullptr).empty());
}

TEST(CheckPeer, SwitchPfcOnMorePrioritiesIsPfcPriorities) {
  Cluster c = Agreeing();
  c.Add(1, R"(roce_lldp_peer_pfc_enabled{netdev="ens1f0np0",priority="4"} 1)");
  Finding f = ExpectOnly(c.Run(), kPeerPfcPriorities, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.severity, Severity::kWarning);
  EXPECT_EQ(f.expected, "switch PFC on 3 (as the NIC)");
  EXPECT_EQ(f.found, "switch PFC on 3,4");
  EXPECT_EQ(f.message,
            "gpu-01 mlx5_0 (ens1f0np0) ↔ leaf-0 port Ethernet8: the NIC has PFC on 3, the switch port on 3,4 "
            "(from LLDP DCBX): pauses on a priority one end has no PFC on are ignored there.");
  // EthernetN without a slash: SONiC or Arista EOS; the NIC follows the plan, so only the switch.
  EXPECT_EQ(f.fix,
            "switch leaf-0 port Ethernet8: SONiC: config interface pfc priority Ethernet8 3 on && "
            "config interface pfc priority Ethernet8 4 off && config save -y; or Arista EOS (configure): "
            "interface Ethernet8; priority-flow-control on; priority-flow-control priority 3 no-drop; "
            "priority-flow-control priority 4 drop");
}

TEST(CheckPeer, SwitchWithoutPfcOnTheRocePriorityIsAnErrorAndOnlyThat) {
  Cluster c(1, 2);
  c.Add(1, "roce_lldp_daemon_reachable 1");
  Neighbour(c, 1, 0, "Ethernet8", "Ethernet8");
  Dcbx(c, 1, 0, {4});
  Neighbour(c, 1, 1, "Ethernet8", "Ethernet8");
  Dcbx(c, 1, 1, {3});
  Finding f = ExpectOnly(c.Run(), kPeerRocePriorityPfc, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.severity, Severity::kError);
  EXPECT_EQ(f.expected, "switch PFC on 3 (the RoCE priority)");
  EXPECT_EQ(f.found, "switch PFC on 4");
  EXPECT_THAT(f.message, HasSubstr("gpu-01 mlx5_0 (ens1f0np0) ↔ leaf-0 port Ethernet8: the switch port does not "
                                   "enable PFC on the RoCE priority 3 (it has 4, from LLDP DCBX)"));
  EXPECT_THAT(f.fix, HasSubstr("config interface pfc priority Ethernet8 3 on && config interface pfc priority "
                               "Ethernet8 4 off"));
  EXPECT_THAT(f.fix, HasSubstr("; NIC ens1f0np0: nothing (qos.pfc-priorities checks it)"));
}

TEST(CheckPeer, APfcTlvEnablingNothingMeansNoPfc) {
  Cluster c = Agreeing();
  c.Remove(1, R"(roce_lldp_peer_pfc_enabled{netdev="ens2f0np0")");
  Finding f = ExpectOnly(c.Run(), kPeerRocePriorityPfc, "gpu-01", "mlx5_1", "ens2f0np0");
  EXPECT_EQ(f.found, "switch PFC on none");
  EXPECT_THAT(f.message, HasSubstr("↔ leaf-1 port Ethernet8"));
}

TEST(CheckPeer, NoPfcTlvIsNotNoPfc) {
  Cluster c = Agreeing();
  c.Remove(1, R"(roce_lldp_peer_dcbx_info{netdev="ens2f0np0",tlv="pfc")");
  c.Remove(1, R"(roce_lldp_peer_pfc_enabled{netdev="ens2f0np0")");
  auto findings = c.Run();
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

TEST(CheckPeer, Udp4791OnAnotherPriorityIsAppPriority) {
  Cluster c = Agreeing();
  c.Remove(1, R"(roce_lldp_peer_app_info{netdev="ens2f0np0")");
  c.Add(1, R"(roce_lldp_peer_app_info{netdev="ens2f0np0",selector="any",protocol="4791",priority="5"} 1)");
  Finding f = ExpectOnly(c.Run(), kPeerAppPriority, "gpu-01", "mlx5_1", "ens2f0np0");
  EXPECT_EQ(f.severity, Severity::kWarning);
  EXPECT_EQ(f.expected, "UDP 4791 → 3");
  EXPECT_EQ(f.found, "UDP 4791 → 5");
  EXPECT_THAT(f.message, HasSubstr("gpu-01 mlx5_1 (ens2f0np0) ↔ leaf-1 port Ethernet8: the switch port classifies "
                                   "RoCE traffic differently from the NIC (UDP 4791 → 5 from LLDP DCBX"));
  EXPECT_THAT(f.fix, HasSubstr("announce UDP 4791 with priority 3"));
}

TEST(CheckPeer, FullDscpTableNamesTheDscpsThatDiffer) {
  Cluster c = Agreeing();
  c.Add(1, R"(roce_lldp_peer_dscp_priority{netdev="ens1f0np0",dscp="26"} 3)");
  c.Add(1, R"(roce_lldp_peer_dscp_priority{netdev="ens1f0np0",dscp="48"} 5)");
  Finding f = ExpectOnly(c.Run(), kPeerAppPriority, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.expected, "DSCP 48 → 6");
  EXPECT_EQ(f.found, "DSCP 48 → priority 5");
  EXPECT_THAT(f.fix, HasSubstr("Arista EOS (configure): qos map dscp 48 to traffic-class 6"));
  // A DSCP the switch's APP table does not carry is its default class, not a disagreement.
  Cluster quiet = Agreeing();
  quiet.Add(1, R"(roce_lldp_peer_dscp_priority{netdev="ens1f0np0",dscp="26"} 3)");
  auto findings = quiet.Run();
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

// The NIC's map holds all 64 DSCPs (mlx5 with trust dscp), the switch announces the few it
// uses: their digests differ on every healthy link, so a map known only by its digest is not
// judged (the demo's healthy gpu-01 is such a link). The DSCPs that matter are compared one by
// one, from roce_lldp_peer_dscp_priority, which the exporter serves for them by default.
TEST(CheckPeer, ADscpMapKnownOnlyByItsDigestIsNotJudged) {
  Cluster c = Agreeing();
  c.Add(1, R"(roce_dcb_table_entries{netdev="ens1f0np0",table="dscp_map",digest="9f3a1c2b"} 64)");
  c.Add(1, R"(roce_lldp_peer_table_entries{netdev="ens1f0np0",table="dscp_map",digest="51d0e7aa"} 2)");
  auto findings = c.Run();
  EXPECT_TRUE(findings.empty()) << Describe(findings);
  // With the switch's priority of DSCP 26 served, its disagreement is named.
  c.Add(1, R"(roce_lldp_peer_dscp_priority{netdev="ens1f0np0",dscp="26"} 5)");
  Finding f = ExpectOnly(c.Run(), kPeerAppPriority, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.found, "DSCP 26 → priority 5");
}

TEST(CheckPeer, NoDcbxAndNoConfigRunsNothingAndIsListedOnce) {
  Cluster c = Agreeing();
  c.Set(1, R"(roce_lldp_peer_dcbx_sent{netdev="ens2f0np0"})", "0");
  c.Remove(1, R"(roce_lldp_peer_pfc_enabled{netdev="ens2f0np0")");
  auto findings = c.Run();
  EXPECT_TRUE(findings.empty()) << Describe(findings);
  EXPECT_EQ(peer::NicsWithoutSwitchSide(c.plan.nodes[0], c.views[0], nullptr), std::vector<std::string>{"ens2f0np0"});
  report::CheckRun run;
  run.switch_side_unchecked = {"gpu-01 ens2f0np0", "gpu-02 ens2f0np0"};
  EXPECT_EQ(report::SwitchSideUncheckedNote(run, report::Language::kEnglish),
            "Switch-side checks (peer.roce-priority-pfc, peer.pfc-priorities, peer.app-priority, peer.ecn) could not "
            "run on 2 NICs whose switch ports send no DCBX and no --switch-config names: gpu-01 ens2f0np0, gpu-02 "
            "ens2f0np0.");
  run.switch_side_unchecked.clear();
  EXPECT_EQ(report::SwitchSideUncheckedNote(run, report::Language::kEnglish), "");
}

TEST(CheckPeer, WithoutTheLldpCollectorNothingIsListed) {
  Cluster c(1, 2);
  c.Run();
  EXPECT_TRUE(peer::NicsWithoutSwitchSide(c.plan.nodes[0], c.views[0], nullptr).empty());
}

// SONiC sends no DCBX: NIC 0's neighbour is leaf-0, Port ID the alias, Port Description the name.
Cluster SonicNeighbour() {
  Cluster c(1, 2);
  c.Add(1, "roce_lldp_daemon_reachable 1");
  Neighbour(c, 1, 0, "etp3", "Ethernet8");
  c.Add(1, R"(roce_lldp_peer_dcbx_sent{netdev="ens1f0np0"} 0)");
  Neighbour(c, 1, 1, "Ethernet8", "Ethernet8");
  Dcbx(c, 1, 1, {3});
  return c;
}

TEST(CheckPeer, ASonicConfigAgreeingGivesNothingAndCountsAsASource) {
  Cluster c = SonicNeighbour();
  auto switches = Sonic(SonicLeaf(6, true));
  auto findings = RunWith(c, switches);
  EXPECT_TRUE(findings.empty()) << Describe(findings);
  EXPECT_TRUE(peer::NicsWithoutSwitchSide(c.plan.nodes[0], c.views[0], &switches).empty());
  EXPECT_EQ(peer::NicsWithoutSwitchSide(c.plan.nodes[0], c.views[0], nullptr), std::vector<std::string>{"ens1f0np0"});
}

TEST(CheckPeer, ASonicQueueWithoutEcnIsPeerEcn) {
  Cluster c = SonicNeighbour();
  Finding f = ExpectOnly(RunWith(c, Sonic(SonicLeaf(6, false))), kPeerEcn, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.severity, Severity::kWarning);
  EXPECT_EQ(f.expected, "ECN marking on the switch queue of priority 3");
  EXPECT_EQ(f.found, "no ECN on priority 3");
  EXPECT_THAT(f.message, HasSubstr("gpu-01 mlx5_0 (ens1f0np0) ↔ leaf-0 port etp3: the switch port's egress queue of "
                                   "the RoCE priority 3 does not mark ECN (leaf-0.json (SONiC))"));
  EXPECT_THAT(f.fix, HasSubstr("switch leaf-0 port etp3: SONiC: give QUEUE|Ethernet8|3 a wred_profile whose ecn is ecn_all"));
}

TEST(CheckPeer, ASonicDscpMapNamesTheTrafficClass) {
  Cluster c = SonicNeighbour();
  Finding f = ExpectOnly(RunWith(c, Sonic(SonicLeaf(7, true))), kPeerAppPriority, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_EQ(f.expected, "DSCP 48 → 6");
  EXPECT_EQ(f.found, "DSCP 48 → TC 7");
  EXPECT_THAT(f.fix, HasSubstr("SONiC: map DSCP 48 to TC 6 in the port's DSCP_TO_TC_MAP"));
}

TEST(CheckPeer, DcbxWinsOverTheConfigWhereBothSpeak) {
  Cluster c = Agreeing();  // leaf-0's DCBX says PFC on 3
  auto switches = Sonic(R"({"DEVICE_METADATA": {"localhost": {"hostname": "LEAF-0"}},
    "PORT_QOS_MAP": {"Ethernet8": {"pfc_enable": "4"}}, "QUEUE": {"Ethernet8|3": {}}})");
  // The file's PFC (4) is not used, its ECN (none on queue 3) is: DCBX carries no ECN.
  Finding f = ExpectOnly(RunWith(c, switches), kPeerEcn, "gpu-01", "mlx5_0", "ens1f0np0");
  EXPECT_THAT(f.message, HasSubstr("(LLDP DCBX and leaf-0.json (SONiC))"));
}

}  // namespace
}  // namespace rocewatch::lint::testing
