// The lldp collector's decoder on real lldpcli 1.0.16 output (tests/fixtures/real/lldpcli-1.0.16)
// and the source over answers that say "no lldpd", "not allowed", "not captured", garbage.

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <sstream>

#include "exporter/collectors/lldp/collector.h"
#include "exporter/collectors/lldp/source.h"
#include "exporter/inventory/inventory.h"
#include "exporter/kernel/answers.h"
#include "exporter/lldp/dcbx.h"
#include "exporter/lldp/neighbors_json.h"
#include "exporter/metrics/label_value.h"
#include "exporter/metrics/metric_sink.h"
#include "exporter/model/snapshot.h"

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
  const lldp::Neighbor& a = (*n)[0];
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
  const lldp::Neighbor& b = (*n)[1];
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
  collectors::SourceEnv env;
  env.kernel = &kernel;
  env.options["interval"] = interval;
  collectors::SourceClock c{[] { return 1e9; }, [clock] { return *clock; }};
  auto source = collectors::MakeLldpSource(env, c);
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
  collectors::SourceEnv env;
  env.kernel = &k;
  env.options["interval"] = "30s";
  collectors::SourceClock c{[] { return 1e9; }, [&now] { return now; }};
  auto source = collectors::MakeLldpSource(env, c);
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

// Every sample's label values, by family name.
struct Sample {
  std::string first;                // the family
  std::vector<std::string> second;  // the label values
  double value = 0;
};
struct CapturingSink final : metrics::MetricSink {
  std::vector<Sample> samples;
  void Add(const metrics::MetricSpec& spec, std::initializer_list<std::string_view> values,
           double value) override {
    samples.push_back(
        {std::string(spec.name), std::vector<std::string>(values.begin(), values.end()), value});
  }
};

// What the switch names (system name, port description, chassis and port IDs) reaches the page
// without ESC, BEL, CR or a C1 control: each becomes U+FFFD; printable UTF-8 stays.
TEST(LldpRender, SwitchTextsLoseTheirControlCharacters) {
  const std::string r = "\xEF\xBF\xBD";
  EXPECT_EQ(metrics::RemoteTextLabelValue("leaf\x1b[31m-1\x07\r\n\t\x7f"),
            "leaf" + r + "[31m-1" + r + r + r + r + r);
  EXPECT_EQ(metrics::RemoteTextLabelValue("sw\xC2\x9B"
                                          "2J \xC3\xA9t\xC2\xA0\xff"),
            "sw" + r + "2J \xC3\xA9t\xC2\xA0" + r);
  EXPECT_EQ(metrics::RemoteTextLabelValue(std::string("a\0b", 3)), "a" + r + "b");
  NodeSnapshot snap;
  snap.lldp.emplace();
  snap.lldp->daemon_reachable = true;
  LldpNeighbor n;
  n.netdev = "lldpn0";
  n.chassis_id_subtype = "mac";
  n.chassis_id = "aa:bb\x1b";
  n.system_name = "\x1b]0;pwned\x07leaf-0";
  n.port_id_subtype = "ifname";
  n.port_id = "Ethernet8\r";
  n.port_description = "uplink\x1b[2K";
  n.management_address = "10.0.0.1";
  n.ttl_seconds = 120;
  snap.lldp->neighbors.push_back(n);
  CapturingSink sink;
  collectors::RenderLldp(snap, sink);
  ASSERT_EQ(sink.samples.size(), 4u);  // reachable, info, ttl, and dcbx_sent 0
  EXPECT_EQ(sink.samples[1].first, "roce_lldp_neighbor_info");
  const std::vector<std::string> want = {
      "lldpn0", "aa:bb" + r,          "mac",     r + "]0;pwned" + r + "leaf-0", "Ethernet8" + r,
      "ifname", "uplink" + r + "[2K", "10.0.0.1"};
  EXPECT_EQ(sink.samples[1].second, want);
  EXPECT_EQ(sink.samples[2].first, "roce_lldp_neighbor_ttl_seconds");
  EXPECT_EQ(sink.samples[2].second,
            (std::vector<std::string>{"lldpn0", "aa:bb" + r, "Ethernet8" + r}));
}

using Bytes = std::vector<std::uint8_t>;

// The layouts of IEEE Std 802.1Q-2018 Annex D.2.9-D.2.12, bytes built by hand.
TEST(LldpDcbx, PfcConfigurationFromTheStandardsLayout) {
  auto p = lldp::DecodePfcConfiguration(Bytes{0x08, 0x08});
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_FALSE(p->willing);
  EXPECT_FALSE(p->mbc);
  EXPECT_EQ(p->capability, 8);
  EXPECT_EQ(p->enabled_bitmap, 0x08);
  p = lldp::DecodePfcConfiguration(Bytes{0xF8, 0x18});  // reserved bits 5-4 set: ignored
  ASSERT_TRUE(p.ok());
  EXPECT_TRUE(p->willing);
  EXPECT_TRUE(p->mbc);
  EXPECT_EQ(p->capability, 8);
  EXPECT_EQ(p->enabled_bitmap, 0x18);
  for (const Bytes& bad : {Bytes{}, Bytes{0x08}, Bytes{0x08, 0x08, 0x00}}) {
    auto r = lldp::DecodePfcConfiguration(bad);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "802.1Qaz PFC Configuration TLV: information string of " +
                                     std::to_string(bad.size()) + " bytes, 2 expected");
  }
}

TEST(LldpDcbx, ApplicationPriorityEntries) {
  // DSCP 26 -> 3, DSCP 48 -> 6, UDP 4791 -> 3, Ethertype 0x8915 (RoCE v1) -> 5.
  auto a = lldp::DecodeApplicationPriority(
      Bytes{0x00, 0x65, 0x00, 0x1A, 0xC5, 0x00, 0x30, 0x63, 0x12, 0xB7, 0xA1, 0x89, 0x15});
  ASSERT_TRUE(a.ok()) << a.error().message;
  ASSERT_EQ(a->size(), 4u);
  EXPECT_EQ((*a)[0].priority, 3);
  EXPECT_EQ((*a)[0].selector, lldp::kSelectorDscp);
  EXPECT_EQ((*a)[0].protocol, 26);
  EXPECT_EQ((*a)[1].priority, 6);
  EXPECT_EQ((*a)[1].protocol, 48);
  EXPECT_EQ((*a)[2].selector, lldp::kSelectorUdpDccpPort);
  EXPECT_EQ((*a)[2].protocol, 4791);
  EXPECT_EQ((*a)[3].priority, 5);
  EXPECT_EQ((*a)[3].selector, lldp::kSelectorEthertype);
  EXPECT_EQ((*a)[3].protocol, 0x8915);
  auto empty = lldp::DecodeApplicationPriority(Bytes{0x00});
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
  for (const Bytes& bad : {Bytes{}, Bytes{0x00, 0x65}, Bytes{0x00, 0x65, 0x00, 0x1A, 0x63}}) {
    auto r = lldp::DecodeApplicationPriority(bad);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "802.1Qaz Application Priority TLV: information string of " +
                                     std::to_string(bad.size()) +
                                     " bytes, 1 + 3 per entry (at most 507) expected");
  }
  EXPECT_FALSE(lldp::DecodeApplicationPriority(Bytes(508, 0)).ok());
}

TEST(LldpDcbx, EtsConfigurationAndRecommendation) {
  // Willing, CBS, max TCs 3; priorities 0-2 -> TC 0, 3 -> 3, 4-5 -> 0, 6 -> 6, 7 -> 15;
  // bandwidth 10/60/30 on TCs 0, 3, 6 (ETS), TC 7 strict.
  const Bytes tables = {0x00, 0x03, 0x00, 0x6F, 10, 0, 0, 60, 0, 0,
                        30,   0,    2,    0,    0,  2, 0, 0,  2, 255};
  Bytes config = {0xC3};
  config.insert(config.end(), tables.begin(), tables.end());
  auto e = lldp::DecodeEtsConfiguration(config);
  ASSERT_TRUE(e.ok()) << e.error().message;
  EXPECT_TRUE(e->willing);
  EXPECT_TRUE(e->cbs);
  EXPECT_EQ(e->max_tcs, 3);
  EXPECT_EQ(e->priority_tc, (std::array<std::uint8_t, 8>{0, 0, 0, 3, 0, 0, 6, 15}));
  EXPECT_EQ(e->tc_bandwidth_percent, (std::array<std::uint8_t, 8>{10, 0, 0, 60, 0, 0, 30, 0}));
  EXPECT_EQ(e->tc_tsa, (std::array<std::uint8_t, 8>{2, 0, 0, 2, 0, 0, 2, 255}));
  Bytes rec = {0xFF};  // reserved: no willing bit in a recommendation
  rec.insert(rec.end(), tables.begin(), tables.end());
  auto r = lldp::DecodeEtsRecommendation(rec);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->willing);
  EXPECT_EQ(r->priority_tc, e->priority_tc);
  config.push_back(0);
  auto longer = lldp::DecodeEtsConfiguration(config);
  ASSERT_FALSE(longer.ok());
  EXPECT_EQ(longer.error().message,
            "802.1Qaz ETS Configuration TLV: information string of 22 bytes, 21 expected");
  EXPECT_FALSE(lldp::DecodeEtsRecommendation(tables).ok());  // 20 bytes
}

TEST(LldpDcbx, NeighbourWithoutDcbxIsAStateAndDuplicatesAreSaid) {
  EXPECT_FALSE(lldp::DecodeDcbx({}).sent);
  lldp::LldpUnknownTlv other{{0x00, 0x12, 0x0F}, 11, {0x08, 0x08}};  // another OUI
  EXPECT_FALSE(lldp::DecodeDcbx({other}).sent);
  lldp::LldpUnknownTlv pfc{lldp::kIeee8021Oui, 11, {0x08, 0x08}};
  lldp::LldpUnknownTlv pfc2{lldp::kIeee8021Oui, 11, {0x08, 0x10}};
  lldp::LldpUnknownTlv bad_app{lldp::kIeee8021Oui, 12, {0x00, 0x65}};
  const lldp::PeerDcbx d = lldp::DecodeDcbx({other, pfc, pfc2, bad_app});
  EXPECT_TRUE(d.sent);
  ASSERT_TRUE(d.pfc);
  EXPECT_EQ(d.pfc->enabled_bitmap, 0x08);  // the first kept
  EXPECT_FALSE(d.app);
  ASSERT_EQ(d.errors.size(), 2u);
  EXPECT_EQ(d.errors[0], "802.1Qaz PFC Configuration TLV: sent more than once, the first kept");
  EXPECT_EQ(d.errors[1],
            "802.1Qaz Application Priority TLV: information string of 2 bytes, 1 + 3 per entry (at "
            "most 507) expected");
}

TEST(LldpDcbx, LldpHexText) {
  EXPECT_EQ(lldp::ParseLldpHex("00,80,C2", 3), (Bytes{0x00, 0x80, 0xC2}));
  EXPECT_EQ(lldp::ParseLldpHex("0a,ff", 3), (Bytes{0x0a, 0xff}));
  EXPECT_EQ(lldp::ParseLldpHex("", 3), Bytes{});
  for (const char* bad : {"0", "00,", "00,8", "0g", "00;80", "00,80,C2,01", ",00"})
    EXPECT_FALSE(lldp::ParseLldpHex(bad, 3)) << bad;
  EXPECT_EQ(lldp::FormatLldpHex(Bytes{0x00, 0x65, 0x1A}), "00,65,1A");
}

// lldpd 1.0.16's real answer for a neighbour sending PFC and APP TLVs (custom TLVs of the
// "switch" lldpd): the unknown TLVs, decoded, and the same after the live path's encoding.
TEST(LldpDcbx, RealLldpcliUnknownTlvs) {
  auto decoded = lldp::DecodeNeighborsJson(Fixture("neighbors-dcbx-json0.json"));
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  ASSERT_EQ(decoded->size(), 1u);
  const lldp::Neighbor& n = (*decoded)[0];
  EXPECT_EQ(n.netdev, "xn0");
  ASSERT_EQ(n.unknown_tlvs.size(), 2u);
  EXPECT_EQ(n.unknown_tlvs[0].oui, lldp::kIeee8021Oui);
  EXPECT_EQ(n.unknown_tlvs[0].subtype, 11);
  EXPECT_EQ(n.unknown_tlvs[0].info, (Bytes{0x08, 0x08}));
  EXPECT_EQ(n.unknown_tlvs[1].subtype, 12);
  EXPECT_EQ(n.unknown_tlvs[1].info, (Bytes{0x00, 0x65, 0x00, 0x1A, 0x63, 0x12, 0xB7}));
  EXPECT_TRUE(n.unknown_tlv_errors.empty());
  auto again = lldp::DecodeNeighborsJson(lldp::EncodeNeighborsJson(*decoded));
  ASSERT_TRUE(again.ok());
  ASSERT_EQ((*again)[0].unknown_tlvs.size(), 2u);
  EXPECT_EQ((*again)[0].unknown_tlvs[1].info, n.unknown_tlvs[1].info);
  // A hostile entry is skipped and said; the neighbour and the other TLVs stay.
  std::string text = Fixture("neighbors-dcbx-json0.json");
  const std::string value = "\"value\": \"08,08\"";
  ASSERT_NE(text.find(value), std::string::npos);
  text.replace(text.find(value), value.size(), "\"value\": \"08,zz\"");
  auto hostile = lldp::DecodeNeighborsJson(text);
  ASSERT_TRUE(hostile.ok()) << hostile.error().message;
  ASSERT_EQ((*hostile)[0].unknown_tlvs.size(), 1u);
  ASSERT_EQ((*hostile)[0].unknown_tlv_errors.size(), 1u);
  EXPECT_EQ((*hostile)[0].unknown_tlv_errors[0],
            "lldp.interface[0].unknown-tlvs.unknown-tlv[0].value: expected at most 507 hex bytes "
            "like 08,08");
}

// The peer's DCBX as series: by default the PFC-enabled priorities, the TLVs, the digests and
// the RoCE UDP entry; every entry with full tables; a neighbour sending none is dcbx_sent 0.
TEST(LldpRender, PeerDcbxDigestsByDefaultAndFullTablesOptIn) {
  NodeSnapshot snap;
  snap.lldp.emplace();
  snap.lldp->daemon_reachable = true;
  LldpNeighbor a;
  a.netdev = "lldpn0";
  a.dcbx = lldp::DecodeDcbx(
      {{lldp::kIeee8021Oui, 11, {0x08, 0x18}},
       {lldp::kIeee8021Oui, 12, {0x00, 0x65, 0x00, 0x1A, 0xC5, 0x00, 0x30, 0x63, 0x12, 0xB7}}});
  LldpNeighbor b;
  b.netdev = "lldpn1";
  snap.lldp->neighbors = {a, b};
  auto render = [&snap](bool full) {
    snap.lldp->full_tables = full;
    CapturingSink sink;
    collectors::RenderLldp(snap, sink);
    std::vector<std::string> lines;
    for (const auto& sample : sink.samples) {
      if (sample.first.rfind("roce_lldp_peer_", 0) != 0) continue;
      std::string line = sample.first;
      for (const auto& v : sample.second) line += " " + v;
      lines.push_back(line + " = " + std::to_string(static_cast<int>(sample.value)));
    }
    return lines;
  };
  const std::vector<std::string> digest = render(false);
  ASSERT_EQ(digest.size(), 10u);
  EXPECT_EQ(digest[0], "roce_lldp_peer_dcbx_sent lldpn0 = 1");
  EXPECT_EQ(digest[1], "roce_lldp_peer_dcbx_info lldpn0 pfc false = 1");
  EXPECT_EQ(digest[2], "roce_lldp_peer_dcbx_info lldpn0 app  = 1");
  EXPECT_EQ(digest[3], "roce_lldp_peer_pfc_enabled lldpn0 3 = 1");
  EXPECT_EQ(digest[4], "roce_lldp_peer_pfc_enabled lldpn0 4 = 1");
  EXPECT_EQ(digest[5], "roce_lldp_peer_pfc_capability lldpn0 = 8");
  EXPECT_EQ(digest[6].rfind("roce_lldp_peer_table_entries lldpn0 dscp_map ", 0), 0u) << digest[6];
  EXPECT_EQ(digest[6].substr(digest[6].size() - 4), " = 2") << digest[6];
  EXPECT_EQ(digest[7].rfind("roce_lldp_peer_table_entries lldpn0 app ", 0), 0u) << digest[7];
  EXPECT_EQ(digest[7].substr(digest[7].size() - 4), " = 1") << digest[7];
  EXPECT_EQ(digest[8], "roce_lldp_peer_app_info lldpn0 dgram 4791 3 = 1");
  EXPECT_EQ(digest[9], "roce_lldp_peer_dcbx_sent lldpn1 = 0");
  const std::vector<std::string> full = render(true);
  std::size_t pfc = 0, dscp = 0, app = 0;
  for (const auto& l : full) {
    pfc += l.rfind("roce_lldp_peer_pfc_enabled ", 0) == 0;
    dscp += l.rfind("roce_lldp_peer_dscp_priority ", 0) == 0;
    app += l.rfind("roce_lldp_peer_app_info ", 0) == 0;
  }
  EXPECT_EQ(pfc, 8u);
  EXPECT_EQ(dscp, 2u);
  EXPECT_EQ(app, 3u);
  EXPECT_NE(std::find(full.begin(), full.end(), "roce_lldp_peer_pfc_enabled lldpn0 0 = 0"),
            full.end());
  EXPECT_NE(std::find(full.begin(), full.end(), "roce_lldp_peer_dscp_priority lldpn0 48 = 6"),
            full.end());
}

// By default the switch's priority of the DSCPs the node uses (--collector.lldp.dscps) is a
// series, so roce-lint compares them DSCP by DSCP with the NIC's roce_dscp_priority: a DSCP the
// table maps and the option names is served, one it does not name is not, one the option names
// and the table lacks is absent.
TEST(LldpRender, PeerPriorityOfTheExportedDscpsByDefault) {
  NodeSnapshot snap;
  snap.lldp.emplace();
  snap.lldp->daemon_reachable = true;
  snap.lldp->exported_dscps = {26, 10};
  LldpNeighbor a;
  a.netdev = "lldpn0";
  a.dcbx = lldp::DecodeDcbx(  // APP: DSCP 26 -> 5, DSCP 48 -> 6
      {{lldp::kIeee8021Oui, 12, {0x00, 0xA5, 0x00, 0x1A, 0xC5, 0x00, 0x30}}});
  snap.lldp->neighbors = {a};
  CapturingSink sink;
  collectors::RenderLldp(snap, sink);
  std::vector<std::string> dscps;
  for (const auto& sample : sink.samples) {
    if (sample.first != "roce_lldp_peer_dscp_priority") continue;
    dscps.push_back(sample.second.at(1) + "=" + std::to_string(static_cast<int>(sample.value)));
  }
  EXPECT_EQ(dscps, std::vector<std::string>{"26=5"});
}

}  // namespace
}  // namespace rocewatch
