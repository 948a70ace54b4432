// `roce-lint verify` reaching nodes for real: an sshd on loopback (tests/lint/fix/loopback_sshd.h,
// the one `apply`'s test uses), the node side's PATH holding either the stand-in perftest
// (tests/lint/verify/stand-in, replaying recorded real outputs) or Debian's real ib_write_bw, which
// finds no RDMA device here. Shows: the real perftest's failure is a per-pair ERROR in its own
// words, a node where nothing listens is UNREACHABLE, a client that fails leaves no server
// running and no pid file behind, and a pair whose exporters do not answer FAILs on
// verify.counters. Needs root (sshd) and skips otherwise.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/test_dir.h"
#include "loopback_sshd.h"

namespace rocewatch::fix_testing {
namespace {

using ::testing::HasSubstr;

std::string StandIn() { return std::string(ROCEWATCH_TEST_DATA) + "/lint/verify/stand-in"; }


class VerifyOverSsh : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!IsRoot()) GTEST_SKIP() << "sshd needs root";
    if (auto why = LoopbackSshd::SkipReason(); !why.empty()) GTEST_SKIP() << why;
    // One sysfs for both nodes (they are this machine): mlx5_0 port 1 with both planned
    // addresses as RoCE v2 GIDs, after a RoCE v1 entry of the first.
    fs::path port = dir_ / "sys/class/infiniband/mlx5_0/ports/1";
    const char* gids[] = {"0000:0000:0000:0000:0000:ffff:0a0a:0001", "0000:0000:0000:0000:0000:ffff:0a0a:0001",
                          "0000:0000:0000:0000:0000:ffff:0a0a:0002"};
    const char* types[] = {"IB/RoCE v1", "RoCE v2", "RoCE v2"};
    for (int i = 0; i < 3; ++i) {
      WriteText(port / "gids" / std::to_string(i), std::string(gids[i]) + "\n");
      WriteText(port / "gid_attrs/types" / std::to_string(i), std::string(types[i]) + "\n");
    }
    // Exporters on ports where nothing listens: the counters cannot be read.
    WriteText(dir_ / "plan.json", R"({"cluster": "v", "profiles": {"p": {"link_speed_gbps": 400, "roce_dscp": 26}},
      "nodes": [
        {"name": "a", "management_ip": "127.0.0.1", "exporter": "127.0.0.1:1", "nics": [
          {"ib_dev": "mlx5_0", "netdev": "e0", "profile": "p", "roce_ip": "10.10.0.1/24", "rail": 0}]},
        {"name": "b", "management_ip": "127.0.0.3", "exporter": "127.0.0.3:1", "nics": [
          {"ib_dev": "mlx5_0", "netdev": "e0", "profile": "p", "roce_ip": "10.10.0.2/24", "rail": 0}]},
        {"name": "c", "management_ip": "127.0.0.2", "exporter": "127.0.0.2:1", "nics": [
          {"ib_dev": "mlx5_0", "netdev": "e0", "profile": "p", "roce_ip": "10.10.0.3/24", "rail": 0}]}]})");
    WriteText(dir_ / "pairs.txt", "a b\nc a  # c: nothing listens on 127.0.0.2\n");
    fs::create_directories(dir_ / "ssh");
    sshd_ = std::make_unique<LoopbackSshd>(dir_ / "ssh");
    ASSERT_TRUE(sshd_->Accepts()) << sshd_->Log();
  }
  void TearDown() override { sshd_.reset(); }

  RunResult Verify(const std::string& path, const std::string& map, const std::string& extra = "") {
    const std::string remote = "env PATH=" + path + " ROCEWATCH_SYSFS=" + (dir_ / "sys").string() +
                               " ROCEWATCH_PERFTEST_REPLAY=" + map + " sh -s --";
    return Sh(RoceLint() + " verify plan.json --pairs pairs.txt --duration 1s --server-start 0.5s --scrape-timeout 1s"
                  " --ssh-command " + Q(sshd_->SshCommand()) + " --remote-shell " + Q(remote) + " " + extra,
              dir_);
  }

  testing::TestDir tmp_;
  fs::path dir_ = tmp_.path();
  std::unique_ptr<LoopbackSshd> sshd_;
};

TEST_F(VerifyOverSsh, RealPerftestWithoutADeviceIsAPerPairError) {
  if (::access("/usr/bin/ib_write_bw", X_OK) != 0) GTEST_SKIP() << "Debian's perftest is not installed";
  RunResult r = Verify("/usr/bin:/bin", "/dev/null", "--format json");
  EXPECT_EQ(r.code, 1) << r.out << r.err << sshd_->Log();
  EXPECT_THAT(r.out, HasSubstr("\"status\": \"ERROR\""));
  // perftest's own words, from the server (which fails first) on node b.
  EXPECT_THAT(r.out, HasSubstr("\"detail\": \"server a exit 1: Unable to find the Infiniband/RoCE device\"")) << r.out;
  EXPECT_THAT(r.out, HasSubstr("\"server_gid_index\": 1"));  // the RoCE v2 entry, not the v1 one
  EXPECT_THAT(r.out, HasSubstr("\"status\": \"UNREACHABLE\""));
  EXPECT_THAT(r.out, HasSubstr("c (127.0.0.2): ssh: connect to host 127.0.0.2 port " + std::to_string(sshd_->port()) +
                               ": Connection refused"));
}

TEST_F(VerifyOverSsh, StandInRunsOverSshAndAFailedClientLeavesNothingRunning) {
  const std::string fixtures = std::string(ROCEWATCH_TEST_DATA) + "/fixtures/real/perftest/";
  // A client that fails at once (the recorded no-device output, status 1) while the server
  // would wait 61 s for it: the clean-up must stop the server long before.
  WriteText(dir_ / "fail.map", "server " + fixtures + "ib-gpu-blog-write-bw-gbits-ib.txt\n" +
                                   "10.10.0.1 " + fixtures + "debian-4.5-0.17-no-device/ib_write_bw.txt rc=1 nowait\n");
  const auto t0 = std::chrono::steady_clock::now();
  RunResult r = Verify(StandIn() + ":/usr/bin:/bin", (dir_ / "fail.map").string(), "--duration 60s --pairs pairs.txt --log-dir " + (dir_ / "logs").string());
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("client b exit 1: Unable to find the Infiniband/RoCE device")) << r.out;
  EXPECT_LT(took, 30) << "the server was not stopped when its client failed";
  RunResult ps = Sh("ps -eo args | grep -c '[p]erftest-replay' || true", dir_);
  EXPECT_EQ(ps.out, "0\n") << "a stand-in perftest is still running";

  // The recorded 392 Gb/s run: the perftest side passes; the exporters do not answer, so the
  // pair fails on verify.counters, naming the exporter.
  WriteText(dir_ / "ok.map", "default " + fixtures + "ib-gpu-blog-write-bw-gbits-ib.txt\n");
  WriteText(dir_ / "pairs.txt", "a b\n");
  RunResult ok = Verify(StandIn() + ":/usr/bin:/bin", (dir_ / "ok.map").string(), "--format junit");
  EXPECT_EQ(ok.code, 1) << ok.out << ok.err;
  EXPECT_THAT(ok.out, HasSubstr("verify.counters"));
  EXPECT_THAT(ok.out, HasSubstr("127.0.0.1:1"));
  RunResult text = Verify(StandIn() + ":/usr/bin:/bin", (dir_ / "ok.map").string());
  EXPECT_THAT(text.out, HasSubstr("b/mlx5_0 -> a/mlx5_0     1      FAIL    392.3 (98.1%)")) << text.out;
}

}  // namespace
}  // namespace rocewatch::fix_testing
