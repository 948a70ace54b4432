// Golden tests of the sh scripts `roce-lint verify` hands to a node (lint/verify/templates/,
// rendered by lint/verify/remote_script.cpp): a bandwidth server and a bidirectional client
// with the profile's traffic class and MTU, a latency client, hostile names, the clean-up.
// ROCEWATCH_UPDATE_GOLDEN=1 rewrites tests/lint/verify/golden instead of comparing; CMake runs
// shellcheck and dash -n on every golden script (tests/lint/verify/CMakeLists.txt).

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "lint/verify/remote_script.h"

namespace rocewatch::lint::verify {
namespace {

namespace fs = std::filesystem;

const fs::path kGoldenDir = fs::path(ROCEWATCH_TEST_DATA) / "lint/verify/golden";

void ExpectGolden(const Result<std::string>& rendered, const std::string& name) {
  ASSERT_TRUE(rendered.ok()) << rendered.error().message;
  const std::string& got = *rendered;
  const fs::path path = kGoldenDir / name;
  if (std::getenv("ROCEWATCH_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(path, std::ios::binary) << got;
    return;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << path << " is missing: run with ROCEWATCH_UPDATE_GOLDEN=1";
  std::ostringstream want;
  want << in.rdbuf();
  EXPECT_EQ(want.str(), got) << name << " differs from what roce-lint verify renders now "
                             << "(if the change is intended: ROCEWATCH_UPDATE_GOLDEN=1 "
                                "tests/lint/verify/verify_test in the build directory)";
}

PerftestInvocation Server() {
  PerftestInvocation r;
  r.ib_dev = "mlx5_0";
  r.gid = "0000:0000:0000:0000:0000:ffff:0a0a:0002";
  r.traffic_class = 106;
  r.mtu = 4096;
  r.duration_seconds = 30;
  r.timeout_seconds = 95;
  r.pid_file = PidFileFor("00112233445566778899aabbccddeeff");
  return r;
}

TEST(VerifyScriptGolden, BandwidthServerAndBidirectionalClient) {
  PerftestInvocation server = Server();
  ExpectGolden(PerftestScript(server), "bw-server.sh");
  PerftestInvocation client = server;
  client.ib_dev = "mlx5_1";
  client.ib_port = 2;
  client.gid = "0000:0000:0000:0000:0000:ffff:0a0a:0001";
  client.server_address = "10.10.0.2";
  client.queue_pairs = 4;
  client.bidirectional = true;
  client.tcp_port = 18600;
  ExpectGolden(PerftestScript(client), "bw-client.sh");
}

TEST(VerifyScriptGolden, LatencyClientWithoutTrafficClassOrMtu) {
  PerftestInvocation r = Server();
  r.tool = "ib_send_lat";
  r.traffic_class.reset();
  r.mtu.reset();
  r.message_bytes = 2;
  r.server_address = "fd00::2";
  r.timeout_seconds = 0.2;  // at least one second
  ExpectGolden(PerftestScript(r), "lat-client.sh");
}

TEST(VerifyScriptGolden, HostileNamesAreQuotedWords) {
  PerftestInvocation r = Server();
  r.ib_dev = "x'; touch pwned; echo '$(touch pwned2)`touch pwned3`\nmlx5_0";
  r.gid = "$(touch pwned4)";
  r.server_address = "10.0.0.1; touch pwned5";
  r.tool = "ib_write_bw\"; reboot";
  r.pid_file = "/tmp/p'id $(touch pwned6)";
  ExpectGolden(PerftestScript(r), "hostile-client.sh");
  ExpectGolden(CleanupScript(r.pid_file), "hostile-cleanup.sh");
}

TEST(VerifyScriptGolden, Cleanup) { ExpectGolden(CleanupScript(Server().pid_file), "cleanup.sh"); }

}  // namespace
}  // namespace rocewatch::lint::verify
