// The backup and --rollback of the rendered scripts, run against a writable copy of the mlx5-roce
// fixture tree (sysfs, configfs) with the stand-in tools of tests/lint/fix/fake-tools: apply, then
// roll back, and every byte of the tree and of the tools' state is as it was; a script killed
// between two steps still rolls back what it changed; values read stay literal in the backup and
// the restore; an unrestored backup of another plan stops an apply; install.sh's files are
// removed or put back. Applying needs root (the scripts' precheck asks for it).

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/test_dir.h"
#include "exporter/netlink/rdma_stat.h"
#include "fix_test_util.h"
#include "loopback_sshd.h"

namespace rocewatch::fix_testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Every file under `dir` (relative path → bytes; a symlink → "-> target"), but `skip`.
std::map<std::string, std::string> Snapshot(const fs::path& dir, const std::string& skip = "") {
  std::map<std::string, std::string> out;
  for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator();
       ++it) {
    const std::string rel = fs::relative(it->path(), dir).string();
    if (rel == skip) continue;
    if (it->is_symlink())
      out[rel] = "-> " + fs::read_symlink(it->path()).string();
    else if (it->is_regular_file())
      out[rel] = Slurp(it->path());
    else
      out[rel + "/"] = "";
  }
  return out;
}

class Rollback : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!IsRoot()) GTEST_SKIP() << "applying needs root (the script's precheck asks for it)";
    CopyFixtureTree(root_);
    WriteText(root_ / "sys/module/mlx5_core/version", "24.04-0.6.6\n");
    SeedFaults(root_, state_);
  }

  std::string Render(const std::string& plan, const std::string& node, const std::string& tool,
                     const std::string& extra = "") {
    const std::string script = (dir_ / (node + "." + tool + ".sh")).string();
    RunResult r = Sh(RoceLint() + " fix " + Q(plan) + " --node " + node + " --tool " + tool +
                         extra + " > " + Q(script),
                     dir_);
    EXPECT_EQ(r.code, 0) << r.err;
    return script;
  }
  RunResult RunScript(const std::string& script, const std::string& args = "") {
    return Sh("sh " + Q(script) + (args.empty() ? "" : " " + args), dir_, FakeEnv(root_, state_));
  }
  // The node as the settings see it: the tree and the tools' state (not their call log).
  std::map<std::string, std::string> Node() {
    auto out = Snapshot(root_ / "sys");
    for (auto& [k, v] : Snapshot(root_ / "configfs")) out["configfs/" + k] = v;
    for (auto& [k, v] : Snapshot(state_, "calls")) out["tools/" + k] = v;
    return out;
  }
  fs::path StateFile() { return BackupDir(root_) / "roce-config-gpu-01.state"; }

  // Apply, roll back, compare; the rollback prints `restored` lines.
  void ApplyThenRollBack(const std::string& tool, int restored, int unchanged) {
    const auto before = Node();
    const std::string script = Render(ExamplePlan(), "gpu-01", tool);
    RunResult apply = RunScript(script);
    ASSERT_EQ(apply.code, 0) << apply.out;
    EXPECT_THAT(apply.out, HasSubstr("changed=10 "));
    ASSERT_NE(Node(), before);
    const std::string backup = Slurp(StateFile());
    EXPECT_THAT(backup, ::testing::StartsWith("rocewatch-roce-config state 1\nnode\tgpu-01\n"));
    EXPECT_THAT(backup, HasSubstr("\nplan\tfnv1a64:"));
    EXPECT_THAT(backup, HasSubstr("\nmtu\tens1f0np0\t-\t1500\n"));
    EXPECT_THAT(backup, HasSubstr("\ndcqcn\tens2f0np0\trp.rpg_gd\t12\n"));
    EXPECT_THAT(backup, HasSubstr("\ncm_mode\tmlx5_1\t1\tIB/RoCE v1\n"));
    EXPECT_THAT(backup, HasSubstr("\npause\tens1f0np0\t-\ton on on\n"));

    RunResult dry = RunScript(script, "--rollback --dry-run");
    EXPECT_EQ(dry.code, 0) << dry.out;
    EXPECT_THAT(dry.out, HasSubstr("ens1f0np0: mtu 1500 -> would restore (now: 9000)"));
    EXPECT_THAT(dry.out,
                HasSubstr("mode=rollback-dry-run would_restore=" + std::to_string(restored) + " "));
    EXPECT_TRUE(fs::exists(StateFile()));

    RunResult back = RunScript(script, "--rollback");
    EXPECT_EQ(back.code, 0) << back.out;
    for (const char* line : {
             "ens1f0np0: mtu 1500 -> restored (was: 9000)",
             "ens1f0np0: pfc none -> restored (was: 3)",
             "ens1f0np0: global pause (autoneg rx tx) on on on -> restored (was: off off off)",
             "ens1f0np0: ecn rp priorities 3,5 -> restored (was: 3)",
             "ens2f0np0: dcqcn np.cnp_dscp 46 -> restored (was: 48)",
             "mlx5_1 port 1: rdma_cm default_roce_mode IB/RoCE v1 -> restored (was: RoCE v2)",
             "mlx5_1 port 1: rdma_cm default_roce_tos 0 -> restored (was: 106)",
         })
      EXPECT_THAT(back.out, HasSubstr(line));
    EXPECT_THAT(back.out, HasSubstr("rocewatch: node=gpu-01 mode=rollback restored=" +
                                    std::to_string(restored) +
                                    " unchanged=" + std::to_string(unchanged) + " failed=0"));
    EXPECT_EQ(CountLines(back.out, "-> restored"), restored);
    EXPECT_EQ(Node(), before);  // every byte as it was
    EXPECT_FALSE(fs::exists(StateFile()));

    // Restoring again is a no-op.
    RunResult again = RunScript(script, "--rollback");
    EXPECT_EQ(again.code, 0) << again.out;
    EXPECT_THAT(again.out, HasSubstr("mode=rollback restored=0 unchanged=0 failed=0 backup=none"));
    EXPECT_EQ(Node(), before);
  }

  testing::TestDir tmp_;
  fs::path dir_ = tmp_.path();
  fs::path root_ = dir_ / "tree";
  fs::path state_ = dir_ / "state";

 public:
  const fs::path& dir() const { return dir_; }
  const fs::path& state() const { return state_; }
  std::map<std::string, std::string> Env() const { return FakeEnv(root_, state_); }
  friend void OptionalCountersRoundTrip(Rollback& t, const std::string& tool, bool indented);
};

TEST_F(Rollback, UpstreamApplyThenRollbackLeavesEveryByteAsItWas) {
  // trust (the DSCP APP table), pfc, ecn np, ecn rp, pause, mtu; cnp_dscp, rpg_gd; mode, tos.
  ApplyThenRollBack("upstream", 10, 0);
}

TEST_F(Rollback, MlnxApplyThenRollbackLeavesEveryByteAsItWas) {
  WriteText(state_ / "ens2f0np0.trust", "dscp\n");
  // The stand-in mlnx_qos writes its default trust and dscp2prio map on its first call: made
  // before the node is compared.
  for (const char* nd : {"ens1f0np0", "ens2f0np0"})
    ASSERT_EQ(Sh(std::string("mlnx_qos -i ") + nd, dir_, FakeEnv(root_, state_)).code, 0);
  // The mlnx trust step saves trust and the two DSCP entries it sets; 26 and 48 were already on
  // 3 and 6 in mlnx_qos's default map, so they read as they were.
  ApplyThenRollBack("mlnx", 10, 2);
}

TEST_F(Rollback, NothingChangedNothingToRestore) {
  const std::string script = Render(ExamplePlan(), "gpu-01", "upstream");
  RunResult apply = RunScript(script);
  ASSERT_EQ(apply.code, 0) << apply.out;
  fs::remove(StateFile());
  RunResult none = RunScript(script, "--rollback");
  EXPECT_EQ(none.code, 0) << none.out;
  EXPECT_THAT(none.out, HasSubstr("no backup: " + StateFile().string() + " does not exist"));
  // A run that changes nothing writes no backup.
  RunResult second = RunScript(script);
  EXPECT_THAT(second.out, HasSubstr("changed=0 "));
  EXPECT_FALSE(fs::exists(StateFile()));
}

TEST_F(Rollback, KilledBetweenTwoStepsStillRollsBack) {
  const auto before = Node();
  const std::string script = Render(ExamplePlan(), "gpu-01", "upstream");
  // The stand-in ip sets the MTU, then kills the script (SIGKILL) before it reads it back: the
  // steps after it never run.
  const fs::path pid = dir_ / "script.pid";
  auto env = FakeEnv(root_, state_);
  env["FAKE_KILL_AFTER_MTU"] = pid.string();
  RunResult killed = Sh("echo $$ > " + Q(pid.string()) + "; exec sh " + Q(script), dir_, env);
  EXPECT_NE(killed.code, 0);
  EXPECT_THAT(killed.out, HasSubstr("ens1f0np0: global pause rx off, tx off -> set"));
  EXPECT_THAT(killed.out, Not(HasSubstr("ens1f0np0: mtu")));
  EXPECT_THAT(killed.out, Not(HasSubstr("ens2f0np0: pfc")));
  EXPECT_EQ(Slurp(state_ / "ens1f0np0.mtu"), "9000\n");
  const std::string backup = Slurp(StateFile());
  EXPECT_THAT(backup, HasSubstr("\nmtu\tens1f0np0\t-\t1500\n"));
  EXPECT_THAT(backup, Not(HasSubstr("ens2f0np0")));  // nothing of the NIC it never reached

  RunResult back = RunScript(script, "--rollback");
  EXPECT_EQ(back.code, 0) << back.out;
  EXPECT_THAT(back.out, HasSubstr("ens1f0np0: mtu 1500 -> restored (was: 9000)"));
  EXPECT_THAT(back.out, HasSubstr("mode=rollback restored=6 unchanged=0 failed=0"));
  EXPECT_EQ(Node(), before);
}

TEST_F(Rollback, ValuesReadStayLiteralInTheBackupAndTheRestore) {
  // A hostile driver (or tree): the value read is shell text, quotes, a backslash and a tab.
  const std::string hostile = "12 $(touch PWNED) `touch PWNED` '\"\\n\tx; rm -rf /";
  WriteText(root_ / "sys/class/net/ens2f0np0/ecn/roce_rp/rpg_gd", hostile + "\n");
  const auto before = Node();
  const std::string script = Render(ExamplePlan(), "gpu-01", "upstream");
  RunResult apply = RunScript(script);
  EXPECT_EQ(apply.code, 0) << apply.out;
  EXPECT_THAT(Slurp(StateFile()), HasSubstr("\ndcqcn\tens2f0np0\trp.rpg_gd\t" + hostile + "\n"));
  RunResult back = RunScript(script, "--rollback");
  EXPECT_EQ(back.code, 0) << back.out;
  EXPECT_EQ(Node(), before);
  EXPECT_FALSE(fs::exists(dir_ / "PWNED"));
}

TEST_F(Rollback, ABackupLineNamingAnotherPathIsRefused) {
  const std::string script = Render(ExamplePlan(), "gpu-01", "upstream");
  ASSERT_EQ(RunScript(script).code, 0);
  const fs::path outside = dir_ / "outside";
  WriteText(outside / "ecn/roce_np/x", "keep\n");
  std::ofstream(StateFile(), std::ios::app) << "dcqcn\t../../../../outside\tnp.x\tgone\n";
  RunResult back = RunScript(script, "--rollback");
  EXPECT_EQ(back.code, 1) << back.out;
  EXPECT_THAT(back.out, HasSubstr("not a setting this script wrote"));
  EXPECT_EQ(Slurp(outside / "ecn/roce_np/x"), "keep\n");
  EXPECT_TRUE(fs::exists(StateFile()));  // kept: a failed rollback can be run again
}

TEST_F(Rollback, AnotherPlanStopsOverAnUnrestoredBackupUnlessForced) {
  const auto before = Node();
  const std::string first = Render(ExamplePlan(), "gpu-01", "upstream");
  ASSERT_EQ(RunScript(first).code, 0);
  const std::string backup = Slurp(StateFile());
  // The same plan again (the boot re-apply): allowed, the backup keeps the first values.
  RunResult same = RunScript(first);
  EXPECT_EQ(same.code, 0) << same.out;
  EXPECT_EQ(Slurp(StateFile()), backup);

  // Another plan for the node: the example plan with PFC on 3 and 4.
  std::string plan = Slurp(ExamplePlan());
  const std::string pfc3 = "\"pfc_priorities\": [3]";
  ASSERT_NE(plan.find(pfc3), std::string::npos);
  plan.replace(plan.find(pfc3), pfc3.size(), "\"pfc_priorities\": [3, 4]");
  WriteText(dir_ / "pfc34.json", plan);
  const std::string other = Render((dir_ / "pfc34.json").string(), "gpu-01", "upstream");
  const auto applied = Node();
  RunResult refused = RunScript(other);
  EXPECT_EQ(refused.code, 4) << refused.out;
  EXPECT_THAT(refused.out, HasSubstr("holds the unrestored backup of another plan"));
  EXPECT_THAT(refused.out, HasSubstr("mode=apply changed=0 "));
  EXPECT_EQ(Node(), applied);

  RunResult forced = RunScript(other, "--force");
  EXPECT_EQ(forced.code, 0) << forced.out;
  EXPECT_EQ(CountLines(Slurp(StateFile()), "plan\tfnv1a64:"), 2);  // both plans are named
  EXPECT_THAT(Slurp(StateFile()), HasSubstr("\npfc\tens1f0np0\t-\tnone\n"));  // the first value

  RunResult back = RunScript(other, "--rollback");
  EXPECT_EQ(back.code, 0) << back.out;
  EXPECT_EQ(Node(), before);
}

TEST_F(Rollback, InstalledFilesAreRemovedOrPutBack) {
  const fs::path out = dir_ / "out", dest = dir_ / "dest";
  RunResult r =
      Sh(RoceLint() + " fix " + Q(ExamplePlan()) + " --node gpu-01 --persist -o " + Q(out.string()),
         dir_);
  ASSERT_EQ(r.code, 0) << r.err;
  // A unit of the same name was there before (hand-written): install.sh replaces it.
  WriteText(dest / "etc/systemd/system/rocewatch-roce-config.service", "# by hand\n");
  std::map<std::string, std::string> env = FakeEnv(root_, state_);
  env["DESTDIR"] = dest.string();
  RunResult install = Sh("sh " + Q((out / "gpu-01/install.sh").string()), dir_, env);
  ASSERT_EQ(install.code, 0) << install.out << install.err;
  EXPECT_TRUE(fs::exists(dest / "usr/local/sbin/rocewatch-roce-config"));
  EXPECT_EQ(Slurp(BackupDir(root_) / "replaced/rocewatch-roce-config.service"), "# by hand\n");

  env.erase("DESTDIR");
  env["ROCEWATCH_DESTDIR"] = dest.string();
  RunResult back =
      Sh("sh " + Q((dest / "usr/local/sbin/rocewatch-roce-config").string()) + " --rollback", dir_,
         env);
  EXPECT_EQ(back.code, 0) << back.out;
  EXPECT_THAT(back.out, HasSubstr("persist: " + dest.string() +
                                  "/usr/local/sbin/rocewatch-roce-config removed"));
  EXPECT_FALSE(fs::exists(dest / "usr/local/sbin/rocewatch-roce-config"));
  EXPECT_FALSE(fs::exists(dest / "etc/udev/rules.d/99-rocewatch-roce-config.rules"));
  EXPECT_EQ(Slurp(dest / "etc/systemd/system/rocewatch-roce-config.service"), "# by hand\n");
  EXPECT_FALSE(fs::exists(BackupDir(root_) / "persist.state"));
}

// The example plan with optional counters in its profile (`counters`: JSON strings): gpu-01's
// two NICs get the optional-counters step.
std::string OptionalCountersPlan(const fs::path& dir, const std::string& counters) {
  std::string plan = Slurp(ExamplePlan());
  const std::string anchor = "\"roce_mode\": \"v2\",";
  const auto at = plan.find(anchor);
  EXPECT_NE(at, std::string::npos);
  if (at == std::string::npos) return "";
  plan.insert(at + anchor.size(), " \"optional_counters\": [" + counters + "],");
  const fs::path path = dir / "optional-counters.json";
  WriteText(path, plan);
  return path.string();
}

// mlx5_0 has cc_tx_cnp_pkts enabled (by hand, not planned), mlx5_1 none; the plan wants
// cc_rx_ce_pkts and cc_rx_cnp_pkts, exactly. `indented`: the stand-in rdma prints its mode lines
// as iproute2 6.8 and later do.
void OptionalCountersRoundTrip(Rollback& t, const std::string& tool, bool indented) {
  const std::string counters = "rx_write_requests 8\nout_of_sequence 0\nnp_cnp_sent 12\n";
  WriteFakeRdmaPort(t.state(), "mlx5_0", "1", Mlx5OptionalCounters(), {"cc_tx_cnp_pkts"}, counters);
  WriteFakeRdmaPort(t.state(), "mlx5_1", "1", Mlx5OptionalCounters(), {}, counters);
  if (indented) WriteText(t.state() / "rdma.indented", "");
  if (tool == "mlnx") {
    for (const char* nd : {"ens1f0np0", "ens2f0np0"}) {
      ASSERT_EQ(Sh(std::string("mlnx_qos -i ") + nd, t.dir(), t.Env()).code, 0);
    }
  }
  const auto before = t.Node();
  const std::string script =
      t.Render(OptionalCountersPlan(t.dir(), "\"cc_rx_cnp_pkts\", \"cc_rx_ce_pkts\""), "gpu-01", tool);

  RunResult apply = t.RunScript(script);
  ASSERT_EQ(apply.code, 0) << apply.out;
  EXPECT_THAT(apply.out, HasSubstr("\nmlx5_0 port 1: optional counters cc_rx_ce_pkts,cc_rx_cnp_pkts"
                                   " -> set (was: cc_tx_cnp_pkts)\n"));
  EXPECT_THAT(apply.out, HasSubstr("\nmlx5_1 port 1: optional counters cc_rx_ce_pkts,cc_rx_cnp_pkts"
                                   " -> set (was: none)\n"));
  EXPECT_EQ(Slurp(t.state() / "mlx5_0.1.optional"),
            "cc_rx_ce_pkts 1\ncc_rx_cnp_pkts 1\ncc_tx_cnp_pkts 0\n");
  const std::string backup = Slurp(t.StateFile());
  EXPECT_THAT(backup, HasSubstr("\noptional_counters\tmlx5_0\t1\tcc_tx_cnp_pkts\n"));
  EXPECT_THAT(backup, HasSubstr("\noptional_counters\tmlx5_1\t1\tnone\n"));
  // What rdma shows now: the two enabled optional counters after the others.
  RunResult show = Sh("rdma statistic show link mlx5_1/1", t.dir(), t.Env());
  EXPECT_EQ(show.out, "link mlx5_1/1 rx_write_requests 8 out_of_sequence 0 np_cnp_sent 12 "
                      "cc_rx_ce_pkts 0 cc_rx_cnp_pkts 0 \n");

  // Again (the boot re-apply of an unchanged node): read, equal, never set.
  fs::remove(t.state() / "calls");
  RunResult again = t.RunScript(script);
  EXPECT_EQ(again.code, 0) << again.out;
  EXPECT_THAT(again.out,
              HasSubstr("mlx5_0 port 1: optional counters cc_rx_ce_pkts,cc_rx_cnp_pkts: unchanged"));
  EXPECT_THAT(Slurp(t.state() / "calls"), HasSubstr("rdma statistic mode link mlx5_0/1\n"));
  EXPECT_THAT(Slurp(t.state() / "calls"), Not(HasSubstr("rdma statistic set")));
  EXPECT_EQ(Slurp(t.StateFile()), backup);

  const auto applied = t.Node();
  RunResult dry = t.RunScript(script, "--rollback --dry-run");
  EXPECT_EQ(dry.code, 0) << dry.out;
  EXPECT_THAT(dry.out, HasSubstr("mlx5_0 port 1: optional counters cc_tx_cnp_pkts -> would restore "
                                 "(now: cc_rx_ce_pkts,cc_rx_cnp_pkts)"));
  EXPECT_THAT(dry.out, HasSubstr("mlx5_1 port 1: optional counters none -> would restore "
                                 "(now: cc_rx_ce_pkts,cc_rx_cnp_pkts)"));
  EXPECT_EQ(t.Node(), applied);

  RunResult back = t.RunScript(script, "--rollback");
  EXPECT_EQ(back.code, 0) << back.out;
  EXPECT_THAT(back.out, HasSubstr("mlx5_0 port 1: optional counters cc_tx_cnp_pkts -> restored "
                                  "(was: cc_rx_ce_pkts,cc_rx_cnp_pkts)"));
  EXPECT_THAT(back.out, HasSubstr("mlx5_1 port 1: optional counters none -> restored "
                                  "(was: cc_rx_ce_pkts,cc_rx_cnp_pkts)"));
  EXPECT_THAT(back.out, HasSubstr(" failed=0"));
  EXPECT_THAT(Slurp(t.state() / "calls"),
              HasSubstr("rdma statistic unset link mlx5_1/1 optional-counters\n"));
  EXPECT_EQ(t.Node(), before);  // every byte, the rdma state included
}

TEST_F(Rollback, OptionalCountersUpstreamApplyThenRollbackRestoreWhatWasEnabled) {
  OptionalCountersRoundTrip(*this, "upstream", false);
}

TEST_F(Rollback, OptionalCountersMlnxApplyThenRollbackWithTheNewerRdmaLayout) {
  WriteText(state_ / "ens2f0np0.trust", "dscp\n");
  OptionalCountersRoundTrip(*this, "mlnx", true);
}

TEST_F(Rollback, AnOptionalCounterTheDriverLacksIsNamedAndNotSet) {
  // mlx5_1's driver has no cc_tx_cnp_pkts (older firmware); mlx5_0 has all three.
  WriteFakeRdmaPort(state_, "mlx5_0", "1", Mlx5OptionalCounters(), {});
  WriteFakeRdmaPort(state_, "mlx5_1", "1", {"cc_rx_ce_pkts", "cc_rx_cnp_pkts"}, {});
  const auto before = Node();
  const std::string script = Render(
      OptionalCountersPlan(dir_, "\"cc_rx_ce_pkts\", \"cc_rx_cnp_pkts\", \"cc_tx_cnp_pkts\""),
      "gpu-01", "upstream");
  const std::string lacks =
      "mlx5_1 port 1: optional counters cc_rx_ce_pkts,cc_rx_cnp_pkts,cc_tx_cnp_pkts -> FAILED: "
      "the driver has no optional counter cc_tx_cnp_pkts (it has: cc_rx_ce_pkts, cc_rx_cnp_pkts; "
      "enabled: none)\n";
  RunResult dry = RunScript(script, "--dry-run");
  EXPECT_EQ(dry.code, 1) << dry.out;
  EXPECT_THAT(dry.out, HasSubstr(lacks));

  RunResult apply = RunScript(script);
  EXPECT_EQ(apply.code, 1) << apply.out;
  EXPECT_THAT(apply.out, HasSubstr(lacks));
  EXPECT_THAT(apply.out, HasSubstr("mlx5_0 port 1: optional counters "
                                   "cc_rx_ce_pkts,cc_rx_cnp_pkts,cc_tx_cnp_pkts -> set (was: none)"));
  EXPECT_THAT(apply.out, HasSubstr(" failed=1"));
  // Never asked to enable what it lacks, and nothing of it saved.
  EXPECT_THAT(Slurp(state_ / "calls"), Not(HasSubstr("rdma statistic set link mlx5_1/1")));
  EXPECT_EQ(Slurp(state_ / "mlx5_1.1.optional"), "cc_rx_ce_pkts 0\ncc_rx_cnp_pkts 0\n");
  EXPECT_THAT(Slurp(StateFile()), Not(HasSubstr("optional_counters\tmlx5_1")));

  RunResult back = RunScript(script, "--rollback");
  EXPECT_EQ(back.code, 0) << back.out;
  EXPECT_EQ(Node(), before);
}

TEST_F(Rollback, AKernelWithoutOptionalCountersIsNamedAndNothingChanges) {
  // mlx5_1 on a kernel that does not answer STAT_GET_STATUS: rdma fails with EOPNOTSUPP.
  WriteFakeRdmaPort(state_, "mlx5_0", "1", Mlx5OptionalCounters(), Mlx5OptionalCounters());
  WriteFakeRdmaPort(state_, "mlx5_1", "1", Mlx5OptionalCounters(), {});
  WriteText(state_ / "mlx5_1.1.nostatus", "");
  const std::string script =
      Render(OptionalCountersPlan(dir_, "\"cc_rx_ce_pkts\""), "gpu-01", "upstream");
  RunResult apply = RunScript(script);
  EXPECT_EQ(apply.code, 1) << apply.out;
  EXPECT_THAT(apply.out,
              HasSubstr("\nmlx5_1 port 1: optional counters cc_rx_ce_pkts -> FAILED: rdma statistic "
                        "mode link mlx5_1/1: error: EOPNOTSUPP: the kernel does not list optional "
                        "counters (no RDMA_NLDEV_CMD_STAT_GET_STATUS)\n"));
  // mlx5_0 had all three on: exactly the planned one stays.
  EXPECT_THAT(apply.out, HasSubstr("mlx5_0 port 1: optional counters cc_rx_ce_pkts -> set (was: "
                                   "cc_rx_ce_pkts,cc_rx_cnp_pkts,cc_tx_cnp_pkts)"));
  EXPECT_THAT(Slurp(state_ / "calls"), Not(HasSubstr("set link mlx5_1/1")));
  EXPECT_EQ(Slurp(state_ / "mlx5_1.1.optional"), "cc_rx_ce_pkts 0\ncc_rx_cnp_pkts 0\ncc_tx_cnp_pkts 0\n");
}

TEST_F(Rollback, OptionalCounterNamesReadStayLiteral) {
  // A hostile driver: the names rdma prints are shell text. They are kept in the backup as read
  // and given back to rdma as one argument; nothing runs.
  const std::string evil = "x$(touch${IFS}PWNED)", evil2 = "y`touch${IFS}PWNED`;z";
  WriteFakeRdmaPort(state_, "mlx5_0", "1", {"cc_rx_ce_pkts", evil, evil2}, {evil, evil2});
  WriteFakeRdmaPort(state_, "mlx5_1", "1", Mlx5OptionalCounters(), {});
  const auto before = Node();
  const std::string script =
      Render(OptionalCountersPlan(dir_, "\"cc_rx_ce_pkts\""), "gpu-01", "upstream");
  RunResult apply = RunScript(script);
  EXPECT_EQ(apply.code, 0) << apply.out;
  EXPECT_THAT(Slurp(StateFile()),
              HasSubstr("\noptional_counters\tmlx5_0\t1\t" + evil + "," + evil2 + "\n"));
  RunResult back = RunScript(script, "--rollback");
  EXPECT_EQ(back.code, 0) << back.out;
  EXPECT_EQ(Node(), before);
  EXPECT_FALSE(fs::exists(dir_ / "PWNED"));
}

// What the kernel forgets at reboot, the installed script (what the unit runs at boot) sets
// again; the backup keeps the value from before the first run, and the rollback returns to it.
TEST_F(Rollback, TheBootReapplyEnablesTheOptionalCountersAgain) {
  WriteFakeRdmaPort(state_, "mlx5_0", "1", Mlx5OptionalCounters(), {});
  WriteFakeRdmaPort(state_, "mlx5_1", "1", Mlx5OptionalCounters(), {"cc_rx_ce_pkts"});
  const auto before = Node();
  const fs::path out = dir_ / "out", dest = dir_ / "dest";
  RunResult r = Sh(RoceLint() + " fix " +
                       Q(OptionalCountersPlan(dir_, "\"cc_rx_ce_pkts\", \"cc_rx_cnp_pkts\"")) +
                       " --node gpu-01 --persist -o " + Q(out.string()),
                   dir_);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(Slurp(out / "gpu-01/rocewatch-roce-config.service"),
              HasSubstr("\nExecStart=/usr/local/sbin/rocewatch-roce-config\n"));
  EXPECT_THAT(Slurp(out / "gpu-01/99-rocewatch-roce-config.rules"),
              HasSubstr("SUBSYSTEM==\"infiniband\", KERNEL==\"mlx5_0|mlx5_1\""));
  std::map<std::string, std::string> env = FakeEnv(root_, state_);
  env["DESTDIR"] = dest.string();
  ASSERT_EQ(Sh("sh " + Q((out / "gpu-01/install.sh").string()), dir_, env).code, 0);
  env.erase("DESTDIR");
  env["ROCEWATCH_DESTDIR"] = dest.string();
  const std::string installed = "sh " + Q((dest / "usr/local/sbin/rocewatch-roce-config").string());

  RunResult first = Sh(installed, dir_, env);  // install.sh --now, or the first boot
  EXPECT_EQ(first.code, 0) << first.out;
  EXPECT_THAT(first.out, HasSubstr("mlx5_1 port 1: optional counters cc_rx_ce_pkts,cc_rx_cnp_pkts "
                                   "-> set (was: cc_rx_ce_pkts)"));
  const std::string backup = Slurp(StateFile());
  // A reboot: the driver comes back with its optional counters disabled.
  WriteFakeRdmaPort(state_, "mlx5_0", "1", Mlx5OptionalCounters(), {});
  WriteFakeRdmaPort(state_, "mlx5_1", "1", Mlx5OptionalCounters(), {});
  RunResult boot = Sh(installed, dir_, env);  // ExecStart of rocewatch-roce-config.service
  EXPECT_EQ(boot.code, 0) << boot.out;
  EXPECT_THAT(boot.out, HasSubstr("mlx5_0 port 1: optional counters cc_rx_ce_pkts,cc_rx_cnp_pkts "
                                  "-> set (was: none)"));
  EXPECT_THAT(boot.out, HasSubstr("mlx5_1 port 1: optional counters cc_rx_ce_pkts,cc_rx_cnp_pkts "
                                  "-> set (was: none)"));
  EXPECT_EQ(Slurp(StateFile()), backup);  // the values from before the first run

  RunResult back = Sh(installed + " --rollback", dir_, env);
  EXPECT_EQ(back.code, 0) << back.out;
  EXPECT_THAT(back.out, HasSubstr("mlx5_1 port 1: optional counters cc_rx_ce_pkts -> restored"));
  EXPECT_FALSE(fs::exists(dest / "usr/local/sbin/rocewatch-roce-config"));
  EXPECT_EQ(Node(), before);
}

// `roce-lint apply` then `roce-lint apply --rollback` across every node of the demo cluster,
// over real ssh to an sshd on loopback: each node's script runs on a writable copy of that
// node's capture (under examples/demo/nodes/), with its own stand-in tools' state. Afterwards every
// node's tree and state are as they were, byte for byte.
TEST(RollbackAcrossTheDemo, ApplyThenRollBackOverSshLeavesEveryNodeAsItWas) {
  if (!IsRoot()) GTEST_SKIP() << "applying needs root (the script's precheck asks for it)";
  if (auto why = LoopbackSshd::SkipReason(); !why.empty()) GTEST_SKIP() << why;
  testing::TestDir tmp;
  const fs::path dir = tmp.path(), nodes = dir / "nodes";
  const fs::path demo = fs::path(ROCEWATCH_SOURCE_DIR) / "examples/demo";
  const std::string plan_text = Slurp(demo / "plan.json");
  WriteText(dir / "plan.json", plan_text);
  const auto plan = nlohmann::json::parse(plan_text);
  std::vector<std::string> names;
  for (const auto& node : plan.at("nodes")) {
    const std::string name = node.at("name");
    names.push_back(name);
    fs::create_directories(nodes / name);
    for (const char* part : {"sys", "configfs"})
      fs::copy(demo / "nodes" / name / part, nodes / name / part,
               fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    // The tools' state as a freshly booted node shows it: PFC off, no DSCP entries, MTU 1500;
    // the optional counters as the node's capture has them (its STAT_GET_STATUS answers).
    for (const auto& nic : node.at("nics")) {
      WriteFakeNetdev(nodes / name / "state", nic.at("netdev").get<std::string>(), {});
      const std::string dev = nic.at("ib_dev");
      const fs::path status = demo / "nodes" / name / "kernel/rdma-netlink" / dev / "1/stat_status";
      if (!fs::exists(status)) continue;  // gpu-05 lacks mlx5_1
      const std::string bytes = Slurp(status);
      auto decoded = rdma_nl::DecodeStatStatusReply(
          {reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()});
      ASSERT_TRUE(decoded) << status << ": " << decoded.error().message;
      std::vector<std::string> optional, enabled;
      for (const auto& c : decoded->counters) {
        optional.push_back(c.name);
        if (c.enabled) enabled.push_back(c.name);
      }
      WriteFakeRdmaPort(nodes / name / "state", dev, "1", optional, enabled);
      if (name == "gpu-09" && dev == "mlx5_0") {
        EXPECT_TRUE(enabled.empty());  // its seeded fault
      } else if (name == "gpu-01") {
        EXPECT_EQ(enabled, Mlx5OptionalCounters());
      }
    }
  }
  ASSERT_GE(names.size(), 10u);
  auto snapshot = [&] {
    std::map<std::string, std::string> out;
    for (const auto& name : names)
      for (const char* part : {"sys", "configfs", "state"})
        for (auto& [k, v] : Snapshot(nodes / name / part, "calls"))
          out[name + "/" + part + "/" + k] = v;
    return out;
  };
  fs::create_directories(dir / "ssh");
  LoopbackSshd sshd(dir / "ssh");
  ASSERT_TRUE(sshd.Accepts()) << "sshd did not start: " << sshd.Log();
  // Every node is reached at 127.0.0.1; {node} picks the node's copy and state on the far side.
  std::string ssh = sshd.SshCommand();
  ssh.replace(ssh.find("{host}"), 6, "127.0.0.1");
  const std::string at = (nodes / "{node}").string();
  ssh += " env ROCEWATCH_SYSFS=" + at + "/sys ROCEWATCH_CONFIGFS=" + at +
         "/configfs ROCEWATCH_STATE=" + at + "/backup FAKE_STATE=" + at + "/state PATH=" +
         FakeTools() + ":/usr/sbin:/usr/bin:/sbin:/bin";
  ASSERT_EQ(Sh(RoceLint() + " fix plan.json --output-dir scripts", dir).code, 0);
  const auto before = snapshot();

  RunResult apply = Sh(RoceLint() + " apply plan.json --scripts scripts --concurrency 4 --ssh-command " + Q(ssh), dir);
  EXPECT_EQ(apply.code, 1) << apply.out << apply.err << sshd.Log();  // 1: nodes were skipped
  // gpu-05 lacks a planned device and gpu-08 runs firmware the profile refuses (the demo's
  // seeded faults): their precheck stops their scripts before any change.
  EXPECT_THAT(apply.out, HasSubstr("\n14 nodes: 12 changed, 2 skipped, 0 failed, 0 unreachable\n"))
      << apply.out;
  const auto applied = snapshot();
  ASSERT_NE(applied, before);
  for (const auto& name : names)
    EXPECT_EQ(fs::exists(nodes / name / "backup" / ("roce-config-" + name + ".state")),
              name != "gpu-05" && name != "gpu-08")
        << name;

  RunResult rollback = Sh(RoceLint() + " apply plan.json --scripts scripts --rollback --concurrency 4 --ssh-command " + Q(ssh), dir);
  EXPECT_EQ(rollback.code, 1) << rollback.out << rollback.err << sshd.Log();
  EXPECT_THAT(rollback.out,
              HasSubstr("\n14 nodes: 12 rolled back, 2 skipped, 0 failed, 0 unreachable\n"))
      << rollback.out;
  const auto after = snapshot();
  for (const auto& [path, bytes] : before) {
    auto it = after.find(path);
    if (it == after.end()) {
      ADD_FAILURE() << path << " is gone after the rollback";
      continue;
    }
    EXPECT_EQ(it->second, bytes) << path;
  }
  for (const auto& [path, bytes] : after)
    if (!before.count(path) && path.find("/backup/") == std::string::npos)
      ADD_FAILURE() << path << " is new after the rollback";
}

}  // namespace
}  // namespace rocewatch::fix_testing
