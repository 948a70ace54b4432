// What a script sets: every setting of the profile (TargetFromProfile), or only those the
// checks found wrong (RestrictToFindings), with drift findings mapped to the majority's value.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "lint/checks/settings.h"
#include "lint/fix/target.h"
#include "lint/plan/load.h"

namespace rocewatch::lint::fix {
namespace {

using ::testing::ElementsAre;
using ::testing::Pair;

plan::Profile Roce400g() {
  plan::Profile p;
  p.name = "roce-400g";
  p.netdev_mtu = 9000;
  p.roce_mode = "v2";
  p.trust = "dscp";
  p.pfc_priorities = std::vector<std::int64_t>{4, 3};
  p.roce_dscp = 26;
  p.roce_priority = 3;
  p.cnp_dscp = 48;
  p.cnp_priority = 6;
  p.ecn.np_priorities = std::vector<std::int64_t>{3};
  p.dcqcn = plan::DcqcnSettings{{{"min_time_between_cnps", 4}}, {{"rpg_ai_rate", 5}}};
  p.firmware = {"28.39.2048"};
  p.driver = "mlx5_core";
  return p;
}

plan::Nic Nic(const std::string& dev, const std::string& netdev) {
  plan::Nic n;
  n.ib_dev = dev;
  n.netdev = netdev;
  n.profile = "roce-400g";
  return n;
}

// A finding as a check makes it: `setting` holds the typed values the fix receives (the
// checks fill it; RestrictToFindings never reads `expected`'s text).
// drift.setting's typed values: the key and the majority's value, as drift.cpp writes them.
SettingDelta Drift(const std::string& key, const std::string& value) {
  return {key, checks::TypedSetting(key, value), {}};
}

Finding F(const std::string& check, const std::string& device, const std::string& expected,
          SettingDelta setting = {}) {
  Finding f;
  f.setting = std::move(setting);
  f.check = check;
  f.device = device;
  f.port = "1";
  f.netdev = device == "mlx5_0" ? "ens1f0np0" : "ens2f0np0";
  f.expected = expected;
  f.message = check + " on " + device;
  return f;
}

TEST(TargetFromProfile, EverySettingTheProfileStates) {
  NicTarget t = TargetFromProfile(Nic("mlx5_0", "ens1f0np0"), Roce400g());
  EXPECT_EQ(t.trust, "dscp");
  EXPECT_THAT(t.trust_dscp, ElementsAre(Pair(26, 3), Pair(48, 6)));
  EXPECT_EQ(t.pfc, (std::vector<std::int64_t>{3, 4}));  // sorted
  EXPECT_THAT(t.dscp_priority, ElementsAre(Pair(26, 3), Pair(48, 6)));
  EXPECT_EQ(t.ecn_np, (std::vector<std::int64_t>{3}));
  EXPECT_FALSE(t.ecn_rp.has_value());  // left out: not touched
  EXPECT_THAT(t.dcqcn_np, ElementsAre(Pair("cnp_802p_prio", 6), Pair("cnp_dscp", 48),
                                      Pair("min_time_between_cnps", 4)));
  EXPECT_THAT(t.dcqcn_rp, ElementsAre(Pair("rpg_ai_rate", 5)));
  EXPECT_TRUE(t.global_pause_off);
  EXPECT_EQ(t.mtu, 9000);
  EXPECT_TRUE(t.cm_roce_v2);
  EXPECT_EQ(t.cm_tos_dscp, 26);
  EXPECT_EQ(t.SettingCount(), 1u + 1 + 2 + 1 + 3 + 1 + 1 + 1 + 1 + 1);
}

TEST(TargetFromProfile, TrustPcpLeavesTheDscpMapAlone) {
  plan::Profile p = Roce400g();
  p.trust = "pcp";
  NicTarget t = TargetFromProfile(Nic("mlx5_0", "ens1f0np0"), p);
  EXPECT_TRUE(t.dscp_priority.empty());
  EXPECT_TRUE(t.trust_dscp.empty());
}

TEST(TargetFromProfile, OptionalCountersAreOneSettingSortedOnce) {
  plan::Profile p;
  p.optional_counters = {"cc_tx_cnp_pkts", "cc_rx_ce_pkts", "cc_tx_cnp_pkts"};
  NicTarget t = TargetFromProfile(Nic("mlx5_0", "ens1f0np0"), p);
  EXPECT_EQ(t.optional_counters, (std::vector<std::string>{"cc_rx_ce_pkts", "cc_tx_cnp_pkts"}));
  EXPECT_EQ(t.port, "1");
  EXPECT_EQ(t.SettingCount(), 1u);
}

TEST(TargetFromProfile, NothingStatedNothingSet) {
  plan::Profile p;
  NicTarget t = TargetFromProfile(Nic("mlx5_0", "ens1f0np0"), p);
  EXPECT_EQ(t.SettingCount(), 0u);
  EXPECT_FALSE(t.global_pause_off);
}

TEST(RestrictToFindings, KeepsOnlyWhatTheChecksFound) {
  std::vector<NicTarget> full = {TargetFromProfile(Nic("mlx5_0", "ens1f0np0"), Roce400g()),
                                 TargetFromProfile(Nic("mlx5_1", "ens2f0np0"), Roce400g())};
  std::vector<Finding> findings = {
      F("qos.pfc-priorities", "mlx5_0", "3,4"),
      F("qos.dscp-priority", "mlx5_0", "DSCP 48 → priority 6", {"dscp.48", std::int64_t{6}, {}}),
      F("ecn.dcqcn-parameter", "mlx5_1", "rp.rpg_ai_rate = 5", {"dcqcn.rp.rpg_ai_rate", std::int64_t{5}, {}}),
      F("drift.setting", "mlx5_1", "dcqcn.np.rpg_x = 7", Drift("dcqcn.np.rpg_x", "7")),
      F("drift.setting", "mlx5_1", "dcqcn.rp.rpg_gd = 11", Drift("dcqcn.rp.rpg_gd", "11")),
      F("drift.setting", "mlx5_1", "ets.tc.3 = 3", Drift("ets.tc.3", "3")),
      F("versions.firmware", "mlx5_1", "28.39.2048"),
  };
  FindingsTarget r = RestrictToFindings(full, findings);
  ASSERT_EQ(r.nics.size(), 2u);
  const NicTarget& a = r.nics[0];
  EXPECT_EQ(a.pfc, (std::vector<std::int64_t>{3, 4}));
  EXPECT_THAT(a.dscp_priority, ElementsAre(Pair(48, 6)));
  EXPECT_FALSE(a.trust.has_value());
  EXPECT_FALSE(a.mtu.has_value());
  EXPECT_EQ(a.SettingCount(), 2u);
  EXPECT_EQ(a.firmware, std::vector<std::string>{"28.39.2048"});  // the precheck still checks it
  const NicTarget& b = r.nics[1];
  EXPECT_THAT(b.dcqcn_rp, ElementsAre(Pair("rpg_ai_rate", 5), Pair("rpg_gd", 11)));
  EXPECT_THAT(b.dcqcn_np, ElementsAre(Pair("rpg_x", 7)));
  ASSERT_EQ(r.unfixable.size(), 2u);
  EXPECT_EQ(r.unfixable[0].finding->expected, "ets.tc.3 = 3");
  EXPECT_EQ(r.unfixable[1].finding->check, "versions.firmware");
}

TEST(RestrictToFindings, DriftKeysMapToSteps) {
  plan::Profile p;  // nothing planned: drift is all there is
  p.roce_dscp = 26;
  p.roce_priority = 3;
  std::vector<NicTarget> full = {TargetFromProfile(Nic("mlx5_0", "ens1f0np0"), p)};
  FindingsTarget r = RestrictToFindings(
      full,
      {F("drift.setting", "mlx5_0", "netdev_mtu = 9000", Drift("netdev_mtu", "9000")), F("drift.setting", "mlx5_0", "pfc = 3,4", Drift("pfc", "3,4")),
       F("drift.setting", "mlx5_0", "ecn.rp = none", Drift("ecn.rp", "none")), F("drift.setting", "mlx5_0", "dscp.48 = 6", Drift("dscp.48", "6")),
       F("drift.setting", "mlx5_0", "cm.tos = 106", Drift("cm.tos", "106")),
       F("drift.setting", "mlx5_0", "cm.roce_mode = RoCE v2", Drift("cm.roce_mode", "RoCE v2")),
       F("drift.setting", "mlx5_0", "pause.rx = 0", Drift("pause.rx", "0")), F("drift.setting", "mlx5_0", "trust = dscp", Drift("trust", "dscp"))});
  ASSERT_EQ(r.nics.size(), 1u);
  const NicTarget& t = r.nics[0];
  EXPECT_EQ(t.mtu, 9000);
  EXPECT_EQ(t.pfc, (std::vector<std::int64_t>{3, 4}));
  EXPECT_EQ(t.ecn_rp, std::vector<std::int64_t>{});
  EXPECT_THAT(t.dscp_priority, ElementsAre(Pair(48, 6)));
  EXPECT_EQ(t.cm_tos_dscp, 26);
  EXPECT_TRUE(t.cm_roce_v2);
  EXPECT_TRUE(t.global_pause_off);
  EXPECT_EQ(t.trust, "dscp");
  EXPECT_THAT(t.trust_dscp, ElementsAre(Pair(26, 3)));
  EXPECT_TRUE(r.unfixable.empty());
}

// counters.optional-disabled names its setting when a planned counter is disabled; where the
// driver only lacks one, there is nothing to enable and the finding stays the operator's.
TEST(RestrictToFindings, OptionalCountersOnTheFindingsPortUnlessTheDriverLacksThem) {
  plan::Profile p;
  p.optional_counters = {"cc_rx_cnp_pkts", "cc_rx_ce_pkts"};
  std::vector<NicTarget> full = {TargetFromProfile(Nic("mlx5_0", "ens1f0np0"), p),
                                 TargetFromProfile(Nic("mlx5_1", "ens2f0np0"), p)};
  Finding off = F("counters.optional-disabled", "mlx5_0", "cc_rx_cnp_pkts, cc_rx_ce_pkts enabled",
                  {"optional_counters", std::string("cc_rx_ce_pkts,cc_rx_cnp_pkts"),
                   std::string("cc_rx_ce_pkts")});
  off.port = "2";
  Finding lacks = F("counters.optional-disabled", "mlx5_1", "cc_rx_cnp_pkts, cc_rx_ce_pkts enabled");
  const std::vector<Finding> findings = {off, lacks};  // outlives r: r.unfixable points into it
  FindingsTarget r = RestrictToFindings(full, findings);
  ASSERT_EQ(r.nics.size(), 1u);
  EXPECT_EQ(r.nics[0].ib_dev, "mlx5_0");
  EXPECT_EQ(r.nics[0].port, "2");
  EXPECT_EQ(r.nics[0].optional_counters,
            (std::vector<std::string>{"cc_rx_ce_pkts", "cc_rx_cnp_pkts"}));
  EXPECT_EQ(r.nics[0].SettingCount(), 1u);
  ASSERT_EQ(r.unfixable.size(), 1u);
  EXPECT_EQ(r.unfixable[0].finding->device, "mlx5_1");
  EXPECT_EQ(r.unfixable[0].why,
            "the driver has no such optional counter: upgrade the driver or firmware, or drop it "
            "from the profile");
}

// gpudirect.acs-redirect names the redirecting bridges as its setting's found value; each
// becomes one step (the guest check gpudirect_acs.sh runs the script on a real kernel). A value
// that is not a list of PCI addresses never reaches the script.
TEST(RestrictToFindings, AcsRedirectClearsTheFindingsBridgesAndRefusesOtherText) {
  plan::Profile p;
  std::vector<NicTarget> full = {TargetFromProfile(Nic("mlx5_0", "ens1f0np0"), p),
                                 TargetFromProfile(Nic("mlx5_1", "ens2f0np0"), p)};
  const std::vector<Finding> findings = {
      F("gpudirect.acs-redirect", "mlx5_0", "2 bridges redirect",
        {"acs_redirect", std::string(), std::string("0000:02:01.0,0000:02:00.0")}),
      F("gpudirect.acs-redirect", "mlx5_1", "1 bridges redirect",
        {"acs_redirect", std::string(), std::string("0000:02:00.0,0000:02:01.0;reboot")})};
  FindingsTarget r = RestrictToFindings(full, findings);
  ASSERT_EQ(r.nics.size(), 1u);
  EXPECT_EQ(r.nics[0].ib_dev, "mlx5_0");
  EXPECT_EQ(r.nics[0].acs_redirect_off, (std::vector<std::string>{"0000:02:00.0", "0000:02:01.0"}));
  EXPECT_EQ(r.nics[0].SettingCount(), 2u);
  ASSERT_EQ(r.unfixable.size(), 1u);
  EXPECT_EQ(r.unfixable[0].finding->device, "mlx5_1");
}

TEST(RestrictToFindings, RoceMtuNeedsANetdevMtuAndAnUnreachableNodeHasNothingToRepair) {
  plan::Profile p;
  p.roce_mtu = 4096;
  std::vector<NicTarget> full = {TargetFromProfile(Nic("mlx5_0", "ens1f0np0"), p)};
  Finding unreachable;
  unreachable.check = "inventory.exporter-unreachable";
  const std::vector<Finding> findings = {F("link.roce-mtu", "mlx5_0", "4096"), unreachable};
  FindingsTarget r = RestrictToFindings(full, findings);
  EXPECT_TRUE(r.nics.empty());
  ASSERT_EQ(r.unfixable.size(), 2u);
  EXPECT_EQ(r.unfixable[0].why, "the profile states no netdev_mtu to set");
}

}  // namespace
}  // namespace rocewatch::lint::fix
