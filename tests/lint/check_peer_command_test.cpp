// `roce-lint check --switch-config` as a process on saved /metrics files: a config joins a NIC
// without DCBX to its switch port, the NICs with no switch source are named in one line of the
// report, and a broken config is unusable input naming file and JSON path.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "check_test_util.h"
#include "lint_process.h"
#include "peer_test_util.h"

namespace rocewatch::lint::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

class PeerCommand : public LintProcessTest {
 protected:
  void Write(const Cluster& c) {
    std::ofstream(dir_ / "plan.json", std::ios::binary) << c.plan_json;
    fs::create_directories(dir_ / "metrics");
    for (std::size_t i = 0; i < c.text.size(); ++i)
      std::ofstream(dir_ / "metrics" / (NodeName(static_cast<int>(i) + 1) + ".prom"), std::ios::binary) << c.text[i];
  }
  void WriteFile(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::binary) << text;
  }
  RunResult Run(const std::string& args) { return LintProcessTest::Run(args, "/dev/null", true); }

  // gpu-01: NIC 0 behind SONiC leaf-0 (no DCBX), NIC 1 with agreeing DCBX; gpu-02: lldpd
  // answers, neither switch port sends DCBX.
  Cluster Fabric() {
    Cluster c(2, 2);
    c.Add(1, "roce_lldp_daemon_reachable 1");
    Neighbour(c, 1, 0, "etp3", "Ethernet8");
    c.Add(1, R"(roce_lldp_peer_dcbx_sent{netdev="ens1f0np0"} 0)");
    Neighbour(c, 1, 1, "Ethernet8", "Ethernet8");
    Dcbx(c, 1, 1, {3});
    c.Add(2, "roce_lldp_daemon_reachable 1");
    for (int nic : {0, 1}) {
      Neighbour(c, 2, nic, "Ethernet16", "Ethernet16");
      c.Add(2, "roce_lldp_peer_dcbx_sent{netdev=\"" + Nd(nic) + "\"} 0");
    }
    return c;
  }
};

std::size_t Count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST_F(PeerCommand, WithoutAConfigTheNicsWithoutDcbxAreNamedOnce) {
  Write(Fabric());
  RunResult r = Run("check plan.json --metrics-dir metrics");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(Count(r.out, "Switch-side checks"), 1u) << r.out;
  EXPECT_THAT(r.out, HasSubstr("Switch-side checks (peer.roce-priority-pfc, peer.pfc-priorities, peer.app-priority, "
                               "peer.ecn) could not run on 3 NICs whose switch ports send no DCBX and no "
                               "--switch-config names: gpu-01 ens1f0np0, gpu-02 ens1f0np0, gpu-02 ens2f0np0.\n"));
  RunResult zh = Run("check plan.json --metrics-dir metrics --lang zh");
  EXPECT_THAT(zh.out, HasSubstr("未检查交换机端（peer.roce-priority-pfc"));
}

TEST_F(PeerCommand, ASonicConfigJoinsByAliasAndReportsBothEnds) {
  Write(Fabric());
  WriteFile("leaf-0.json", SonicLeaf(6, false));
  RunResult r = Run("check plan.json --metrics-dir metrics --switch-config leaf-0.json");
  EXPECT_EQ(r.code, 1) << r.out << r.err;  // a warning, at the default --fail-on
  EXPECT_THAT(r.out, HasSubstr("gpu-01: FAILED  peer.ecn (ens1f0np0)\n"));
  // The switch's command names the port as the file does (Ethernet8), not by its alias.
  EXPECT_THAT(r.out, HasSubstr("fix: switch leaf-0 port etp3: SONiC: give QUEUE|Ethernet8|3 a wred_profile"));
  EXPECT_THAT(r.out, HasSubstr("gpu-01 mlx5_0 (ens1f0np0) ↔ leaf-0 port etp3"));
  EXPECT_EQ(Count(r.out, "[peer."), 1u) << r.out;
  EXPECT_THAT(r.out, HasSubstr("could not run on 2 NICs whose switch ports send no DCBX and no --switch-config "
                               "names: gpu-02 ens1f0np0, gpu-02 ens2f0np0.\n"));
  EXPECT_EQ(r.err, "");
}

TEST_F(PeerCommand, ABrokenCounterProfileIsUnusableInputNamingFileAndPath) {
  Write(Fabric());
  WriteFile("sw.json", R"({"profiles": [{"name": "x", "extends": "otel-nvswitch", "port_lable": "ifName"}]})");
  RunResult r = Run("check plan.json --prometheus http://127.0.0.1:1 --switch-counters sw.json");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "roce-lint check: --switch-counters sw.json: /profiles/0/port_lable: unknown key (a profile has "
                   "name, extends, description, switch_label, port_label, priority_label and series)\n");
  WriteFile("sw.json", R"({"profiles": [{"name": "x", "extends": "otel-nvswitch"}]})");
  r = Run("check plan.json --metrics-dir metrics --switch-counters sw.json");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "roce-lint check: --switch-counters needs --prometheus (the switches' counters are read from the "
                   "store)\n");
}

TEST_F(PeerCommand, WithoutPrometheusTheCounterChecksNameTheNicsOnce) {
  Write(Fabric());
  RunResult r = Run("check plan.json --metrics-dir metrics");
  EXPECT_EQ(Count(r.out, "Switch-counter checks"), 1u) << r.out;
  EXPECT_THAT(r.out, HasSubstr("Switch-counter checks (peer.switch-pause-non-pfc, peer.pause-mismatch) could not run "
                               "on 4 NICs: no switch counters were read (they need --prometheus with a --window): "
                               "gpu-01 ens1f0np0, gpu-01 ens2f0np0, gpu-02 ens1f0np0, gpu-02 ens2f0np0.\n"));
}

TEST_F(PeerCommand, ABrokenConfigIsUnusableInputNamingFileAndPath) {
  Write(Fabric());
  WriteFile("leaf-0.json", R"({"PORT_QOS_MAP": {"Ethernet8": {"pfc_enable": "3,12"}}})");
  RunResult r = Run("check plan.json --metrics-dir metrics --switch-config leaf-0.json");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "roce-lint check: --switch-config leaf-0.json: /PORT_QOS_MAP/Ethernet8/pfc_enable: \"12\" is not "
                   "an integer from 0 to 7\n");
  WriteFile("nohost.json", R"({"PORT_QOS_MAP": {"Ethernet8": {"pfc_enable": "3"}}})");
  r = Run("check plan.json --metrics-dir metrics --switch-config nohost.json");
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("nohost.json: no hostname (SONiC: DEVICE_METADATA/localhost/hostname"));
  r = Run("check plan.json --metrics-dir metrics --switch-config missing.json");
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("missing.json"));
}

}  // namespace
}  // namespace rocewatch::lint::testing
