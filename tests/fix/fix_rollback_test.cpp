// The backup and --rollback of the rendered scripts, run against a writable copy of the mlx5-roce
// fixture tree (sysfs, configfs) with the stand-in tools of tests/fix/fake-tools: apply, then
// roll back, and every byte of the tree and of the tools' state is as it was; a script killed
// between two steps still rolls back what it changed; values read stay literal in the backup and
// the restore; an unrestored backup of another plan stops an apply; install.sh's files are
// removed or put back. Applying needs root (the scripts' precheck asks for it).

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/test_dir.h"
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
    // The tools' state as a freshly booted node shows it: PFC off, no DSCP entries, MTU 1500.
    for (const auto& nic : node.at("nics"))
      WriteFakeNetdev(nodes / name / "state", nic.at("netdev").get<std::string>(), {});
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
  EXPECT_THAT(apply.out, HasSubstr("\n12 nodes: 10 changed, 2 skipped, 0 failed, 0 unreachable\n"))
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
              HasSubstr("\n12 nodes: 10 rolled back, 2 skipped, 0 failed, 0 unreachable\n"))
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
