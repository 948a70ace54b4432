// The lldp collector's decoder on real lldpcli 1.0.16 output (tests/fixtures/real/lldpcli-1.0.16)
// and the source over answers that say "no lldpd", "not allowed", "not captured", garbage.

#include <gtest/gtest.h>

#include <cerrno>
#include <fstream>
#include <sstream>

#include "inventory/inventory.h"
#include "kernel/answers.h"
#include "lldp/neighbors_json.h"
#include "collectors/lldp/source.h"

namespace rocewatch {
namespace {

std::string Fixture(const std::string& name) {
  std::ifstream in(std::string(ROCEWATCH_SOURCE_DIR) + "/tests/fixtures/real/lldpcli-1.0.16/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(LldpDecode, RealLldpcliJson0) {
  auto n = lldp::DecodeNeighborsJson(Fixture("neighbors-json0.json"));
  ASSERT_TRUE(n.ok()) << n.error().message;
  ASSERT_EQ(n->size(), 2u);
  const LldpNeighbor& a = (*n)[0];
  EXPECT_EQ(a.netdev, "lldpn0");
  EXPECT_EQ(a.protocol, "LLDP");
  EXPECT_EQ(a.chassis_id_subtype, "mac");
  EXPECT_EQ(a.chassis_id.size(), 17u);
  EXPECT_EQ(a.system_name, "leaf-0");
  EXPECT_EQ(a.port_id_subtype, "local");
  EXPECT_EQ(a.port_id, "Ethernet8");
  EXPECT_EQ(a.port_description, "gpu-01 rail 0");
  EXPECT_EQ(a.management_address, "192.0.2.1");
  EXPECT_EQ(a.ttl_seconds, 4);  // tx-interval 1 × hold 4
  ASSERT_TRUE(a.age_seconds.has_value());
  const LldpNeighbor& b = (*n)[1];
  EXPECT_EQ(b.port_id_subtype, "mac");  // lldpd's default port ID on a veth
  EXPECT_EQ(b.port_description, "lldps1");
}

TEST(LldpDecode, NoNeighboursIsAnEmptyList) {
  auto n = lldp::DecodeNeighborsJson(Fixture("no-neighbors-json0.json"));
  ASSERT_TRUE(n.ok()) << n.error().message;
  EXPECT_TRUE(n->empty());
}

TEST(LldpDecode, BadAnswersNameWhatIsWrong) {
  EXPECT_EQ(lldp::DecodeNeighborsJson("").error().message, "lldp neighbours: not JSON (or not UTF-8)");
  EXPECT_EQ(lldp::DecodeNeighborsJson("[]").error().message,
            "lldp neighbours: expected an object at the top");
  EXPECT_EQ(lldp::DecodeNeighborsJson(R"({"lldp":[{"interface":[{"via":"LLDP"}]}]})").error().message,
            "lldp.interface[0]: no interface name");
  EXPECT_EQ(lldp::DecodeNeighborsJson(
                R"({"lldp":[{"interface":[{"name":"a","port":[{"ttl":[{"value":"-4"}]}]}]}]})")
                .error()
                .message,
            "lldp.interface[0].port.ttl: expected 0-65535 seconds, found \"-4\"");
  EXPECT_FALSE(lldp::DecodeNeighborsJson("{\"lldp\":[{\"interface\":[{\"name\":\"\xff\"}]}]}").ok());
}

TEST(LldpDecode, AgeAsLldpcliPrintsIt) {
  EXPECT_EQ(lldp::ParseAge("0 day, 00:00:08"), 8);
  EXPECT_EQ(lldp::ParseAge("1 day, 01:02:03"), 86400 + 3723);
  EXPECT_EQ(lldp::ParseAge("3 days, 23:59:59"), 3 * 86400 + 86399);
  EXPECT_EQ(lldp::ParseAge("too much"), std::nullopt);
  EXPECT_EQ(lldp::ParseAge("0 day, 00:61:00"), std::nullopt);
  EXPECT_EQ(lldp::ParseAge("0 day, 00:00:08 extra"), std::nullopt);
  EXPECT_EQ(lldp::FormatAge(2 * 86400 + 5), "2 days, 00:00:05");
  EXPECT_EQ(lldp::FormatAge(86400), "1 day, 00:00:00");
}

TEST(LldpDecode, LongValuesAreCutAtACharacterBoundary) {
  std::string name(254, 'a');
  name += "\xc3\xa9\xc3\xa9";  // é é: the cut falls inside the first
  auto n = lldp::DecodeNeighborsJson(
      R"({"lldp":[{"interface":[{"name":"x","chassis":[{"name":[{"value":")" + name + R"("}]}]}]}]})");
  ASSERT_TRUE(n.ok()) << n.error().message;
  EXPECT_EQ((*n)[0].system_name, std::string(254, 'a'));
}

class FixedLldp final : public kernel::KernelAnswers {
 public:
  kernel::Answer answer;
  int asked = 0;
  kernel::Answer Ask(const kernel::Request& r) override {
    if (!std::holds_alternative<kernel::call::LldpNeighbors>(r)) return {{}, ENODATA};
    ++asked;
    return answer;
  }
};

struct Pass {
  NodeSnapshot snap;
  SourceStatus status;
};

Pass Collect(FixedLldp& kernel, double* clock, const std::string& interval = "30s") {
  sources::SourceEnv env;
  env.kernel = &kernel;
  env.options["interval"] = interval;
  sources::SourceClock c{[] { return 1e9; }, [clock] { return *clock; }};
  auto source = sources::MakeLldpSource(env, c);
  EXPECT_TRUE(source.ok());
  Inventory inv;
  inv.netdevs.push_back({});
  inv.netdevs.back().name = "lldpn0";
  Pass r;
  (*source)->Collect(inv, r.snap, r.status);
  return r;
}

TEST(LldpSource, ServesInventoryNetdevsOnlyAndReadsOnItsInterval) {
  FixedLldp k;
  const std::string text = Fixture("neighbors-json0.json");
  k.answer.bytes.assign(text.begin(), text.end());
  double now = 100;
  sources::SourceEnv env;
  env.kernel = &k;
  env.options["interval"] = "30s";
  sources::SourceClock c{[] { return 1e9; }, [&now] { return now; }};
  auto source = sources::MakeLldpSource(env, c);
  ASSERT_TRUE(source.ok());
  Inventory inv;
  inv.netdevs.push_back({});
  inv.netdevs.back().name = "lldpn0";
  for (double t : {100.0, 110.0, 129.9, 130.0}) {
    now = t;
    NodeSnapshot snap;
    SourceStatus status;
    (*source)->Collect(inv, snap, status);
    ASSERT_TRUE(snap.lldp.has_value());
    EXPECT_TRUE(snap.lldp->daemon_reachable);
    ASSERT_EQ(snap.lldp->neighbors.size(), 1u);  // lldpn1 is not in the inventory
    EXPECT_EQ(snap.lldp->neighbors[0].port_id, "Ethernet8");
    EXPECT_TRUE(status.success);
  }
  EXPECT_EQ(k.asked, 2);
}

TEST(LldpSource, NoDaemonAndNoPermissionAreNoDataNotFailure) {
  double now = 0;
  for (int error : {ENOENT, ECONNREFUSED, EACCES}) {
    FixedLldp k;
    k.answer.error = error;
    Pass r = Collect(k, &now);
    ASSERT_TRUE(r.snap.lldp.has_value());
    EXPECT_FALSE(r.snap.lldp->daemon_reachable);
    EXPECT_TRUE(r.snap.lldp->neighbors.empty());
    EXPECT_TRUE(r.status.success) << error;
    EXPECT_EQ(r.status.unavailable_values, error == EACCES ? 1 : 0);
  }
  FixedLldp replay;  // a capture without LLDP answers: no section at all
  replay.answer.error = ENODATA;
  EXPECT_FALSE(Collect(replay, &now).snap.lldp.has_value());
  FixedLldp odd;
  odd.answer.error = EPROTO;
  EXPECT_FALSE(Collect(odd, &now).status.success);
  FixedLldp garbage;
  garbage.answer.bytes = {'{', 'x'};
  Pass g = Collect(garbage, &now);
  EXPECT_TRUE(g.status.success);
  EXPECT_EQ(g.status.parse_errors_total, 1);
  EXPECT_TRUE(g.snap.lldp->neighbors.empty());
}

}  // namespace
}  // namespace rocewatch
