// --switch-config's readers (lint/switch/): the public SONiC configs of tests/fixtures/switch
// (PROVENANCE.md: sonic-utilities' mock CONFIG_DB, sonic-config-engine's rendered QoS of a
// Mellanox SN4600C T0), a hand-made NVUE file, and hostile variants of each.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "lint/switch/switch_config.h"

namespace rocewatch::lint::switch_config {
namespace {

using ::testing::HasSubstr;
using Prios = std::vector<std::int64_t>;

const std::string kDir = ROCEWATCH_SOURCE_DIR "/tests/fixtures/switch/";

SwitchConfig ReadOk(const std::string& name) {
  auto c = ReadSwitchConfigFile(kDir + name);
  EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().message);
  return c.ok() ? *c : SwitchConfig{};
}

std::string ParseError(const std::string& text) {
  auto c = ParseSwitchConfig(text, "leaf.json");
  EXPECT_FALSE(c.ok()) << "accepted: " << text.substr(0, 200);
  return c.ok() ? "" : c.error().message;
}

TEST(SwitchConfigSonic, ReadsTheMockConfigDbOfSonicUtilities) {
  SwitchConfig c = ReadOk("sonic-utilities-mock-config_db.json");
  EXPECT_EQ(c.nos, Nos::kSonic);
  EXPECT_EQ(c.hostname, "sonic-switch");
  // Found by name and by its alias, as SONiC's LLDP sends either.
  const PortQos* by_name = c.FindPort("Ethernet0");
  const PortQos* by_alias = c.FindPort("etp1");
  ASSERT_NE(by_name, nullptr);
  EXPECT_EQ(by_name, by_alias);
  EXPECT_EQ(by_name->alias, "etp1");
  EXPECT_EQ(by_name->pfc_priorities, Prios({3, 4}));
  EXPECT_FALSE(by_name->dscp_priority.has_value());  // the mock has no DSCP_TO_TC_MAP
  // QUEUE|Ethernet0|3 and |4 use AZURE_LOSSLESS, whose ecn is ecn_all.
  EXPECT_EQ(by_name->ecn_priorities, Prios({3, 4}));
  // PORT_QOS_MAP|Ethernet8 is empty: PFC not stated.
  const PortQos* e8 = c.FindPort("Ethernet8");
  ASSERT_NE(e8, nullptr);
  EXPECT_FALSE(e8->pfc_priorities.has_value());
  EXPECT_EQ(c.FindPort("Ethernet999"), nullptr);
  EXPECT_EQ(c.FindPort(""), nullptr);
}

TEST(SwitchConfigSonic, ReadsTheRenderedQosOfAMellanoxSn4600c) {
  SwitchConfig c = ReadOk("sonic-config-engine-qos-mellanox4600c-d48c40-t0.json");
  EXPECT_EQ(c.hostname, "");  // a QoS fragment: no DEVICE_METADATA
  const PortQos* p = c.FindPort("Ethernet2");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->pfc_priorities, Prios({3, 4}));
  ASSERT_TRUE(p->dscp_priority.has_value());
  EXPECT_EQ(p->dscp_map_name, "AZURE");
  EXPECT_EQ((*p->dscp_priority)[3], 3);
  EXPECT_EQ((*p->dscp_priority)[26], 1);
  EXPECT_EQ((*p->dscp_priority)[46], 5);
  EXPECT_EQ((*p->dscp_priority)[48], 7);
  EXPECT_EQ((*p->dscp_priority)[33], 8);  // TC 8: SONiC has TCs above 7
  ASSERT_TRUE(p->ecn_priorities.has_value());
  EXPECT_EQ(p->ecn_priorities, Prios({3, 4}));
}

TEST(SwitchConfigSonic, NestedAndRedisDumpShapesReadAlike) {
  const std::string nested = R"({"DEVICE_METADATA": {"localhost": {"hostname": "leaf-0"}},
    "PORT": {"Ethernet8": {"alias": "etp3"}},
    "PORT_QOS_MAP": {"Ethernet8": {"pfc_enable": "3", "dscp_to_tc_map": "[DSCP_TO_TC_MAP|RDMA]"}},
    "DSCP_TO_TC_MAP": {"RDMA": {"26": "3", "48": "6"}},
    "WRED_PROFILE": {"LOSSLESS": {"ecn": "ecn_all"}, "NOECN": {"ecn": "ecn_none"}},
    "QUEUE": {"Ethernet8|3": {"wred_profile": "LOSSLESS"}, "Ethernet8|4": {"wred_profile": "NOECN"}}})";
  const std::string flat = R"({"DEVICE_METADATA|localhost": {"hostname": "leaf-0"},
    "PORT|Ethernet8": {"alias": "etp3"},
    "PORT_QOS_MAP|Ethernet8": {"pfc_enable": "3", "dscp_to_tc_map": "RDMA"},
    "DSCP_TO_TC_MAP|RDMA": {"26": "3", "48": "6"},
    "WRED_PROFILE|LOSSLESS": {"ecn": "ecn_all"}, "WRED_PROFILE|NOECN": {"ecn": "ecn_none"},
    "QUEUE|Ethernet8|3": {"wred_profile": "LOSSLESS"}, "QUEUE|Ethernet8|4": {"wred_profile": "NOECN"}})";
  for (const std::string& text : {nested, flat}) {
    auto c = ParseSwitchConfig(text, "leaf-0.json");
    ASSERT_TRUE(c.ok()) << c.error().message;
    EXPECT_EQ(c->hostname, "leaf-0");
    const PortQos* p = c->FindPort("etp3");
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->pfc_priorities, Prios({3}));
    EXPECT_EQ((*p->dscp_priority)[26], 3);
    EXPECT_EQ((*p->dscp_priority)[48], 6);
    EXPECT_EQ((*p->dscp_priority)[0], -1);
    EXPECT_EQ(p->ecn_priorities, Prios({3}));
  }
}

TEST(SwitchConfigSonic, QueueRangesPortListsAndThePfcQueueMap) {
  auto c = ParseSwitchConfig(R"({"DEVICE_METADATA": {"localhost": {"hostname": "t0"}},
    "PORT_QOS_MAP": {"Ethernet0,Ethernet4": {"pfc_enable": "", "pfc_to_queue_map": "Q"}},
    "MAP_PFC_PRIORITY_TO_QUEUE": {"Q": {"3": "5"}},
    "WRED_PROFILE": {"W": {"ecn": "ecn_green"}},
    "QUEUE": {"Ethernet0,Ethernet4|5-6": {"wred_profile": "[WRED_PROFILE|W]"}}})", "t0.json");
  ASSERT_TRUE(c.ok()) << c.error().message;
  for (const char* port : {"Ethernet0", "Ethernet4"}) {
    const PortQos* p = c->FindPort(port);
    ASSERT_NE(p, nullptr) << port;
    EXPECT_EQ(p->pfc_priorities, Prios{});  // pfc_enable "" enables none
    EXPECT_EQ(p->ecn_priorities, Prios({3, 5, 6})) << port;  // priority 3 lands on queue 5
  }
}

TEST(SwitchConfigSonic, HostileValuesNameFileAndJsonPath) {
  EXPECT_EQ(ParseError(R"({"PORT_QOS_MAP": {"Ethernet0": {"pfc_enable": "3,9"}}})"),
            "leaf.json: /PORT_QOS_MAP/Ethernet0/pfc_enable: \"9\" is not an integer from 0 to 7");
  EXPECT_EQ(ParseError(R"({"PORT_QOS_MAP": {"Ethernet0": {"pfc_enable": ["3"]}}})"),
            "leaf.json: /PORT_QOS_MAP/Ethernet0/pfc_enable: expected a string, found an array");
  EXPECT_EQ(ParseError(R"({"DSCP_TO_TC_MAP": {"M": {"64": "1"}}})"),
            "leaf.json: /DSCP_TO_TC_MAP/M/64: \"64\" is not an integer from 0 to 63");
  EXPECT_EQ(ParseError(R"({"DSCP_TO_TC_MAP": {"M": {"26": "99999999999999999999999"}}})"),
            "leaf.json: /DSCP_TO_TC_MAP/M/26: \"99999999999999999999999\" is not an integer from 0 to 15");
  EXPECT_EQ(ParseError(R"({"DSCP_TO_TC_MAP": {"M": {"26": 3.5}}})"),
            "leaf.json: /DSCP_TO_TC_MAP/M/26: expected an integer, found 3.5");
  EXPECT_EQ(ParseError(R"({"TC_TO_PRIORITY_GROUP_MAP": {"AZURE": {"3": "8"}}})"),
            "leaf.json: /TC_TO_PRIORITY_GROUP_MAP/AZURE/3: \"8\" is not an integer from 0 to 7");
  EXPECT_EQ(ParseError(R"({"PORT_QOS_MAP": {"Ethernet0": {"dscp_to_tc_map": "NOPE"}}})"),
            "leaf.json: /PORT_QOS_MAP/Ethernet0/dscp_to_tc_map: names DSCP_TO_TC_MAP \"NOPE\", which the file does not have");
  EXPECT_EQ(ParseError(R"({"WRED_PROFILE": {"W": {"ecn": "ecn_sometimes"}}})"),
            "leaf.json: /WRED_PROFILE/W/ecn: ecn \"ecn_sometimes\" is not one of ecn_none, ecn_green, ecn_yellow, "
            "ecn_red, ecn_green_yellow, ecn_green_red, ecn_yellow_red, ecn_all");
  EXPECT_EQ(ParseError(R"({"QUEUE": {"Ethernet0": {"wred_profile": "W"}}})"),
            "leaf.json: /QUEUE/Ethernet0: QUEUE key \"Ethernet0\" is not PORT|QUEUE");
  EXPECT_EQ(ParseError(R"({"QUEUE": {"Ethernet0|3": {"wred_profile": "W"}}})"),
            "leaf.json: /QUEUE/Ethernet0|3/wred_profile: names WRED_PROFILE \"W\", which the file does not have");
  EXPECT_EQ(ParseError(R"({"PORT": []})"), "leaf.json: /PORT: expected an object, found an array");
  EXPECT_EQ(ParseError(R"({"PORT_QOS_MAP|Ethernet0": "3,4"})"),
            "leaf.json: /PORT_QOS_MAP|Ethernet0: expected an object, found a string");
  // A '/' in a key is escaped in the path as JSON Pointer does.
  EXPECT_EQ(ParseError(R"({"PORT_QOS_MAP": {"Eth/1": {"pfc_enable": true}}})"),
            "leaf.json: /PORT_QOS_MAP/Eth~11/pfc_enable: expected a string, found a boolean");
}

TEST(SwitchConfigSonic, UnknownTablesAndKeysAreIgnoredMissingTablesAreNotErrors) {
  auto c = ParseSwitchConfig(R"({"DEVICE_METADATA": {"localhost": {"hostname": "h", "hwsku": 7}},
    "BGP_NEIGHBOR": [1, 2, 3], "PORT": {"Ethernet0": {"speed": {"odd": true}, "alias": "etp1"}},
    "PORT_QOS_MAP": {"Ethernet0": {"pfc_enable": "3", "something_new": []}}})", "h.json");
  ASSERT_TRUE(c.ok()) << c.error().message;
  const PortQos* p = c->FindPort("etp1");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->pfc_priorities, Prios({3}));
  EXPECT_FALSE(p->dscp_priority.has_value());
  EXPECT_FALSE(p->ecn_priorities.has_value());  // no QUEUE table: ECN not stated
}

TEST(SwitchConfig, RefusesWhatIsNeitherFormatTooDeepTooBigOrNotJson) {
  EXPECT_THAT(ParseError(R"({"hello": "world"})"), HasSubstr("leaf.json: neither SONiC's config_db.json"));
  EXPECT_THAT(ParseError("[1, 2]"), HasSubstr("neither SONiC"));
  EXPECT_THAT(ParseError("{\"PORT\": {"), HasSubstr("leaf.json: invalid JSON:"));
  EXPECT_THAT(ParseError(""), HasSubstr("leaf.json: invalid JSON:"));
  std::string deep = "{\"PORT\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
  EXPECT_EQ(ParseError(deep), "leaf.json: JSON nested deeper than 32 levels; neither SONiC's config_db.json "
                              "nor NVUE's JSON nests that deep");
  std::string big(kMaxSwitchConfigBytes + 1, ' ');
  EXPECT_THAT(ParseError(big), HasSubstr("above the limit of 67108864 bytes"));
  auto missing = ReadSwitchConfigFile(kDir + "no-such-file.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.error().message, HasSubstr("no-such-file.json"));
}

std::string Slurp(const std::string& name) {
  std::ifstream f(kDir + name, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Every file cut short at 300 places and with 300 single bytes changed: each either reads or is
// an error that names the file; nothing else (no crash, no exception: the sanitizer build runs
// this too).
TEST(SwitchConfig, TruncatedAndCorruptedRealFilesFailCleanly) {
  for (const char* name : {"sonic-utilities-mock-config_db.json", "sonic-config-engine-qos-mellanox4600c-d48c40-t0.json",
                           "nvue-roce-leaf.json"}) {
    SCOPED_TRACE(name);
    const std::string text = Slurp(name);
    ASSERT_GT(text.size(), 300u);
    std::size_t errors = 0;
    for (std::size_t i = 0; i < 300; ++i) {
      const std::size_t at = (i * 7919u) % text.size();
      auto cut = ParseSwitchConfig(text.substr(0, at), "f.json");
      if (!cut.ok()) {
        EXPECT_EQ(cut.error().message.rfind("f.json: ", 0), 0u) << cut.error().message;
        ++errors;
      }
      std::string changed = text;
      changed[at] = "\"{}[],:0x9"[i % 10];
      auto bad = ParseSwitchConfig(changed, "f.json");
      if (!bad.ok()) {
        EXPECT_EQ(bad.error().message.rfind("f.json: ", 0), 0u) << bad.error().message;
      }
    }
    EXPECT_GT(errors, 250u);  // a cut file is almost never whole JSON
  }
}

// The real file with its values' types changed: every change is reported at its JSON path.
TEST(SwitchConfigSonic, WrongTypesInTheRealFileNameTheirPath) {
  std::string text = Slurp("sonic-config-engine-qos-mellanox4600c-d48c40-t0.json");
  auto replace_first = [&text](const std::string& from, const std::string& to) {
    std::string out = text;
    const std::size_t at = out.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) out.replace(at, from.size(), to);
    return out;
  };
  const std::string pfc = replace_first("\"pfc_enable\"      : \"3,4\"", "\"pfc_enable\": {\"3\": 4}");
  EXPECT_EQ(ParseError(pfc), "leaf.json: /PORT_QOS_MAP/Ethernet2/pfc_enable: expected a string, found an object");
  const std::string tc = replace_first("\"48\": \"7\"", "\"48\": \"1e9\"");
  EXPECT_THAT(ParseError(tc), HasSubstr("/48: \"1e9\" is not an integer from 0 to 15"));
}

TEST(SwitchConfigNvue, ReadsProfilesPerPortOverRoceDefaults) {
  SwitchConfig c = ReadOk("nvue-roce-leaf.json");
  EXPECT_EQ(c.nos, Nos::kCumulus);
  EXPECT_EQ(c.hostname, "leaf-1");
  // swp1 names no profile: RoCE lossless's PFC on 3, DSCP 26 → 3 and 48 → 6, ECN on TC 3.
  const PortQos* swp1 = c.FindPort("swp1");
  ASSERT_NE(swp1, nullptr);
  EXPECT_EQ(swp1->pfc_priorities, Prios({3}));
  EXPECT_EQ((*swp1->dscp_priority)[26], 3);
  EXPECT_EQ((*swp1->dscp_priority)[48], 6);
  EXPECT_EQ(swp1->ecn_priorities, Prios({3}));
  // swp2's PFC profile enables 4 only.
  const PortQos* swp2 = c.FindPort("swp2");
  ASSERT_NE(swp2, nullptr);
  EXPECT_EQ(swp2->pfc_priorities, Prios({4}));
  // swp3 maps the CNP DSCP to 5 and turns ECN off on TC 3.
  const PortQos* swp3 = c.FindPort("swp3");
  ASSERT_NE(swp3, nullptr);
  EXPECT_EQ((*swp3->dscp_priority)[48], 5);
  EXPECT_EQ((*swp3->dscp_priority)[26], 3);
  EXPECT_EQ(swp3->ecn_priorities, Prios{});
  // A port the file does not list has default-global's (here RoCE's).
  const PortQos* swp9 = c.FindPort("swp9");
  ASSERT_NE(swp9, nullptr);
  EXPECT_EQ(swp9->pfc_priorities, Prios({3}));
}

TEST(SwitchConfigNvue, ObjectShapesAndHostileValues) {
  auto set_only = ParseSwitchConfig(R"({"system": {"hostname": "s"}, "qos": {"roce": {"mode": "lossy"}},
    "interface": {"swp1": {}}})", "s.json");
  ASSERT_TRUE(set_only.ok()) << set_only.error().message;
  EXPECT_EQ(set_only->FindPort("swp1")->pfc_priorities, Prios{});  // lossy: no PFC
  EXPECT_EQ(ParseError(R"({"set": {"qos": {"roce": {"mode": "turbo"}}}})"),
            "leaf.json: /set/qos/roce/mode: \"turbo\" is not lossless or lossy");
  EXPECT_EQ(ParseError(R"([{"header": {}}, {"set": {"qos": {"pfc": {"default-global": {"switch-priority": {"8": {}}}}}}}])"),
            "leaf.json: /1/set/qos/pfc/default-global/switch-priority/8: \"8\" is not an integer from 0 to 7");
  EXPECT_EQ(ParseError(R"({"set": {"qos": {"mapping": {"default-global": {"dscp": {"26": {"switch-priority": "x"}}}}}}})"),
            "leaf.json: /set/qos/mapping/default-global/dscp/26/switch-priority: \"x\" is not an integer from 0 to 7");
  EXPECT_EQ(ParseError(R"({"set": {"qos": {"congestion-control": {"default-global": {"traffic-class": {"3": {"ecn": "maybe"}}}}}}})"),
            "leaf.json: /set/qos/congestion-control/default-global/traffic-class/3/ecn: \"maybe\" is not enable/disable (on/off)");
  EXPECT_EQ(ParseError(R"({"set": {"interface": {"swp1": {"qos": {"pfc": {"profile": "ghost"}}}}}})"),
            "leaf.json: /set/qos/pfc/ghost: a port names profile \"ghost\", which the file does not define");
  // Parts of the list that are not objects are skipped, not dereferenced.
  auto listed = ParseSwitchConfig(R"([1, "x", null, {"header": {}}, {"set": {"system": {"hostname": "h"}}}])", "l.json");
  ASSERT_TRUE(listed.ok()) << listed.error().message;
  EXPECT_EQ(listed->hostname, "h");
  EXPECT_EQ(ParseError(R"([1, {"set": {"qos": {"roce": {"mode": 3.5}}}}])"),
            "leaf.json: /1/set/qos/roce/mode: expected a string, found a number");
  EXPECT_EQ(ParseError(R"({"set": {"system": {"hostname": ["a"]}}})"),
            "leaf.json: /set/system/hostname: expected a string, found an array");
}

TEST(SwitchConfigs, JoinByHostnameIgnoringCaseAndByNameOrAlias) {
  SwitchConfigs all;
  all.Add(ReadOk("sonic-utilities-mock-config_db.json"));
  all.Add(ReadOk("nvue-roce-leaf.json"));
  auto m = all.Find("SONIC-SWITCH", "etp2");
  ASSERT_NE(m.config, nullptr);
  EXPECT_EQ(m.port->name, "Ethernet4");
  EXPECT_EQ(all.Find("leaf-1", "swp2").port->pfc_priorities, Prios({4}));
  EXPECT_EQ(all.Find("leaf-2", "swp2").config, nullptr);
  EXPECT_EQ(all.Find("sonic-switch", "Ethernet999").config, nullptr);
}

}  // namespace
}  // namespace rocewatch::lint::switch_config
