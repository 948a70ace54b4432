// peer.switch-pause-non-pfc and peer.pause-mismatch on the fixture cluster, with the switch
// ports' pause counters as `roce-lint check --prometheus` hands them over (SwitchPauses): an
// agreeing link gives nothing, each seeded disagreement exactly its finding, naming both ends.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "check_test_util.h"
#include "lint/checks/peer/group.h"
#include "lint/checks/specs.h"
#include "lint/report/node_report.h"
#include "lint/switch/switch_config.h"
#include "peer_test_util.h"

namespace rocewatch::lint::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using namespace checks;
using switch_config::PauseDirection;

// Node 1's two NICs behind leaf-0 and leaf-1 port Ethernet8, PFC on 3 at both ends; over a
// 300 s window each NIC receives 12,000 and sends 4,000 pauses on priority 3.
Cluster Window() {
  Cluster c = Agreeing();
  c.StartWindow(300);
  for (int nic : {0, 1}) {
    const std::string n = "netdev=\"" + Nd(nic) + "\"";
    c.Set(1, "roce_dcb_pfc_pause_frames_total{" + n + ",priority=\"3\",direction=\"rx\"}", "1296551");
    c.Set(1, "roce_dcb_pfc_pause_frames_total{" + n + ",priority=\"3\",direction=\"tx\"}", "421902");
  }
  return c;
}

// The switch's counters as the NICs see them: sent 12,000 and received 4,000 on 3.
switch_config::SwitchPauses Agreeing(double leaf0_sent = 12000, double leaf0_received = 4000) {
  switch_config::SwitchPauses p;
  p.Add("leaf-0", "Ethernet8", 3, PauseDirection::kTx, leaf0_sent, "snmp-cisco-pfc-ext");
  p.Add("leaf-0", "Ethernet8", 3, PauseDirection::kRx, leaf0_received, "snmp-cisco-pfc-ext");
  p.Add("leaf-1", "Ethernet8", 3, PauseDirection::kTx, 11000, "snmp-cisco-pfc-ext");  // within noise
  p.Add("leaf-1", "Ethernet8", 3, PauseDirection::kRx, 4100, "snmp-cisco-pfc-ext");
  for (const char* sw : {"leaf-0", "leaf-1"})
    for (int prio = 0; prio < 8; ++prio)
      if (prio != 3) {
        p.Add(sw, "Ethernet8", prio, PauseDirection::kTx, 0, "snmp-cisco-pfc-ext");
        p.Add(sw, "Ethernet8", prio, PauseDirection::kRx, 0, "snmp-cisco-pfc-ext");
      }
  p.set_read(300, "http://prometheus:9090");
  return p;
}

std::vector<Finding> RunWith(Cluster& c, switch_config::SwitchPauses pauses) {
  c.Run();
  switch_config::SwitchConfigs switches;
  switches.SetPauses(std::move(pauses));
  CheckRunner runner(c.plan, &switches);
  for (std::size_t i = 0; i < c.views.size(); ++i) runner.AddNode(i, c.views[i]);
  auto findings = runner.Finish();
  ExpectChinese(findings, c.plan);
  std::erase_if(findings, [](const Finding& f) { return f.check.rfind("peer.", 0) != 0; });
  return findings;
}

TEST(CheckPeerCounters, AgreeingLinksGiveNothing) {
  Cluster c = Window();
  auto findings = RunWith(c, Agreeing());
  EXPECT_TRUE(findings.empty()) << Describe(findings);
}

TEST(CheckPeerCounters, SwitchPausingAPriorityWithoutNicPfc) {
  Cluster c = Window();
  // The NIC counts the frames it received on 5 too (counters.pause-on-non-pfc-priority's view).
  c.Set(1, R"(roce_dcb_pfc_pause_frames_total{netdev="ens1f0np0",priority="5",direction="rx"})", "2500");
  auto pauses = Agreeing();
  pauses.Add("leaf-0", "Ethernet8", 5, PauseDirection::kTx, 2500, "snmp-cisco-pfc-ext");
  auto findings = RunWith(c, std::move(pauses));
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  const Finding& f = findings[0];
  EXPECT_EQ(f.check, "peer.switch-pause-non-pfc");
  EXPECT_EQ(f.netdev, "ens1f0np0");
  EXPECT_EQ(f.expected, "switch pauses only on the NIC's PFC priorities (3)");
  EXPECT_EQ(f.found, "switch sent 2500 on priority 5 in 300 s");
  EXPECT_THAT(f.message, HasSubstr("gpu-01 mlx5_0 (ens1f0np0) ↔ leaf-0 port Ethernet8"));
  EXPECT_THAT(f.message, HasSubstr("snmp-cisco-pfc-ext from http://prometheus:9090"));
  // The plan has no PFC on 5: the switch is the end to change (SONiC or EOS, by the port's name).
  EXPECT_THAT(f.fix, HasSubstr("switch leaf-0 port Ethernet8: SONiC: config interface pfc priority Ethernet8 3 on && "
                               "config save -y"));
  EXPECT_THAT(f.fix, Not(HasSubstr("NIC ")));
}

TEST(CheckPeerCounters, CountsApartBeyondNoiseAreAMismatchBothWays) {
  Cluster c = Window();
  // leaf-0 says it sent none of the 12,000 pauses the NIC received, and received 40,000 where
  // the NIC sent 4,000.
  auto findings = RunWith(c, Agreeing(0, 40000));
  ASSERT_EQ(findings.size(), 1u) << Describe(findings);
  const Finding& f = findings[0];
  EXPECT_EQ(f.check, "peer.pause-mismatch");
  EXPECT_EQ(f.netdev, "ens1f0np0");
  EXPECT_EQ(f.found, "priority 3: NIC received 12000, switch sent 0; priority 3: NIC sent 4000, switch received "
                     "40000 in 300 s");
  EXPECT_THAT(f.message, HasSubstr("gpu-01 mlx5_0 (ens1f0np0) ↔ leaf-0 port Ethernet8"));
  EXPECT_THAT(f.fix, HasSubstr("ethtool -S ens1f0np0 | grep prio"));
}

TEST(CheckPeerCounters, NoiseIsAFactorOfTwoAndAThousandFrames) {
  EXPECT_FALSE(peer::PauseCountsDisagree(12000, 6001));
  EXPECT_TRUE(peer::PauseCountsDisagree(12000, 5999));
  EXPECT_FALSE(peer::PauseCountsDisagree(999, 0));
  EXPECT_TRUE(peer::PauseCountsDisagree(1000, 0));
  EXPECT_FALSE(peer::PauseCountsDisagree(0, 0));
}

TEST(CheckPeerCounters, WithoutCountersTheNicsAreNamedOnce) {
  Cluster c = Window();
  c.Run();
  switch_config::SwitchConfigs none;
  EXPECT_EQ(peer::NicsWithoutSwitchCounters(c.plan.nodes[0], c.views[0], &none),
            (std::vector<std::string>{"ens1f0np0", "ens2f0np0"}));
  switch_config::SwitchConfigs some;
  auto pauses = Agreeing();
  switch_config::SwitchPauses only_leaf0;
  only_leaf0.Add("leaf-0", "Ethernet8", 3, PauseDirection::kTx, 1, "x");
  only_leaf0.set_read(300, "http://p");
  some.SetPauses(std::move(only_leaf0));
  EXPECT_EQ(peer::NicsWithoutSwitchCounters(c.plan.nodes[0], c.views[0], &some), std::vector<std::string>{"ens2f0np0"});
  report::CheckRun run;
  run.switch_counters_unchecked = {"gpu-01 ens2f0np0"};
  run.switch_counters_read = true;
  EXPECT_EQ(report::SwitchCountersUncheckedNote(run, report::Language::kEnglish),
            "Switch-counter checks (peer.switch-pause-non-pfc, peer.pause-mismatch) could not run on 1 NIC whose "
            "switch port has no pause counters in the store: gpu-01 ens2f0np0.");
  run.switch_counters_read = false;
  run.switch_counters_unchecked = {"gpu-01 ens1f0np0", "gpu-01 ens2f0np0"};
  EXPECT_EQ(report::SwitchCountersUncheckedNote(run, report::Language::kEnglish),
            "Switch-counter checks (peer.switch-pause-non-pfc, peer.pause-mismatch) could not run on 2 NICs: no "
            "switch counters were read (they need --prometheus with a --window): gpu-01 ens1f0np0, gpu-01 "
            "ens2f0np0.");
  // The settings note does not name the counter checks.
  run.switch_side_unchecked = {"gpu-01 ens1f0np0"};
  EXPECT_EQ(report::SwitchSideUncheckedNote(run, report::Language::kEnglish).find("pause"), std::string::npos);
}

}  // namespace
}  // namespace rocewatch::lint::testing
