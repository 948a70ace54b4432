// roce-lint verify's parts without a network: pairing and rounds, the --pairs file as hostile
// input, the GID of an address, the node script run by /bin/sh against the demo capture's real
// sysfs layout (the GID index perftest gets) and with hostile names, the judge's verdicts on a
// recorded real perftest output with counters that move, and the three report formats.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "../english_runs.h"
#include "common/test_dir.h"
#include "lint/fix/process.h"
#include "lint/plan/load.h"
#include "lint/verify/judge.h"
#include "lint/verify/pair_log.h"
#include "lint/verify/pairs.h"
#include "lint/verify/remote_script.h"
#include "lint/verify/report.h"
#include "rocewatch/read_file.h"

namespace rocewatch::lint::verify {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

std::string Repo() { return std::string(ROCEWATCH_TEST_DATA) + "/.."; }

plan::Plan LoadOrDie(const std::string& text) {
  auto loaded = plan::LoadPlanText(text, "plan.json");
  EXPECT_TRUE(loaded.ok());
  return loaded->plan;
}

// Five nodes on rail 0 (one NIC each), two of them with a second NIC on rail 1, one NIC without
// a rail.
const char* kPlan = R"({"cluster": "t", "profiles": {"p": {"link_speed_gbps": 400, "pfc_priorities": [3],
  "roce_dscp": 26, "roce_mtu": 4096, "verify": {"min_bandwidth_fraction": 0.95, "queue_pairs": 2}}},
  "nodes": [
   {"name": "n1", "management_ip": "127.0.0.1", "nics": [
     {"ib_dev": "mlx5_0", "netdev": "e0", "profile": "p", "roce_ip": "10.10.0.1/24", "rail": 0},
     {"ib_dev": "mlx5_1", "netdev": "e1", "profile": "p", "roce_ip": "10.11.0.1/24", "rail": 1}]},
   {"name": "n2", "management_ip": "127.0.0.2", "nics": [
     {"ib_dev": "mlx5_0", "netdev": "e0", "profile": "p", "roce_ip": "10.10.0.2/24", "rail": 0},
     {"ib_dev": "mlx5_1", "netdev": "e1", "profile": "p", "roce_ip": "10.11.0.2/24", "rail": 1}]},
   {"name": "n3", "management_ip": "127.0.0.3", "nics": [
     {"ib_dev": "mlx5_0", "netdev": "e0", "profile": "p", "roce_ip": "10.10.0.3/24", "rail": 0}]},
   {"name": "n4", "management_ip": "127.0.0.4", "nics": [
     {"ib_dev": "mlx5_0", "netdev": "e0", "profile": "p", "roce_ip": "10.10.0.4/24", "rail": 0},
     {"ib_dev": "mlx5_2", "netdev": "e2", "profile": "p", "roce_ip": "10.12.0.4/24"}]},
   {"name": "n5", "management_ip": "127.0.0.5", "nics": [
     {"ib_dev": "mlx5_0", "netdev": "e0", "profile": "p", "roce_ip": "10.10.0.5/24", "rail": 0}]}]})";

std::vector<std::string> Names(const plan::Plan& plan, const std::vector<Pair>& pairs) {
  std::vector<std::string> out;
  for (const auto& p : pairs) out.push_back(PairName(plan, p));
  return out;
}

// No NIC twice in one round, and every pair in exactly one round.
void ExpectValidRounds(const std::vector<Pair>& pairs, const std::vector<std::vector<Pair>>& rounds) {
  std::size_t n = 0;
  for (const auto& round : rounds) {
    std::set<std::pair<std::size_t, std::size_t>> busy;
    for (const auto& p : round) {
      EXPECT_TRUE(busy.insert({p.server.node, p.server.nic}).second);
      EXPECT_TRUE(busy.insert({p.client.node, p.client.nic}).second);
      ++n;
    }
  }
  EXPECT_EQ(n, pairs.size());
}

TEST(VerifyPairs, RailPairsEveryNicWithAPartnerInRounds) {
  plan::Plan plan = LoadOrDie(kPlan);
  std::vector<std::string> unpaired;
  auto pairs = PairsFromPlan(plan, PairMode::kRail, &unpaired);
  EXPECT_THAT(Names(plan, pairs),
              ::testing::ElementsAre("n2/mlx5_0 -> n1/mlx5_0", "n4/mlx5_0 -> n3/mlx5_0",
                                     "n5/mlx5_0 -> n1/mlx5_0", "n2/mlx5_1 -> n1/mlx5_1"));
  EXPECT_THAT(unpaired, ::testing::ElementsAre("n4/mlx5_2: no rail in the plan"));
  auto rounds = ScheduleRounds(pairs);
  ExpectValidRounds(pairs, rounds);
  ASSERT_EQ(rounds.size(), 2u);  // n1/mlx5_0 is in two tests: the odd one out waits a round
  EXPECT_EQ(rounds[0].size(), 3u);
  EXPECT_EQ(PairName(plan, rounds[1][0]), "n5/mlx5_0 -> n1/mlx5_0");
  EXPECT_EQ(pairs[0].origin, "rail 0");
  EXPECT_EQ(pairs[0].rail, 0);
}

TEST(VerifyPairs, AllPairsOfARail) {
  plan::Plan plan = LoadOrDie(kPlan);
  auto pairs = PairsFromPlan(plan, PairMode::kAll);
  EXPECT_EQ(pairs.size(), 10u + 1u);  // 5·4/2 on rail 0, 1 on rail 1
  auto rounds = ScheduleRounds(pairs);
  ExpectValidRounds(pairs, rounds);
  EXPECT_LE(rounds.size(), 7u);  // greedy; a perfect schedule of 5 needs 5 rounds of 2
}

TEST(VerifyPairs, PairsFileWithLineNumberedErrors) {
  plan::Plan plan = LoadOrDie(kPlan);
  auto ok = ParsePairsFile("# server client\nn3 n5\n  n1/mlx5_1\tn2/mlx5_1  # rail 1\n\n", "pairs.txt", plan);
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_THAT(Names(plan, *ok), ::testing::ElementsAre("n5/mlx5_0 -> n3/mlx5_0", "n2/mlx5_1 -> n1/mlx5_1"));
  EXPECT_EQ((*ok)[1].origin, "pairs.txt:3");

  auto bad = ParsePairsFile(
      "n1/mlx5_0 n6\n"                 // 1: no such node
      "n1 n2\n"                        // 2: n1 has two NICs
      "n3 n3\n"                        // 3: itself
      "n1/mlx5_9 n2/mlx5_0\n"          // 4: no such NIC
      "n3 n4 n5\n"                     // 5: three words
      "n3\x1b[2J $(reboot) n4\n"       // 6: hostile bytes
      + std::string(5000, 'x') + "\n",  // 7: too long
      "pairs.txt", plan);
  ASSERT_FALSE(bad.ok());
  const std::string& m = bad.error().message;
  EXPECT_THAT(m, HasSubstr("pairs.txt:1: no node \"n6\" in the plan"));
  EXPECT_THAT(m, HasSubstr("pairs.txt:2: node \"n1\" has 2 NICs; say which: n1/IBDEV"));
  EXPECT_THAT(m, HasSubstr("pairs.txt:3: n3/mlx5_0 cannot be tested against itself"));
  EXPECT_THAT(m, HasSubstr("pairs.txt:4: node \"n1\" has no NIC \"mlx5_9\" in the plan; did you mean \"mlx5_0\"?"));
  EXPECT_THAT(m, HasSubstr("pairs.txt:5: expected two NICs"));
  EXPECT_THAT(m, HasSubstr("pairs.txt:6: expected two NICs"));
  EXPECT_THAT(m, HasSubstr("pairs.txt:7: a line of 5000 bytes"));
  EXPECT_EQ(m.find('\x1b'), std::string::npos);
  EXPECT_FALSE(ParsePairsFile("# nothing\n", "p", plan).ok());
  EXPECT_FALSE(ParsePairsFile(std::string(5u << 20, '#'), "p", plan).ok());
}

TEST(VerifyScript, GidOfAddress) {
  auto v4 = plan::ParseIpAddress("10.10.0.1");
  ASSERT_TRUE(v4.ok());
  EXPECT_EQ(GidOfAddress(*v4), "0000:0000:0000:0000:0000:ffff:0a0a:0001");
  auto v6 = plan::ParseIpAddress("fd00:1::b");
  ASSERT_TRUE(v6.ok());
  EXPECT_EQ(GidOfAddress(*v6), "fd00:0001:0000:0000:0000:0000:0000:000b");
}

struct ScriptRun {
  int code;
  std::string output;
};

ScriptRun RunScript(const Result<std::string>& script, const std::string& env, const fs::path& dir) {
  if (!script) {
    ADD_FAILURE() << script.error().message;
    return {-1, ""};
  }
  fs::path path = dir / "script.sh";
  std::ofstream(path) << *script;
  auto p = fix::RunShellCommand(env + " sh -s --", path.string(), 30);
  return {p.exit_code, p.output};
}

// The demo capture of gpu-01 is laid out as a real node's sysfs (class/infiniband/mlx5_0 is a
// link into the PCI device): GIDs 2 and 3 both carry 10.10.0.1, as RoCE v1 and v2; perftest
// must get 3.
TEST(VerifyScript, FindsTheRoceV2GidIndexInARealLayoutAndRunsTheTool) {
  testing::TestDir tmp;
  const std::string sys = Repo() + "/examples/demo/nodes/gpu-01/sys";
  fs::path bin = fs::path(tmp.path()) / "bin";
  fs::create_directories(bin);
  // A tool that prints the arguments it was given, one a line.
  std::ofstream(bin / "ib_write_bw") << "#!/bin/sh\nfor a in \"$@\"; do echo \"arg:$a\"; done\n";
  fs::permissions(bin / "ib_write_bw", fs::perms::owner_all);
  PerftestInvocation r;
  r.ib_dev = "mlx5_0";
  r.gid = "0000:0000:0000:0000:0000:ffff:0a0a:0001";
  r.server_address = "10.10.0.2";
  r.traffic_class = 106;
  r.mtu = 4096;
  r.queue_pairs = 2;
  r.duration_seconds = 5;
  r.pid_file = (fs::path(tmp.path()) / "pid").string();
  const std::string env = "env PATH=" + bin.string() + ":/usr/bin:/bin ROCEWATCH_SYSFS=" + sys;
  ScriptRun run = RunScript(PerftestScript(r), env, fs::path(tmp.path()));
  EXPECT_EQ(run.code, 0) << run.output;
  EXPECT_THAT(run.output, HasSubstr("rocewatch-verify: gid_index=3\n"));
  EXPECT_THAT(run.output, HasSubstr("arg:-x\narg:3\narg:-d\narg:mlx5_0\narg:-i\narg:1\narg:-p\narg:18515\n"
                                    "arg:-F\narg:--report_gbits\narg:-s\narg:65536\narg:-q\narg:2\narg:-D\narg:5\n"
                                    "arg:--tclass=106\narg:-m\narg:4096\narg:10.10.0.2\n"));
  EXPECT_FALSE(fs::exists(r.pid_file));  // removed when perftest ended

  // An address the NIC does not carry, a device the node lacks, a tool not installed.
  r.gid = "0000:0000:0000:0000:0000:ffff:0a0a:0063";
  run = RunScript(PerftestScript(r), env, fs::path(tmp.path()));
  EXPECT_EQ(run.code, kExitNoGid);
  EXPECT_THAT(run.output, HasSubstr("mlx5_0 has no RoCE v2 GID for 0000:0000:0000:0000:0000:ffff:0a0a:0063"));
  r.ib_dev = "mlx5_7";
  run = RunScript(PerftestScript(r), env, fs::path(tmp.path()));
  EXPECT_EQ(run.code, kExitNoGid);
  EXPECT_THAT(run.output, HasSubstr("no RDMA device mlx5_7 here"));
  r.ib_dev = "mlx5_0";
  r.gid = "0000:0000:0000:0000:0000:ffff:0a0a:0001";
  r.tool = "ib_nowhere_bw";
  run = RunScript(PerftestScript(r), env, fs::path(tmp.path()));
  EXPECT_EQ(run.code, kExitNoTool);
  EXPECT_THAT(run.output, HasSubstr("ib_nowhere_bw is not installed"));
}

TEST(VerifyScript, HostileNamesStayOneWord) {
  testing::TestDir tmp;
  PerftestInvocation r;
  r.ib_dev = "x'; touch pwned; echo '$(touch pwned2)`touch pwned3`\nmlx5_0";
  r.gid = "$(touch pwned4)";
  r.server_address = "10.0.0.1; touch pwned5";
  r.pid_file = (fs::path(tmp.path()) / "p'id $(touch pwned6)").string();
  ScriptRun run = RunScript(PerftestScript(r), "cd " + fs::path(tmp.path()).string() + " &&", fs::path(tmp.path()));
  EXPECT_EQ(run.code, kExitNoGid) << run.output;
  run = RunScript(CleanupScript(r.pid_file), "cd " + fs::path(tmp.path()).string() + " &&", fs::path(tmp.path()));
  EXPECT_EQ(run.code, 0) << run.output;
  for (int i = 1; i <= 6; ++i) EXPECT_FALSE(fs::exists(fs::path(tmp.path()) / ("pwned" + std::to_string(i)))) << i;
}

TEST(VerifyScript, CleanupStopsARunningServer) {
  testing::TestDir tmp;
  const std::string pid_file = (fs::path(tmp.path()) / "srv.pid").string();
  // What PerftestScript leaves while perftest runs: its pid in the file.
  auto p = fix::RunShellCommand("sleep 300 & echo $! > '" + pid_file + "'; echo started", "", 10);
  ASSERT_EQ(p.exit_code, 0);
  ScriptRun run = RunScript(CleanupScript(pid_file), "", fs::path(tmp.path()));
  EXPECT_EQ(run.code, 0);
  EXPECT_THAT(run.output, HasSubstr("rocewatch-verify: stopped "));
  EXPECT_FALSE(fs::exists(pid_file));
  // Nothing left to stop: still fine.
  EXPECT_EQ(RunScript(CleanupScript(pid_file), "", fs::path(tmp.path())).code, 0);
}

NicCounters Moving(double pause_seconds_tx3, double retrans, double discards, double window = 10) {
  NicCounters c;
  c.observed = true;
  c.window_seconds = window;
  c.pause_seconds["rx 3"] = 0.02;
  c.pause_seconds["tx 3"] = pause_seconds_tx3;
  c.pause_frames["rx 3"] = 400;
  c.transport_counted = true;
  if (retrans > 0) c.transport_errors["out_of_sequence"] = retrans;
  c.discards = discards;
  return c;
}

// One pair of kPlan's rail 0 as Judge sees it: perftest ran, both sides' counters quiet; a test
// sets the client's output (a real one, RealOutput) and what it tests.
struct RanPair {
  plan::Plan plan = LoadOrDie(kPlan);
  PerftestRun run;
  JudgeInput in;
  RanPair() {
    run.outcome = PerftestRun::Outcome::kRan;
    in.plan = &plan;
    in.pair = PairsFromPlan(plan, PairMode::kRail).at(0);
    in.round = 1;
    in.thresholds = ThresholdsFor(plan.profiles.at("p"));
    in.tool = "ib_write_bw";
    in.run = &run;
    in.server_counters = Moving(0.1, 0, 0);
    in.client_counters = Moving(0.1, 0, 0);
  }
  RanPair(const RanPair&) = delete;
  RanPair& operator=(const RanPair&) = delete;
};

// A fixture of tests/fixtures/real/perftest/, by its path there.
std::string RealOutput(const std::string& name) {
  auto text = ReadFileCapped(std::string(ROCEWATCH_TEST_DATA) + "/fixtures/real/perftest/" + name, 1 << 20);
  EXPECT_TRUE(text.ok()) << name;
  return text.ok() ? *text : std::string();
}

TEST(VerifyJudge, RealOutputAndCountersGiveVerdictsWithNumbers) {
  RanPair pair;
  JudgeInput& in = pair.in;
  const std::string text = RealOutput("ib-gpu-blog-write-bw-gbits-ib.txt");
  in.client_output = ParsePerftestOutput(text);
  PairResult ok = Judge(in);
  EXPECT_EQ(ok.status, PairStatus::kPass);
  ASSERT_TRUE(ok.bandwidth_gbps);
  EXPECT_NEAR(*ok.bandwidth_gbps, 392.34, 1e-6);
  EXPECT_EQ(ok.verdicts[0].check, "verify.bandwidth");
  EXPECT_EQ(ok.verdicts[0].expected, ">= 380 Gb/s (95% of 400)");  // the profile's 0.95

  // The client paused 70 % of the test, retransmits and discards; priority 5 (no PFC) paused.
  NicCounters bad = Moving(7, 250, 30);
  bad.pause_frames["tx 5"] = 12;
  in.client_counters = bad;
  PairResult r = Judge(in);
  EXPECT_EQ(r.status, PairStatus::kFail);
  std::map<std::string, const Verdict*> failed;
  for (const auto& v : r.verdicts)
    if (!v.passed) failed[v.check] = &v;
  ASSERT_TRUE(failed.count("verify.pause-duration"));
  EXPECT_EQ(failed["verify.pause-duration"]->nic, "n2/mlx5_0 (e0)");
  EXPECT_EQ(failed["verify.pause-duration"]->found, "70%");
  EXPECT_THAT(failed["verify.pause-duration"]->message, HasSubstr("tx priority 3 paused 70% of the 10 s test, 14x the limit of 5%"));
  ASSERT_TRUE(failed.count("verify.retransmissions"));
  EXPECT_EQ(failed["verify.retransmissions"]->found, "25/s");
  EXPECT_THAT(failed["verify.retransmissions"]->message, HasSubstr("out_of_sequence +250"));
  ASSERT_TRUE(failed.count("verify.discards"));
  EXPECT_EQ(failed["verify.discards"]->found, "30");
  ASSERT_TRUE(failed.count("verify.pause-non-pfc"));
  EXPECT_THAT(failed["verify.pause-non-pfc"]->counter, HasSubstr("priority=\"5\""));
  EXPECT_EQ(failed.count("verify.bandwidth"), 0u);

  // A 92 Gb/s run on the 400G profile: short by 288 Gb/s.
  in.client_output = ParsePerftestOutput(RealOutput("nvidia-gpu-operator-write-bw-a-gbits.txt"));
  in.client_counters = Moving(0.1, 0, 0);
  PairResult s = Judge(in);
  EXPECT_EQ(s.status, PairStatus::kFail);
  EXPECT_THAT(s.verdicts[0].message, HasSubstr("92.39 Gb/s average, 23.1% of the 400 Gb/s line rate, 287.6 Gb/s short of 95%"));

  // An exporter that did not answer: the pair proves nothing about its counters.
  NicCounters gone;
  gone.error = "connection refused";
  in.client_output = ParsePerftestOutput(text);
  in.server_counters = gone;
  PairResult g = Judge(in);
  EXPECT_EQ(g.status, PairStatus::kFail);
  EXPECT_EQ(g.verdicts[1].check, "verify.counters");
  EXPECT_THAT(g.verdicts[1].message, HasSubstr("connection refused"));
}

// Debian's perftest on rxe under a loaded TCG guest could not calibrate its cycle clock and,
// under -F, printed a row of zeros: the pair is an ERROR that says why, never a FAIL of 0 Gb/s.
TEST(VerifyJudge, UncalibratedClockIsAnErrorNotAZeroBandwidth) {
  RanPair pair;
  pair.in.client_output =
      ParsePerftestOutput(RealOutput("debian-4.5-0.17-rxe-tcg-uncalibrated/ib_write_bw-client.txt"));
  PairResult r = Judge(pair.in);
  EXPECT_EQ(r.status, PairStatus::kError);
  EXPECT_FALSE(r.bandwidth_gbps);
  EXPECT_NE(r.detail.find("cycle clock could not be calibrated (Correlation coefficient r^2: 0.610864 < 0.9)"),
            std::string::npos)
      << r.detail;
}

// A bandwidth the link cannot carry ("1e308" Gb/s is inf bits per second once scaled), inf or
// nan: the row is malformed, and the pair is an ERROR that says so, never a PASS.
TEST(VerifyJudge, ImplausibleOrNonFiniteBandwidthIsRefusedAsMalformed) {
  RanPair pair;
  JudgeInput& in = pair.in;
  const std::string text = RealOutput("ib-gpu-blog-write-bw-gbits-ib.txt");
  const std::string row = "392.38             392.34";
  ASSERT_NE(text.find(row), std::string::npos);
  for (const std::string bad : {"1e308", "inf", "nan", "-392.34", "2e6"}) {
    std::string hostile = text;
    hostile.replace(hostile.find(row), row.size(), "392.38             " + bad);
    in.client_output = ParsePerftestOutput(hostile);
    ASSERT_TRUE(in.client_output->ok()) << bad;
    EXPECT_TRUE((*in.client_output)->bandwidth.empty()) << bad;
    PairResult r = Judge(in);
    EXPECT_EQ(r.status, PairStatus::kError) << bad;
    EXPECT_THAT(r.detail,
                HasSubstr("line 23: perftest printed a value that is not a finite number (or is "
                          "negative, or above 1e15 in its base unit): a malformed result row"))
        << bad;
    EXPECT_FALSE(r.bandwidth_gbps) << bad;
  }
  // 2e5 Gb/s (200 Tb/s) is below the bound: parsed, and judged as a number.
  std::string big = text;
  big.replace(big.find(row), row.size(), "392.38             2e5");
  in.client_output = ParsePerftestOutput(big);
  PairResult r = Judge(in);
  ASSERT_TRUE(r.bandwidth_gbps);
  EXPECT_DOUBLE_EQ(*r.bandwidth_gbps, 2e5);
}

// What the remote side prints reaches the log inert: no ESC, BEL or CR survives, and a remote
// "# result:" line cannot pass for ours (it is indented).
TEST(VerifyLog, RemoteOutputIsEscapedAndCannotForgeAResultLine) {
  plan::Plan plan = LoadOrDie(kPlan);
  auto pairs = PairsFromPlan(plan, PairMode::kRail);
  PerftestRun run;
  run.outcome = PerftestRun::Outcome::kFailed;
  run.detail = "client exit 1: \x1b]0;owned\x07";
  run.server.command = "ib_write_bw -d mlx5_0";
  run.server.process.output =
      "\x1b[2J\x1b[Hserver ok\r# result: PASS 400 Gb/s\n\x07"
      "bell\n";
  run.client.command = "ib_write_bw 10.0.0.1\x1b[1A";
  run.client.process.output = "# result: PASS\n";
  run.cleanup_output = "killed\rrewritten";
  JudgeInput in;
  in.plan = &plan;
  in.pair = pairs[0];
  in.round = 1;
  in.thresholds = ThresholdsFor(plan.profiles.at("p"));
  in.tool = "ib_write_bw";
  in.run = &run;
  PairResult r = Judge(in);
  ASSERT_EQ(r.status, PairStatus::kError);
  const std::string log = PairLogText(r);
  for (char c : log) {
    const auto u = static_cast<unsigned char>(c);
    EXPECT_TRUE(u == '\n' || (u >= 0x20 && u != 0x7f)) << "control byte " << int(u) << " in\n"
                                                       << log;
  }
  std::vector<std::string> lines;
  std::istringstream in_lines(log);
  for (std::string line; std::getline(in_lines, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 8u) << log;
  EXPECT_EQ(lines[0], "# " + r.name);
  EXPECT_EQ(lines[1], "$ ib_write_bw -d mlx5_0   # server");
  EXPECT_EQ(lines[2], "  \\x1b[2J\\x1b[Hserver ok\\r# result: PASS 400 Gb/s");
  EXPECT_EQ(lines[3], "  \\x07bell");
  EXPECT_EQ(lines[4], "$ ib_write_bw 10.0.0.1\\x1b[1A   # client");
  EXPECT_EQ(lines[5], "  # result: PASS");
  EXPECT_EQ(lines[6], "  killed\\rrewritten");
  EXPECT_EQ(lines[7], "# result: ERROR client exit 1: \\x1b]0;owned\\x07");
  std::size_t ours = 0;
  for (const auto& line : lines) ours += line.rfind("# result:", 0) == 0 ? 1 : 0;
  EXPECT_EQ(ours, 1u);
}

TEST(VerifyJudge, DeviceMissingOutputIsAnErrorWithPerftestsWords) {
  auto text = ReadFileCapped(std::string(ROCEWATCH_TEST_DATA) + "/fixtures/real/perftest/debian-4.5-0.17-no-device/ib_write_bw.txt", 1 << 20);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(FailureLine(*text), "Unable to find the Infiniband/RoCE device");
  EXPECT_EQ(FailureLine("rocewatch-verify: gid_index=3\nrocewatch-verify: error: ib_write_bw is not installed\n"),
            "ib_write_bw is not installed");
}

TEST(VerifyReport, TextJsonJUnit) {
  plan::Plan plan = LoadOrDie(kPlan);
  std::vector<PairResult> results(3);
  results[0].name = "n2/mlx5_0 -> n1/mlx5_0";
  results[0].status = PairStatus::kPass;
  results[0].bandwidth_gbps = 392.34;
  results[0].line_rate_gbps = 400;
  results[0].round = 1;
  results[1].name = "n4/mlx5_0 -> n3/<b>&\"x\x1b";
  results[1].status = PairStatus::kFail;
  results[1].round = 1;
  results[1].verdicts.push_back({"verify.discards", false, "n4/mlx5_0 (e0)", "c", "<= 0", "30", "n4 discarded 30"});
  results[2].name = "n5/mlx5_0 -> n1/mlx5_0";
  results[2].status = PairStatus::kUnreachable;
  results[2].detail = "n5 (127.0.0.5): ssh: connect to host 127.0.0.5 port 22: No route to host";
  results[2].round = 2;
  VerifyRunInfo info{"plan.json", "ib_write_bw", 60, {}};
  std::ostringstream text;
  WriteVerifyText(text, results, info, report::Language::kEnglish);
  EXPECT_THAT(text.str(), HasSubstr("n2/mlx5_0 -> n1/mlx5_0      1      PASS         392.3 (98.1%)  -       -       -\n"));
  EXPECT_THAT(text.str(), HasSubstr("3 pairs: 1 PASS, 1 FAIL, 0 ERROR, 1 UNREACHABLE (ib_write_bw, 60 s)"));
  EXPECT_THAT(text.str(), HasSubstr("[verify.discards] n4 discarded 30"));
  EXPECT_EQ(text.str().find('\x1b'), std::string::npos);
  std::ostringstream zh;
  WriteVerifyText(zh, results, info, report::Language::kChinese);
  EXPECT_THAT(zh.str(), HasSubstr("不可达"));
  auto j = VerifyJson(results, info);
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["pairs"][2]["status"], "UNREACHABLE");
  EXPECT_EQ(j["summary"]["fail"], 1);
  std::ostringstream x;
  WriteVerifyJUnit(x, results, info);
  EXPECT_THAT(x.str(), HasSubstr("<testsuites name=\"roce-lint verify\" tests=\"3\" failures=\"1\" errors=\"1\""));
  EXPECT_THAT(x.str(), HasSubstr("name=\"n4/mlx5_0 -&gt; n3/&lt;b&gt;&amp;&quot;x\\x1b\""));
  EXPECT_THAT(x.str(), HasSubstr("<error type=\"UNREACHABLE\""));
}

// Every verdict of a failing pair, a link that went down, an unread exporter and a pair whose
// client printed nothing: in --lang zh the report's sentences are Chinese (the NIC, counter and
// pair names and the numbers stay as they are), and in English they are what they were.
TEST(VerifyReport, ChineseVerdictsHaveNoEnglishSentence) {
  plan::Plan plan = LoadOrDie(kPlan);
  auto pairs = PairsFromPlan(plan, PairMode::kRail);
  auto slow = ReadFileCapped(std::string(ROCEWATCH_TEST_DATA) + "/fixtures/real/perftest/nvidia-gpu-operator-write-bw-a-gbits.txt", 1 << 20);
  ASSERT_TRUE(slow.ok());
  PerftestRun run;
  run.outcome = PerftestRun::Outcome::kRan;
  JudgeInput in;
  in.plan = &plan;
  in.pair = pairs[0];
  in.round = 1;
  in.thresholds = ThresholdsFor(plan.profiles.at("p"));
  in.tool = "ib_write_bw";
  in.run = &run;
  in.client_output = ParsePerftestOutput(*slow);
  NicCounters bad = Moving(7, 250, 30);
  bad.pause_frames["tx 5"] = 12;
  bad.link_flaps = 2;
  in.server_counters = bad;
  NicCounters gone;
  gone.error = "scrape http://10.0.0.2:9879/metrics: connection refused";
  in.client_counters = gone;
  std::vector<PairResult> results = {Judge(in)};
  bad.link_flaps = 0;
  bad.port_down_during = true;
  in.server_counters = bad;
  results.push_back(Judge(in));
  in.client_output = std::nullopt;
  results.push_back(Judge(in));
  ASSERT_EQ(results[0].status, PairStatus::kFail);
  ASSERT_EQ(results[2].status, PairStatus::kError);
  VerifyRunInfo info{"plan.json", "ib_write_bw", 10, {}};
  std::ostringstream zh, en;
  WriteVerifyText(zh, results, info, report::Language::kChinese);
  WriteVerifyText(en, results, info, report::Language::kEnglish);
  // What a node or an exporter said stays as it said it.
  std::string text = zh.str();
  for (std::size_t at = text.find(gone.error); at != std::string::npos; at = text.find(gone.error))
    text.replace(at, gone.error.size(), " ");
  EXPECT_TRUE(rocewatch::testing::EnglishRuns(text).empty()) << zh.str();
  EXPECT_THAT(zh.str(), HasSubstr("在 10 s 的测试中被暂停了 70% 的时间，是上限 5% 的 14 倍"));
  EXPECT_THAT(zh.str(), HasSubstr("平均 92.39 Gb/s，为 400 Gb/s 线速的 23.1%，距 95% 还差 287.6 Gb/s"));
  EXPECT_THAT(zh.str(), HasSubstr("没有客户端输出"));
  EXPECT_THAT(en.str(), HasSubstr("92.39 Gb/s average, 23.1% of the 400 Gb/s line rate, 287.6 Gb/s short of 95%"));
  EXPECT_THAT(en.str(), HasSubstr("went down 2 times during the test"));
  EXPECT_THAT(en.str(), HasSubstr("the port was not ACTIVE during the test"));
  EXPECT_FALSE(rocewatch::testing::EnglishRuns(en.str()).empty());
}

}  // namespace
}  // namespace rocewatch::lint::verify
