// `roce-lint apply`, the batch runner: the parsing of a script's output, the transport command,
// the summary table, and whole runs against local targets — the local transport (a shell per
// node) and an sshd on loopback started by the test (its own host key, user key and
// authorized_keys in a temporary directory) — with one node that changes settings, one whose
// precheck fails (skipped with the reason), one whose script fails, one without a script and,
// over ssh, one that is unreachable (a loopback address where nothing listens).
// The runs apply settings, so they need root (the scripts' precheck asks for it; sshd too).

#include <arpa/inet.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <sstream>
#include <thread>

#include "common/test_dir.h"
#include "fix_test_util.h"
#include "lint/fix/batch.h"
#include "loopback_sshd.h"

namespace rocewatch::fix_testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
namespace fix = rocewatch::lint::fix;

TEST(BatchOutput, PrecheckProblemsChangedCountsAndFailureLines) {
  const std::string precheck =
      "note: this host is vm; the script was rendered for node gpu-01\n"
      "precheck: mlx5_10 not in /sys/class/infiniband; present: mlx5_0 mlx5_1\n"
      "precheck: dcb not found in PATH (iproute2: trust, PFC and DSCP settings)\n"
      "precheck failed: 2 problems; nothing was changed\n";
  EXPECT_THAT(
      fix::PrecheckProblems(precheck),
      ::testing::ElementsAre("mlx5_10 not in /sys/class/infiniband; present: mlx5_0 mlx5_1",
                             "dcb not found in PATH (iproute2: trust, PFC and DSCP settings)"));
  EXPECT_EQ(fix::ChangedCount("x: mtu 9000 -> set (was: 1500)\nrocewatch: node=a mode=apply "
                              "changed=3 unchanged=2 failed=0\n"),
            3);
  EXPECT_EQ(
      fix::ChangedCount("rocewatch: node=a mode=dry-run would_change=4 unchanged=2 failed=0\n"), 4);
  EXPECT_EQ(fix::ChangedCount("precheck passed\n"), std::nullopt);
  const std::string failed =
      "e1: pfc 3 -> FAILED: cannot read it: Attribute read: Operation not supported\n"
      "e1: mtu 9000: unchanged\n"
      "rocewatch: node=a mode=apply changed=0 unchanged=1 failed=1\n";
  EXPECT_EQ(fix::LastFailureLine(failed),
            "e1: pfc 3 -> FAILED: cannot read it: Attribute read: Operation not supported");
  EXPECT_EQ(fix::LastFailureLine("sh: 1: syntax error\n\n"), "sh: 1: syntax error");
  EXPECT_EQ(fix::LastLine(""), "no output");
}

TEST(BatchOutput, RollbackCountsAndNoBackup) {
  EXPECT_EQ(fix::RestoredCount("rocewatch: node=a mode=rollback restored=5 unchanged=1 failed=0\n"),
            5);
  EXPECT_EQ(fix::RestoredCount(
                "rocewatch: node=a mode=rollback-dry-run would_restore=2 unchanged=0 failed=0\n"),
            2);
  EXPECT_TRUE(fix::NoBackup(
      "no backup: /var/lib/rocewatch/roce-config-gpu-01.state does not exist; nothing to restore\n"
      "rocewatch: node=a mode=rollback restored=0 unchanged=0 failed=0 backup=none\n"));
  EXPECT_FALSE(fix::NoBackup("rocewatch: node=a mode=rollback restored=0 unchanged=3 failed=0\n"));
  EXPECT_FALSE(fix::NoBackup("x: dcqcn np.y backup=none -> restored (was: 1)\n"));
}

TEST(BatchOutput, TransportCommandQuotesHostAndRemoteCommand) {
  fix::BatchOptions o;
  EXPECT_EQ(fix::TransportCommand(o, "gpu-01", "10.0.0.11", "--precheck"),
            "ssh -o BatchMode=yes -o ConnectTimeout=10 10.0.0.11 'sh -s -- --precheck'");
  o.ssh_command = "ssh -J bastion -l {node} {host}";
  o.remote_shell = "sudo -n sh -s --";
  EXPECT_EQ(fix::TransportCommand(o, "gpu 01", "fd00::11", ""),
            "ssh -J bastion -l 'gpu 01' fd00::11 'sudo -n sh -s --'");
  o.transport = fix::BatchOptions::Transport::kLocal;
  EXPECT_EQ(fix::TransportCommand(o, "gpu-01", "10.0.0.11", "--dry-run"),
            "sudo -n sh -s -- --dry-run");
}

TEST(BatchOutput, SummaryTable) {
  std::vector<fix::NodeResult> results(4);
  results[0] = {"gpu-01", "10.0.0.11", fix::Outcome::kChanged, 3, 0, "", ""};
  results[1] = {"gpu-02", "10.0.0.12", fix::Outcome::kPassed, 0, 0, "", ""};
  results[2] = {
      "gpu-10", "10.0.0.20", fix::Outcome::kSkipped,
      0,        3,           "precheck: mlx5_1 not in /sys/class/infiniband; present: mlx5_0",
      ""};
  results[3] = {"gpu-11", "10.0.0.21", fix::Outcome::kUnreachable,
                0,        255,         "ssh: connect to host 10.0.0.21 port 22: No route to host",
                ""};
  std::ostringstream out;
  fix::WriteSummaryTable(out, results);
  EXPECT_EQ(
      out.str(),
      "NODE    HOST       RESULT\n"
      "gpu-01  10.0.0.11  changed 3 settings\n"
      "gpu-02  10.0.0.12  passed\n"
      "gpu-10  10.0.0.20  skipped: precheck: mlx5_1 not in /sys/class/infiniband; present: mlx5_0\n"
      "gpu-11  10.0.0.21  unreachable: ssh: connect to host 10.0.0.21 port 22: No route to host\n"
      "4 nodes: 1 changed, 1 passed, 1 skipped, 0 failed, 1 unreachable\n");
}

// Four nodes rendered from one plan, all backed by one copy of the fixture tree:
//   node-a  mlx5_0/ens1f0np0, sysfs and configfs settings only: changes settings
//   node-b  mlx5_9, not in the tree: its precheck fails
//   node-c  mlx5_1/ens2f0np0 with PFC, whose (stand-in) dcb answers EOPNOTSUPP: fails
//   node-d  rendered, then its script removed: no script
class BatchRun : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!IsRoot())
      GTEST_SKIP() << "the scripts apply settings, which their precheck allows only to root";
    CopyFixtureTree(root_);
    WriteText(root_ / "sys/class/net/ens1f0np0/ecn/roce_np/enable/3", "0\n");
    WriteText(root_ / "sys/class/net/ens1f0np0/ecn/roce_rp/rpg_gd", "12\n");
    WriteText(root_ / "configfs/rdma_cm/mlx5_0/ports/1/default_roce_tos", "0\n");
    FakeNetdev no_dcb;
    no_dcb.dcb = false;
    WriteFakeNetdev(state_, "ens2f0np0", no_dcb);
    WriteText(dir_ / "plan.json", R"({"cluster": "batch",
      "profiles": {
        "sysfs": {"roce_mode": "v2", "roce_dscp": 26, "ecn": {"np_priorities": [3], "rp_priorities": [3]},
                  "dcqcn": {"rp": {"rpg_gd": 11}}, "firmware": "28.39.2048"},
        "pfc": {"pfc_priorities": [3]}
      },
      "nodes": [
        {"name": "node-a", "management_ip": "127.0.0.1", "nics": [
          {"ib_dev": "mlx5_0", "netdev": "ens1f0np0", "profile": "sysfs", "roce_ip": "10.1.0.1/24"}]},
        {"name": "node-b", "management_ip": "127.0.0.3", "nics": [
          {"ib_dev": "mlx5_9", "netdev": "ens9f0np0", "profile": "sysfs", "roce_ip": "10.1.0.2/24"}]},
        {"name": "node-c", "management_ip": "127.0.0.4", "nics": [
          {"ib_dev": "mlx5_1", "netdev": "ens2f0np0", "profile": "pfc", "roce_ip": "10.1.0.3/24"}]},
        {"name": "node-d", "management_ip": "127.0.0.5", "nics": [
          {"ib_dev": "mlx5_2", "netdev": "ens3f0np0", "profile": "sysfs", "roce_ip": "10.1.0.4/24"}]}
      ]})");
    RunResult r = Sh(RoceLint() + " fix plan.json --output-dir scripts", dir_);
    ASSERT_EQ(r.code, 0) << r.err;
    fs::remove(dir_ / "scripts/node-d/rocewatch-roce-config.sh");
  }

  // The environment of the scripts: the tree and the stand-in tools.
  std::string EnvWords() {
    std::string out;
    for (const auto& [k, v] : FakeEnv(root_, state_)) out += k + "=" + Q(v) + " ";
    return out;
  }

  testing::TestDir tmp_;
  fs::path dir_ = tmp_.path();
  fs::path root_ = dir_ / "tree";
  fs::path state_ = dir_ / "state";
};

TEST_F(BatchRun, LocalTransport) {
  // The local transport runs every node's shell here, with roce-lint's environment.
  auto env = FakeEnv(root_, state_);
  RunResult r =
      Sh(RoceLint() +
             " apply plan.json --scripts scripts --transport local --concurrency 3 --log-dir logs",
         dir_, env);
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  const std::string ib = (root_ / "sys/class/infiniband").string();
  EXPECT_EQ(r.out,
            "NODE    HOST       RESULT\n"
            "node-a  127.0.0.1  changed 3 settings\n"
            "node-b  127.0.0.3  skipped: precheck: mlx5_9 not in " +
                ib +
                "; present: mlx5_0 mlx5_1 mlx5_2 mlx5_3\n"
                "node-c  127.0.0.4  failed: script exit 1: ens2f0np0: pfc 3 -> FAILED: cannot read "
                "it: Attribute read: "
                "Operation not supported (ens2f0np0 does not support this setting: no DCB or "
                "driver support)\n"
                "node-d  127.0.0.5  no script (no scripts/node-d/rocewatch-roce-config.sh)\n"
                "4 nodes: 1 changed, 1 no script, 1 skipped, 1 failed, 0 unreachable\n");
  EXPECT_THAT(r.err, HasSubstr("] node-a: changed 3 settings"));
  EXPECT_EQ(Slurp(root_ / "sys/class/net/ens1f0np0/ecn/roce_rp/rpg_gd"), "11\n");
  EXPECT_EQ(Slurp(root_ / "configfs/rdma_cm/mlx5_0/ports/1/default_roce_tos"), "106\n");
  // The script's output is quoted as foreign lines (indented); only our result line is not.
  EXPECT_THAT(Slurp(dir_ / "logs/node-a.log"),
              HasSubstr("\n  ens1f0np0: dcqcn rp.rpg_gd 11 -> set (was: 12)\n"));
  EXPECT_THAT(Slurp(dir_ / "logs/node-a.log"), HasSubstr("\n# result: changed"));
  EXPECT_THAT(Slurp(dir_ / "logs/node-b.log"),
              HasSubstr("precheck failed: 1 problem; nothing was changed"));

  // Again: node-a has nothing left to change.
  RunResult again = Sh(
      RoceLint() + " apply plan.json --scripts scripts --transport local --node node-a", dir_, env);
  EXPECT_EQ(again.code, 0) << again.out << again.err;
  EXPECT_THAT(again.out, HasSubstr("node-a  127.0.0.1  passed\n"));
  EXPECT_THAT(again.out, HasSubstr("1 node: 1 passed, 0 skipped, 0 failed, 0 unreachable\n"));
}

TEST_F(BatchRun, DryRunAndPrecheckOnlyChangeNothing) {
  auto env = FakeEnv(root_, state_);
  RunResult dry = Sh(
      RoceLint() + " apply plan.json --scripts scripts --transport local --dry-run --node node-a",
      dir_, env);
  EXPECT_EQ(dry.code, 0) << dry.out << dry.err;
  EXPECT_THAT(dry.out, HasSubstr("node-a  127.0.0.1  dry run: would change 3 settings"));
  RunResult pre =
      Sh(RoceLint() + " apply plan.json --scripts scripts --transport local --precheck-only", dir_,
         env);
  EXPECT_EQ(pre.code, 1) << pre.out;
  EXPECT_THAT(pre.out, HasSubstr("node-a  127.0.0.1  precheck passed"));
  EXPECT_THAT(pre.out, HasSubstr("node-c  127.0.0.4  precheck passed"));
  EXPECT_THAT(pre.out, HasSubstr("node-b  127.0.0.3  skipped: precheck: mlx5_9 not in"));
  EXPECT_EQ(Slurp(root_ / "sys/class/net/ens1f0np0/ecn/roce_rp/rpg_gd"), "12\n");
}

TEST_F(BatchRun, RollbackRestoresWhatTheApplyChangedAndReportsNoBackup) {
  auto env = FakeEnv(root_, state_);
  const std::string rpg_gd = Slurp(root_ / "sys/class/net/ens1f0np0/ecn/roce_rp/rpg_gd");
  RunResult apply =
      Sh(RoceLint() + " apply plan.json --scripts scripts --transport local", dir_, env);
  EXPECT_THAT(apply.out, HasSubstr("node-a  127.0.0.1  changed 3 settings\n"));
  RunResult dry =
      Sh(RoceLint() +
             " apply plan.json --scripts scripts --transport local --rollback --dry-run "
             "--node node-a",
         dir_, env);
  EXPECT_EQ(dry.code, 0) << dry.out << dry.err;
  EXPECT_THAT(dry.out,
              HasSubstr("node-a  127.0.0.1  rollback dry run: would restore 3 settings\n"));
  EXPECT_EQ(Slurp(root_ / "sys/class/net/ens1f0np0/ecn/roce_rp/rpg_gd"), "11\n");
  // node-a's backup is restored (each node's backup is its own file, roce-config-NODE.state).
  RunResult back = Sh(RoceLint() +
                          " apply plan.json --scripts scripts --transport local --rollback "
                          "--node node-a",
                      dir_, env);
  EXPECT_EQ(back.code, 0) << back.out << back.err;
  EXPECT_EQ(back.out,
            "NODE    HOST       RESULT\n"
            "node-a  127.0.0.1  rolled back 3 settings\n"
            "1 node: 1 rolled back, 0 skipped, 0 failed, 0 unreachable\n");
  EXPECT_EQ(Slurp(root_ / "sys/class/net/ens1f0np0/ecn/roce_rp/rpg_gd"), rpg_gd);
  EXPECT_EQ(Slurp(root_ / "configfs/rdma_cm/mlx5_0/ports/1/default_roce_tos"), "0\n");
  RunResult none = Sh(RoceLint() +
                          " apply plan.json --scripts scripts --transport local --rollback "
                          "--concurrency 2",
                      dir_, env);
  EXPECT_EQ(none.code, 1) << none.out << none.err;  // node-b's precheck still fails
  EXPECT_THAT(none.out, HasSubstr("node-a  127.0.0.1  no backup\n"));
  // node-c changed one setting (its own backup) before its PFC step failed.
  EXPECT_THAT(none.out, HasSubstr("node-c  127.0.0.4  rolled back 1 setting\n"));
  EXPECT_THAT(none.out, HasSubstr("node-b  127.0.0.3  skipped: precheck:"));
  EXPECT_THAT(none.out,
              HasSubstr("4 nodes: 1 no script, 1 rolled back, 1 no backup, 1 skipped, 0 failed"));
}

TEST_F(BatchRun, UsageErrors) {
  struct {
    std::string args, message;
  } cases[] = {
      {"apply plan.json", "--scripts DIR is required"},
      {"apply plan.json --scripts nowhere", "no such directory: nowhere"},
      {"apply plan.json --scripts scripts --concurrency 0",
       "--concurrency \"0\": expected 1 to 1024"},
      {"apply plan.json --scripts scripts --transport rsh",
       "--transport \"rsh\": expected ssh or local"},
      {"apply plan.json --scripts scripts --ssh-command ssh",
       "--ssh-command must contain {host} or {node}"},
      {"apply plan.json --scripts scripts --node node-x", "no node \"node-x\""},
      {"apply plan.json --scripts scripts --dry-run --precheck-only", "exclude each other"},
      {"apply plan.json --scripts scripts --rollback --precheck-only", "exclude each other"},
  };
  for (const auto& c : cases) {
    RunResult r = Sh(RoceLint() + " " + c.args, dir_);
    EXPECT_EQ(r.code, 2) << c.args;
    EXPECT_THAT(r.err, HasSubstr(c.message)) << c.args;
  }
}

TEST_F(BatchRun, OverSshWithAnUnreachableNode) {
  if (auto why = LoopbackSshd::SkipReason(); !why.empty()) GTEST_SKIP() << why;
  fs::create_directories(dir_ / "ssh");
  LoopbackSshd sshd(dir_ / "ssh");
  ASSERT_TRUE(sshd.Accepts()) << "sshd did not start: " << sshd.Log();
  // node-d moves to 127.0.0.2, where nothing listens, and gets its script back.
  std::string plan = Slurp(dir_ / "plan.json");
  plan.replace(plan.find("127.0.0.5"), 9, "127.0.0.2");
  WriteText(dir_ / "plan.json", plan);
  ASSERT_EQ(Sh(RoceLint() + " fix plan.json --output-dir scripts", dir_).code, 0);
  // sshd gives the remote shell its own environment: the tree and the tools go on its command line.
  const std::string remote = "env " + EnvWords() + "sh -s --";
  RunResult r = Sh(RoceLint() + " apply plan.json --scripts scripts --ssh-command " +
                       Q(sshd.SshCommand()) + " --remote-shell " + Q(remote),
                   dir_);
  EXPECT_EQ(r.code, 1) << r.out << r.err << sshd.Log();
  const std::string ib = (root_ / "sys/class/infiniband").string();
  EXPECT_EQ(r.out,
            "NODE    HOST       RESULT\n"
            "node-a  127.0.0.1  changed 3 settings\n"
            "node-b  127.0.0.3  skipped: precheck: mlx5_9 not in " +
                ib +
                "; present: mlx5_0 mlx5_1 mlx5_2 mlx5_3\n"
                "node-c  127.0.0.4  failed: script exit 1: ens2f0np0: pfc 3 -> FAILED: cannot read "
                "it: Attribute read: "
                "Operation not supported (ens2f0np0 does not support this setting: no DCB or "
                "driver support)\n"
                "node-d  127.0.0.2  unreachable: ssh: connect to host 127.0.0.2 port " +
                std::to_string(sshd.port()) +
                ": Connection refused\n"
                "4 nodes: 1 changed, 1 skipped, 1 failed, 1 unreachable\n")
      << sshd.Log();
  EXPECT_EQ(Slurp(root_ / "sys/class/net/ens1f0np0/ecn/roce_rp/rpg_gd"), "11\n");
}

}  // namespace
}  // namespace rocewatch::fix_testing
