// fix::RenderFixes: the settings a check states (lint/core/fix_text.h) become the commands of
// lint/fix/commands.h, in the order the check wrote its words and changes.

#include "lint/fix/fix_hints.h"

#include <gtest/gtest.h>

#include "lint/fix/commands.h"

namespace rocewatch::lint::fix {
namespace {

Finding OnNic() {
  Finding f;
  f.device = "mlx5_0";
  f.port = "1";
  f.netdev = "ens1f0np0";
  return f;
}

std::string Rendered(const SettingChange& change) { return RenderChange(change, OnNic()); }

TEST(FixHints, EveryDocumentedKeyIsTheCommandOfItsSetting) {
  const Toolset up = Toolset::kUpstream;
  const std::string nd = "ens1f0np0";
  EXPECT_EQ(Rendered({"pfc", std::vector<std::int64_t>{3}}), SetPfc(up, nd, {3}));
  EXPECT_EQ(Rendered({"pfc", std::vector<std::int64_t>{}}), SetPfc(up, nd, {}));
  EXPECT_EQ(Rendered({"trust", std::string("pcp")}), SetTrustPcp(up, nd));
  const std::map<std::int64_t, std::int64_t> entries{{26, 3}, {48, 6}};
  EXPECT_EQ(Rendered({"trust", entries}), SetTrustDscp(up, nd, entries));
  EXPECT_EQ(Rendered({"dscp.26", std::int64_t{3}}), SetDscpPriority(up, nd, 26, 3));
  EXPECT_EQ(Rendered({"ecn.np.3", std::int64_t{1}}), SetEcn(nd, "np", 3, true));
  EXPECT_EQ(Rendered({"ecn.rp.5", std::int64_t{0}}), SetEcn(nd, "rp", 5, false));
  EXPECT_EQ(Rendered({"dcqcn.np.cnp_dscp", std::int64_t{48}}), SetDcqcnParameter(nd, "np", "cnp_dscp", 48));
  EXPECT_EQ(Rendered({"dcqcn.rp.rpg_time_reset", std::int64_t{300}}),
            SetDcqcnParameter(nd, "rp", "rpg_time_reset", 300));
  EXPECT_EQ(Rendered({"netdev_mtu", std::int64_t{9000}}), SetMtu(nd, 9000));
  EXPECT_EQ(Rendered({"global_pause", std::int64_t{0}}), SetGlobalPauseOff(nd));
  EXPECT_EQ(Rendered({"optional_counters", std::string("cc_rx_ce_pkts,cc_rx_cnp_pkts")}),
            SetOptionalCounters("mlx5_0", "1", {"cc_rx_ce_pkts", "cc_rx_cnp_pkts"}));
  EXPECT_EQ(Rendered({"cm.roce_mode", std::string("RoCE v2")}), SetCmRoceModeV2(up, "mlx5_0", "1"));
  EXPECT_EQ(Rendered({"cm.tos", std::int64_t{106}}), SetCmTos(up, "mlx5_0", "1", 106));
}

TEST(FixHints, AChangeNoCommandMakesSaysWhatNotHow) {
  EXPECT_EQ(Rendered({"pfc", std::string("3")}), "set pfc on ens1f0np0");  // wrong type
  EXPECT_EQ(Rendered({"ecn.xx.3", std::int64_t{1}}), "set ecn.xx.3 on ens1f0np0");
  EXPECT_EQ(Rendered({"dscp.x", std::int64_t{1}}), "set dscp.x on ens1f0np0");
  EXPECT_EQ(Rendered({"global_pause", std::int64_t{1}}), "set global_pause on ens1f0np0");
  EXPECT_EQ(Rendered({"cm.roce_mode", std::string("IB/RoCE v1")}), "set cm.roce_mode on ens1f0np0");
}

TEST(FixHints, WordsAndChangesKeepTheirOrderAndAHostileNameStaysQuoted) {
  Finding f = OnNic();
  f.netdev = "en$(reboot)";
  f.fix_steps = FixText("switch leaf1 swp1: enable PFC on 3; NIC ") + FixText(f.netdev + ": ") +
                SettingChange{"pfc", std::vector<std::int64_t>{3}};
  std::vector<Finding> findings{f, OnNic()};
  findings[1].fix = "replace the cable";
  RenderFixes(findings);
  EXPECT_EQ(findings[0].fix, "switch leaf1 swp1: enable PFC on 3; NIC en$(reboot): " +
                                 SetPfc(Toolset::kUpstream, "en$(reboot)", {3}));
  EXPECT_NE(findings[0].fix.find("'en$(reboot)'"), std::string::npos) << findings[0].fix;
  EXPECT_EQ(findings[1].fix, "replace the cable");
}

// Words from the catalogue around the commands: the fix in every language, the commands the
// same in each.
TEST(FixHints, CatalogueWordsAroundCommandsInEveryLanguage) {
  Finding f = OnNic();
  f.fix_steps = FixText(SettingChange{"netdev_mtu", std::int64_t{9000}}) + i18n::Phrase::Of("fix.separator", {}) +
                FixText::In(i18n::Phrase::Of("check.peer.fix.nic", {{"netdev", "ens1f0np0"}}),
                            SettingChange{"pfc", std::vector<std::int64_t>{3}});
  std::vector<Finding> findings{f};
  RenderFixes(findings);
  const std::string mtu = SetMtu("ens1f0np0", 9000), pfc = SetPfc(Toolset::kUpstream, "ens1f0np0", {3});
  EXPECT_EQ(findings[0].fix, mtu + "; NIC ens1f0np0: " + pfc);
  EXPECT_EQ(i18n::RenderOr(i18n::Language::kEnglish, findings[0].fix_text, ""), findings[0].fix);
  EXPECT_EQ(i18n::RenderOr(i18n::Language::kChinese, findings[0].fix_text, ""),
            mtu + "；网卡 ens1f0np0：`" + pfc + "`");
}

TEST(FixHints, TheSinkKeepsWordsAsTheFixAndChangesForRendering) {
  FixText words("upgrade the firmware");
  EXPECT_FALSE(words.HasChanges());
  EXPECT_EQ(words.Render({}), "upgrade the firmware");
  FixText none("");
  EXPECT_TRUE(none.empty());
  FixText change = SettingChange{"netdev_mtu", std::int64_t{9000}};
  EXPECT_TRUE(change.HasChanges());
}

}  // namespace
}  // namespace rocewatch::lint::fix
