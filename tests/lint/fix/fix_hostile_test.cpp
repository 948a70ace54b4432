// Issue 13, items 1 and 4: hostile names in a plan never become commands, unit keys, udev rules
// or paths outside their directory. The renderers are called directly (as if the plan's
// validation had been bypassed) with the nastiest strings in every field, and what they write
// is read by its real consumer: bash runs the scripts in a sandbox whose every external command
// logs its argv (the log must equal that of a benign plan's script), shellcheck reads them,
// systemd-analyze verifies the unit; the CLI refuses the attacks of the issue at the plan.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "common/test_dir.h"
#include "fix_test_util.h"
#include "lint/fix/batch.h"
#include "lint/fix/commands.h"
#include "lint/fix/persist.h"
#include "lint/fix/script.h"
#include "lint/fix/target.h"
#include "lint/plan/load.h"
#include "rocewatch/strings.h"

namespace rocewatch::fix_testing {
namespace {

using namespace std::string_literals;
using ::testing::HasSubstr;
using ::testing::Not;
namespace fix = rocewatch::lint::fix;
namespace plan = rocewatch::lint::plan;

// Every payload that would run something names `pwned`: a command no PATH has (the sandbox logs
// it as NOTFOUND) or a file it would create.
std::vector<std::string> Payloads() {
  return {"c1\nid > pwned\n#",
          "roce\npwned_cmd\n#",
          "c\n[Service]\nExecStartPre=/bin/sh -c 'pwned_cmd'",
          "x\r\npwned_cmd\r\n#",
          "$(pwned_cmd)",
          "`pwned_cmd`",
          "'; pwned_cmd; '",
          "\"; pwned_cmd; \"",
          "a;pwned_cmd&&pwned_cmd|pwned_cmd",
          "trailing\\",
          "%n%z%%i",
          "nul\0pwned_cmd"s,
          "\x1b]0;pwned\x07\x1b[31m",
          "bad\xff\xfe",
          "\xc2\x85pwned_cmd",
          "rtl\xe2\x80\xae" "pwned",
          std::string(5000, 'A') + "\npwned_cmd\n",
          "-n",
          "*?[a]|\"$PATH\"",
          "$(IFS=x; pwned_cmd)\\\n"};
}

// gpu-01 of the example plan (the mlx5-roce fixture's node), its NICs' targets.
struct Rendered {
  plan::Node node;
  std::vector<fix::NicTarget> nics;
};

Rendered ExampleNode() {
  auto loaded = plan::LoadPlan(ExamplePlan());
  EXPECT_TRUE(loaded.ok());
  Rendered r;
  for (const auto& n : loaded->plan.nodes)
    if (n.name == "gpu-01") r.node = n;
  for (const auto& nic : r.node.nics)
    r.nics.push_back(fix::TargetFromProfile(nic, *loaded->plan.FindProfile(nic.profile)));
  return r;
}

// The lines a consumer reads as something other than a comment.
std::string NonCommentLines(const std::string& text) {
  std::string out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    auto at = line.find_first_not_of(" \t");
    if (at != std::string::npos && line[at] == '#') continue;
    out += line + "\n";
  }
  return out;
}

std::string Script(const Rendered& r, fix::Toolset tools, const std::string& cluster,
                   const std::string& plan_name) {
  fix::ScriptOptions o;
  o.tools = tools;
  o.cluster = cluster;
  o.plan_name = plan_name;
  auto s = fix::RenderScript(r.node, r.nics, o);
  EXPECT_TRUE(s.ok()) << s.error().message;
  return s.ok() ? *s : "";
}

// The --persist files (an empty set, and a test failure, should a template not fill).
fix::PersistFiles Persist(const plan::Node& node, const std::vector<fix::NicTarget>& nics,
                          const std::string& cluster) {
  auto files = fix::RenderPersistFiles(node, nics, cluster);
  EXPECT_TRUE(files.ok()) << files.error().message;
  return files.ok() ? *files : fix::PersistFiles{};
}

// The comment-only fields (cluster, plan file name, profile names) cannot change a line that is
// not a comment: the script, unit, udev rule and install.sh parse as the benign ones do.
TEST(HostileNames, CommentFieldsStayInsideTheirComments) {
  const Rendered benign = ExampleNode();
  for (auto tools : {fix::Toolset::kUpstream, fix::Toolset::kMlnx}) {
    const std::string want =
        NonCommentLines(Script(benign, tools, "gpu-cluster-a", "example-plan.json"));
    const fix::PersistFiles want_files = Persist(benign.node, benign.nics, "a");
    for (const auto& p : Payloads()) {
      Rendered hostile = benign;
      for (auto& t : hostile.nics) t.profile = p;
      const std::string script = Script(hostile, tools, p, p);
      EXPECT_EQ(NonCommentLines(script), want) << Quote(p);
      EXPECT_EQ(script.find('\0'), std::string::npos);
      EXPECT_EQ(script.find('\r'), std::string::npos);
      EXPECT_EQ(script.find('\x1b'), std::string::npos);
      const fix::PersistFiles files = Persist(hostile.node, hostile.nics, p);
      EXPECT_EQ(NonCommentLines(files.unit), NonCommentLines(want_files.unit)) << Quote(p);
      EXPECT_EQ(NonCommentLines(files.udev_rule), NonCommentLines(want_files.udev_rule));
      EXPECT_EQ(NonCommentLines(files.install_script), NonCommentLines(want_files.install_script));
    }
  }
}

// The keys of a systemd unit as systemd reads them: "[Section] Key" per assignment, with
// continuation lines (an odd number of trailing backslashes) joined.
std::vector<std::string> UnitKeys(const std::string& unit) {
  std::vector<std::string> keys;
  std::string section, pending;
  std::istringstream in(unit);
  for (std::string line; std::getline(in, line);) {
    std::size_t slashes = 0;
    while (slashes < line.size() && line[line.size() - 1 - slashes] == '\\') ++slashes;
    if (pending.empty() && (line.empty() || line[0] == '#' || line[0] == ';')) continue;
    pending += line;
    if (slashes % 2 == 1) continue;
    if (pending.front() == '[') {
      section = pending;
    } else {
      keys.push_back(section + " " + pending.substr(0, pending.find('=')));
    }
    pending.clear();
  }
  return keys;
}

// The node name reaches the unit's Description= and every comment of the three files (the
// renderers of --persist take it as it is): still the same keys, rules and commands.
TEST(HostileNames, NodeNameCannotAddUnitKeysOrUdevRules) {
  const Rendered benign = ExampleNode();
  const fix::PersistFiles want = Persist(benign.node, benign.nics, "a");
  for (const auto& p : Payloads()) {
    Rendered hostile = benign;
    hostile.node.name = p;
    const fix::PersistFiles files = Persist(hostile.node, hostile.nics, p);
    EXPECT_EQ(UnitKeys(files.unit), UnitKeys(want.unit)) << Quote(p);
    EXPECT_THAT(files.unit, Not(HasSubstr("\nExecStartPre")));
    EXPECT_EQ(NonCommentLines(files.udev_rule), NonCommentLines(want.udev_rule)) << Quote(p);
    EXPECT_EQ(NonCommentLines(files.install_script), NonCommentLines(want.install_script));
  }
  // Netdev and device names reach the udev match values and the device unit names.
  Rendered hostile = benign;
  hostile.nics[0].netdev = "e\"|*\n, RUN+=\"/bin/pwned\"";
  hostile.nics[0].ib_dev = "m%n\\\n[Service]";
  const fix::PersistFiles files = Persist(hostile.node, hostile.nics, "a");
  EXPECT_EQ(UnitKeys(files.unit), UnitKeys(want.unit));
  EXPECT_EQ(CountLines(files.udev_rule, "ACTION==") , 2);
  EXPECT_EQ(CountLines(files.udev_rule, "RUN+="), 2);
  EXPECT_THAT(files.udev_rule, Not(HasSubstr("pwned\"")));
}

// The renderers refuse, rather than quote, names they use as bare words and directories.
TEST(HostileNames, ScriptRefusesUnsafeDeviceNodeAndPortNames) {
  const Rendered benign = ExampleNode();
  for (const auto& p : Payloads()) {
    for (int field = 0; field < 5; ++field) {
      Rendered hostile = benign;
      if (field == 0) hostile.node.name = p;
      if (field == 1) hostile.nics[0].netdev = p;
      if (field == 2) hostile.nics[0].ib_dev = p;
      if (field == 3) hostile.nics[0].port = p;
      if (field == 4) hostile.nics[0].optional_counters = {"cc_rx_ce_pkts", p};
      auto s = fix::RenderScript(hostile.node, hostile.nics, {});
      ASSERT_FALSE(s.ok()) << Quote(p) << " field " << field;
      EXPECT_THAT(s.error().message, HasSubstr("cannot be used"));
      for (unsigned char c : s.error().message) EXPECT_GE(c, 0x20) << Quote(p);
    }
  }
  for (std::string bad : std::vector<std::string>{"../x", ".", "..", "-rf"}) {
    Rendered hostile = benign;
    hostile.node.name = bad;
    EXPECT_FALSE(fix::RenderScript(hostile.node, hostile.nics, {}).ok()) << bad;
  }
  // An optional counter is one item of rdma's comma list: no ',' (nor '.', ':').
  for (std::string bad : std::vector<std::string>{"a,b", "a.b", "a:b"}) {
    Rendered hostile = benign;
    hostile.nics[0].optional_counters = {bad};
    EXPECT_FALSE(fix::RenderScript(hostile.node, hostile.nics, {}).ok()) << bad;
  }
}

// The command builders quote every name themselves (commands.h is used without RenderScript).
TEST(HostileNames, CommandBuildersQuoteNames) {
  EXPECT_EQ(fix::SetMtu("a b;pwned", 9000), "ip link set dev 'a b;pwned' mtu 9000");
  EXPECT_EQ(fix::SetGlobalPauseOff("$(pwned)"), "ethtool -A '$(pwned)' autoneg off rx off tx off");
  EXPECT_EQ(fix::SetTrustPcp(fix::Toolset::kMlnx, "x'y"), "mlnx_qos -i 'x'\\''y' --trust pcp");
  EXPECT_EQ(fix::SetEcn(fix::ScriptRoots(), "e`x`", "np", 3, true),
            "echo 1 > \"$SYSFS\"'/class/net/e`x`/ecn/roce_np/enable/3'");
  EXPECT_EQ(fix::SetDcqcnParameter("e x", "rp", "rpg_gd", 11),
            "echo 11 > '/sys/class/net/e x/ecn/roce_rp/rpg_gd'");
  EXPECT_EQ(fix::SetCmRoceModeV2(fix::Toolset::kMlnx, "m;x", "1"), "cma_roce_mode -d 'm;x' -p 1 -m 2");
  EXPECT_EQ(fix::SetOptionalCounters("m x", "1;pwned", {"a$(b)", "c"}),
            "rdma statistic set link 'm x/1;pwned' optional-counters 'a$(b),c'");
  EXPECT_EQ(fix::SetOptionalCounters("mlx5_0", "1", {"cc_rx_ce_pkts", "cc_rx_cnp_pkts"}),
            "rdma statistic set link mlx5_0/1 optional-counters cc_rx_ce_pkts,cc_rx_cnp_pkts");
  // Plain names are left as they were (the goldens do not change).
  EXPECT_EQ(fix::SetMtu("ens1f0np0", 9000), "ip link set dev ens1f0np0 mtu 9000");
  EXPECT_EQ(fix::SetEcn(fix::ScriptRoots(), "ens1f0np0", "np", 3, true),
            "echo 1 > \"$SYSFS/class/net/ens1f0np0/ecn/roce_np/enable/3\"");
}

// bash runs the script --dry-run on the fixture tree with a PATH of wrappers that log every
// external command's argv, and a command_not_found_handle that logs what has no wrapper.
class Sandbox : public ::testing::Test {
 protected:
  void SetUp() override {
    CopyFixtureTree(root_);
    WriteText(root_ / "sys/module/mlx5_core/version", "24.04-0.6.6\n");
    FakeNetdev healthy;
    WriteFakeNetdev(state_, "ens1f0np0", healthy);
    WriteFakeNetdev(state_, "ens2f0np0", healthy);
    for (const char* dev : {"mlx5_0", "mlx5_1"})
      WriteFakeRdmaPort(state_, dev, "1", Mlx5OptionalCounters(), {});
    fs::create_directories(bin_);
    const std::string fake = FakeTools();
    for (std::string tool : std::vector<std::string>{"awk", "cat", "cut", "grep", "head", "id", "mkdir", "mv", "readlink",
                             "sed", "sort", "tr", "uname", "touch", "rm", "dcb", "ip", "ethtool",
                             "mlnx_qos", "cma_roce_mode", "cma_roce_tos", "rdma"}) {
      std::string real = fs::exists(fake + "/" + tool) ? fake + "/" + tool : "";
      for (const char* d : {"/usr/bin/", "/bin/"})
        if (real.empty() && fs::exists(std::string(d) + tool)) real = d + tool;
      ASSERT_FALSE(real.empty()) << tool;
      WriteText(bin_ / tool, "#!/bin/sh\nprintf '%s\\n' \"" + tool + " $*\" >>\"$ARGV_LOG\"\nexec " +
                                 Q(real) + " \"$@\"\n");
      fs::permissions(bin_ / tool, fs::perms::owner_all);
    }
    WriteText(dir_ / "bash_env",
              "command_not_found_handle() { printf 'NOTFOUND %s\\n' \"$*\" >>\"$ARGV_LOG\"; "
              "return 127; }\n");
  }

  // The argv log of one run (sorted: the members of a pipeline start in any order), and its
  // exit code.
  std::pair<std::string, int> Run(const std::string& script_text, const std::string& name) {
    WriteText(dir_ / name, script_text);
    const fs::path log = dir_ / (name + ".argv");
    auto env = FakeEnv(root_, state_);
    env["ARGV_LOG"] = log.string();
    env["BASH_ENV"] = (dir_ / "bash_env").string();
    RunResult r = Sh("PATH=" + Q(bin_.string()) + " /bin/bash " + Q(name) + " --dry-run", dir_, env);
    std::vector<std::string> lines;
    std::istringstream in(Slurp(log));
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    std::sort(lines.begin(), lines.end());
    std::string sorted;
    for (const auto& l : lines) sorted += l + "\n";
    return {sorted, r.code};
  }

  testing::TestDir tmp_;
  fs::path dir_ = tmp_.path();
  fs::path root_ = dir_ / "tree";
  fs::path state_ = dir_ / "state";
  fs::path bin_ = dir_ / "bin";
};

TEST_F(Sandbox, HostileScriptsRunExactlyTheBenignCommands) {
  const Rendered benign = ExampleNode();
  std::vector<std::string> scripts;
  for (auto tools : {fix::Toolset::kUpstream, fix::Toolset::kMlnx}) {
    const std::string tag = tools == fix::Toolset::kMlnx ? "mlnx" : "upstream";
    // The accepted versions are shell words of the precheck: every payload is one more
    // accepted version, beside the fixture's real ones (so the precheck passes and the
    // settings run too).
    Rendered b = benign, h = benign;
    for (auto& t : b.nics) {
      t.firmware = {"28.39.2048"};
      t.driver_version = {"24.04-0.6.6"};
      t.optional_counters = {"cc_rx_ce_pkts", "cc_rx_cnp_pkts"};
    }
    for (auto& t : h.nics) {
      t.optional_counters = {"cc_rx_ce_pkts", "cc_rx_cnp_pkts"};
      t.firmware = Payloads();
      t.firmware.push_back("28.39.2048");
      t.driver_version = Payloads();
      t.driver_version.push_back("24.04-0.6.6");
      t.profile = Payloads()[1];
    }
    auto [want, want_code] = Run(Script(b, tools, "gpu-cluster-a", "plan.json"), tag + ".benign.sh");
    const std::string hostile = Script(h, tools, Payloads()[0], Payloads()[2]);
    auto [got, got_code] = Run(hostile, tag + ".hostile.sh");
    EXPECT_EQ(want_code, 0) << want;
    EXPECT_EQ(got_code, want_code);
    EXPECT_THAT(want, HasSubstr("head -n 1")) << "the sandbox saw no tool at all";
    EXPECT_THAT(want, HasSubstr("rdma statistic mode link mlx5_1/1\n"));
    EXPECT_EQ(got, want) << tag;
    EXPECT_THAT(got, Not(HasSubstr("NOTFOUND")));
    EXPECT_THAT(got, Not(HasSubstr("pwned")));
    EXPECT_FALSE(fs::exists(dir_ / "pwned"));
    scripts.push_back((dir_ / (tag + ".hostile.sh")).string());
  }
  // The --persist install script with a hostile node name and cluster.
  Rendered h = benign;
  h.node.name = Payloads()[0];
  WriteText(dir_ / "install.sh", Persist(h.node, h.nics, Payloads()[2]).install_script);
  scripts.push_back((dir_ / "install.sh").string());
  for (const auto& s : scripts) {
    RunResult n = Sh("bash -n " + Q(s) + " && dash -n " + Q(s), dir_);
    EXPECT_EQ(n.code, 0) << s << ": " << n.err;
  }
  if (Sh("command -v shellcheck", dir_).code == 0) {
    std::string words;
    for (const auto& s : scripts) words += " " + Q(s);
    RunResult sc = Sh("shellcheck -s sh -f gcc" + words, dir_);
    EXPECT_EQ(sc.code, 0) << sc.out.substr(0, 4000);
  }
}

// systemd itself reads the unit of a hostile node name and cluster as it reads a benign one.
TEST(HostileNames, SystemdAnalyzeVerifiesTheUnitLikeABenignOne) {
  testing::TestDir tmp;
  if (Sh("command -v systemd-analyze", tmp.path()).code != 0)
    GTEST_SKIP() << "systemd-analyze is not installed";
  const Rendered benign = ExampleNode();
  Rendered hostile = benign;
  hostile.node.name = "n%z\\\n[Service]\nExecStartPre=/bin/pwned";
  std::string out[2];
  int i = 0;
  for (const Rendered* r : std::vector<const Rendered*>{&benign, &hostile}) {
    const fs::path dir = fs::path(tmp.path()) / std::to_string(i);
    WriteText(dir / fix::kUnitName,
              Persist(r->node, r->nics, r == &hostile ? "%z\\" : "a").unit);
    RunResult v = Sh("systemd-analyze verify --man=no ./" + std::string(fix::kUnitName) + " 2>&1", dir);
    out[i++] = v.out;
  }
  EXPECT_EQ(out[1], out[0]);
  EXPECT_THAT(out[1], Not(HasSubstr("specifier")));
  EXPECT_THAT(out[1], Not(HasSubstr("Unknown")));
}

// The attacks of issue 13 through the CLI: the plan check names the field and the node, and
// neither fix nor apply runs on such a plan.
class HostilePlanCli : public ::testing::Test {
 protected:
  std::string Plan(const std::string& cluster, const std::string& profile, const std::string& node,
                   const std::string& netdev = "ens1f0np0") {
    auto j = [](const std::string& s) {
      std::string out = "\"";
      for (unsigned char c : s) {
        char buf[8];
        if (c == '"' || c == '\\') {
          out += '\\';
          out += static_cast<char>(c);
        } else if (c < 0x20) {
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
      }
      return out + "\"";
    };
    return "{\"cluster\": " + j(cluster) + ", \"profiles\": {" + j(profile) +
           ": {\"netdev_mtu\": 9000}}, \"nodes\": [{\"name\": " + j(node) +
           ", \"management_ip\": \"10.0.0.1\", \"nics\": [{\"ib_dev\": \"mlx5_0\", \"netdev\": " +
           j(netdev) + ", \"profile\": " + j(profile) + ", \"roce_ip\": \"10.1.0.1/24\"}]}]}";
  }
  testing::TestDir tmp_;
  fs::path dir_ = tmp_.path();
};

TEST_F(HostilePlanCli, IssueAttacksAreRefusedAtThePlan) {
  struct Attack {
    std::string cluster, profile, node, netdev, field;
  } attacks[] = {
      {"c1\nid > /tmp/x\n#", "roce", "gpu-01", "ens1f0np0", "cluster"},
      {"c1", "roce\ntouch /tmp/x\n#", "gpu-01", "ens1f0np0", "profile name"},
      {"c1\n[Service]\nExecStartPre=/bin/touch /tmp/x", "roce", "gpu-01", "ens1f0np0", "cluster"},
      {"c1", "roce", "../outside", "ens1f0np0", "node name of nodes[0]"},
      {"c1", "roce", "gpu-03\ngpu-99: passed (8 NICs)", "ens1f0np0", "node name of nodes[0]"},
      {"c1", "roce", "gpu-01", "eth0/../x", "netdev of nics[0] of nodes[0]"},
      {"c1", "roce", "gpu-01", "a-very-long-netdev", "netdev of nics[0] of nodes[0]"},
  };
  for (const auto& a : attacks) {
    WriteText(dir_ / "plan.json", Plan(a.cluster, a.profile, a.node, a.netdev));
    RunResult p = Sh(RoceLint() + " plan plan.json", dir_);
    EXPECT_EQ(p.code, 1) << p.out << p.err;
    EXPECT_THAT(p.out, HasSubstr("[plan.invalid-name]"));
    EXPECT_THAT(p.out, HasSubstr(a.field));
    EXPECT_EQ(CountLines(p.out, ""), 2) << "one finding and the summary:\n" << p.out;
    RunResult f = Sh(RoceLint() + " fix plan.json --output-dir out --persist", dir_);
    EXPECT_EQ(f.code, 2) << f.out << f.err;
    EXPECT_THAT(f.err, HasSubstr("the plan has errors"));
    EXPECT_FALSE(fs::exists(dir_ / "out"));
    fs::create_directories(dir_ / "scripts");
    RunResult ap = Sh(RoceLint() + " apply plan.json --scripts scripts --transport local", dir_);
    EXPECT_EQ(ap.code, 2) << ap.out << ap.err;
    EXPECT_THAT(ap.err, HasSubstr("plan.json"));
    EXPECT_THAT(ap.err, Not(HasSubstr("\x1b")));
  }
}

// roce-lint's standard error goes through the terminal-text escape: an error message quoting a
// file name with ESC, BEL and a carriage return reaches the terminal escaped.
TEST_F(HostilePlanCli, StandardErrorCarriesNoTerminalControls) {
  RunResult r = Sh(RoceLint() + " plan " + Q("no-such-\x1b[2J\x1b]0;owned\x07\r.json"), dir_);
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("no-such-\\x1b[2J\\x1b]0;owned\\x07\\r.json"));
  for (unsigned char c : r.err) EXPECT_TRUE(c == '\n' || (c >= 0x20 && c != 0x7f)) << int(c);
}

// Item 4: the batch runner itself (without the plan check) never reads a script from outside
// --scripts nor writes a log outside --log-dir.
TEST(HostileNames, BatchRunnerKeepsNodeNamesInsideItsDirectories) {
  testing::TestDir tmp;
  const fs::path dir = tmp.path();
  // A script outside --scripts that would leave a mark if it ran.
  WriteText(dir / "outside/rocewatch-roce-config.sh", "touch " + Q((dir / "ran").string()) + "\n");
  fs::create_directories(dir / "scripts/x");
  std::vector<plan::Node> nodes;
  for (std::string name : std::vector<std::string>{"../outside", "..", ".", "x/../../outside", "a\nb", "nul\0x"s, ""}) {
    plan::Node n;
    n.name = name;
    n.management_ip = "127.0.0.1";
    nodes.push_back(n);
  }
  std::vector<const plan::Node*> ptrs;
  for (const auto& n : nodes) ptrs.push_back(&n);
  fix::BatchOptions o;
  o.scripts_dir = (dir / "scripts").string();
  o.log_dir = (dir / "logs/inner").string();
  o.transport = fix::BatchOptions::Transport::kLocal;
  auto results = fix::RunBatch(ptrs, o);
  ASSERT_EQ(results.size(), nodes.size());
  for (const auto& r : results) {
    EXPECT_EQ(r.outcome, fix::Outcome::kFailed) << Quote(r.node);
    EXPECT_THAT(r.detail, HasSubstr("cannot be a directory name")) << Quote(r.node);
  }
  EXPECT_FALSE(fs::exists(dir / "ran"));
  EXPECT_FALSE(fs::exists(dir / "logs/outside.log"));
  EXPECT_FALSE(fs::exists(dir / "logs/inner/...log"));
  // The summary table keeps one row per node.
  std::ostringstream table;
  fix::WriteSummaryTable(table, results);
  EXPECT_EQ(CountLines(table.str(), ""), static_cast<int>(nodes.size()) + 2) << table.str();
  EXPECT_EQ(table.str().find('\0'), std::string::npos);
}

}  // namespace
}  // namespace rocewatch::fix_testing
