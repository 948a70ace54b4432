// Issue 38: roce-lint's inputs in linear time and bounded memory. Each reproduction of the issue,
// rebuilt from its text, and each reader fed a worst case at the largest size it accepts: the
// test asserts the result (or the clear error) and the sizes kept, never a time; ctest's TIMEOUT
// (generous, tests/lint/CMakeLists.txt) is what a quadratic reader would run into.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "lint/observe/prometheus_answer.h"
#include "lint/serve/alertmanager.h"
#include "lint/switch/counter_profiles.h"
#include "lint/switch/switch_config.h"
#include "lint/switch/switch_pauses.h"

namespace rocewatch::lint {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string Repeat(std::string_view s, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out += s;
  return out;
}

// "Ethernet0,Ethernet4,…": `n` port names.
std::string Ports(std::size_t n, std::size_t step = 4) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out += (i ? "," : "") + std::string("Ethernet") + std::to_string(i * step);
  return out;
}

// Reproduction 1: a PORT_QOS_MAP key of N ports whose pfc_enable lists M priorities was read
// N×M (79 KB: 5 s; the 64 MiB the loader accepts: days). Now the list is read once.
TEST(BoundedSwitchConfig, SonicPortQosMapOfManyPortsAndALongPriorityListIsReadOnce) {
  std::string pfc;
  while (pfc.size() < (4u << 20)) pfc += "3,4,";
  pfc += "3";
  const std::string text = R"({"PORT_QOS_MAP": {")" + Ports(8000) + R"(": {"pfc_enable": ")" + pfc + R"("}}})";
  auto c = switch_config::ParseSwitchConfig(text, "leaf.json");
  ASSERT_TRUE(c.ok()) << c.error().message;
  ASSERT_EQ(c->ports.size(), 8000u);
  for (const auto& p : c->ports) ASSERT_EQ(p.pfc_priorities, (std::vector<std::int64_t>{3, 4})) << p.name;
}

// The largest file the loader accepts (kMaxSwitchConfigBytes), all of it one priority list
// shared by the most ports one switch may have.
TEST(BoundedSwitchConfig, SonicAtTheLargestSizeAccepted) {
  const std::string head = R"({"PORT_QOS_MAP": {")" + Ports(switch_config::kMaxSwitchPorts) + R"(": {"pfc_enable": ")";
  const std::string tail = R"("}}})";
  std::string text = head;
  text.reserve(switch_config::kMaxSwitchConfigBytes);
  while (text.size() + 2 + tail.size() < switch_config::kMaxSwitchConfigBytes) text += "7,";
  text += "0";
  text += tail;
  ASSERT_LE(text.size(), switch_config::kMaxSwitchConfigBytes);
  auto c = switch_config::ParseSwitchConfig(text, "leaf.json");
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->ports.size(), switch_config::kMaxSwitchPorts);
  EXPECT_EQ(c->ports.front().pfc_priorities, (std::vector<std::int64_t>{0, 7}));
}

TEST(BoundedSwitchConfig, SonicPortsPastTheLimitAreAClearError) {
  const std::string text = R"({"PORT_QOS_MAP": {")" + Ports(switch_config::kMaxSwitchPorts + 1) +
                           R"(": {"pfc_enable": "3"}}})";
  auto c = switch_config::ParseSwitchConfig(text, "leaf.json");
  ASSERT_FALSE(c.ok());
  EXPECT_THAT(c.error().message, HasSubstr("leaf.json: /PORT_QOS_MAP/Ethernet0,"));
  EXPECT_THAT(c.error().message, HasSubstr("more than 8192 ports; roce-lint reads at most that many of one switch"));
  // A QUEUE key names ports too.
  auto q = switch_config::ParseSwitchConfig(
      R"({"QUEUE": {")" + Ports(switch_config::kMaxSwitchPorts + 1) + R"(|3": {}}})", "leaf.json");
  ASSERT_FALSE(q.ok());
  EXPECT_THAT(q.error().message, HasSubstr("more than 8192 ports"));
}

// Reproduction 2: NVUE keys " 3", "\t3", " \t3" were distinct keys for priority 3, and the
// profile was walked again for every interface (5.8 MB: an hour). A second spelling of one
// number is now an error, as a repeated key is.
TEST(BoundedSwitchConfig, NvueKeysThatReadAsOneNumberAreAnError) {
  std::string keys = R"("3": {})";
  for (std::size_t i = 1; i < 20000; ++i)  // distinct keys (a repeated key is refused before), each blanks and 3
    keys += R"(, ")" + std::string(i % 40 + 1, ' ') + Repeat("\\t", i / 40) + "3" + R"(": {})";
  std::string interfaces;
  for (int i = 0; i < 5000; ++i)
    interfaces += (i ? "," : "") + std::string(R"("swp)") + std::to_string(i) + R"(": {"qos": {"pfc": {"profile": "p"}}})";
  const std::string text = R"({"set": {"qos": {"pfc": {"p": {"switch-priority": {)" + keys +
                           R"(}}}}, "interface": {)" + interfaces + "}}}";
  auto c = switch_config::ParseSwitchConfig(text, "sw.json");
  ASSERT_FALSE(c.ok());
  // nlohmann-json keeps an object's keys sorted: the two first in that order are named, escaped.
  EXPECT_THAT(c.error().message, HasSubstr("sw.json: /set/qos/pfc/p/switch-priority/ \\t\\t"));
  EXPECT_THAT(c.error().message, HasSubstr("\" is the number 3 again (key \" \\x09\\x09"));
  EXPECT_EQ(c.error().message.find('\t'), std::string::npos);
  // Tab and blanks mixed, SONiC's number maps too.
  auto sonic = switch_config::ParseSwitchConfig(R"({"DSCP_TO_TC_MAP": {"AZURE": {"26": "3", "\t26": "3"}}})", "leaf.json");
  ASSERT_FALSE(sonic.ok());
  EXPECT_THAT(sonic.error().message, HasSubstr("leaf.json: /DSCP_TO_TC_MAP/AZURE/26: key \"26\" is the number 26 again (key \"\\x0926\")"));
}

// Every interface of the most a switch may have names the same profiles: each combination is
// resolved once, and the answer is the profile's for each.
TEST(BoundedSwitchConfig, NvueManyInterfacesShareOneResolution) {
  std::string interfaces;
  for (std::size_t i = 0; i < switch_config::kMaxSwitchPorts; ++i)
    interfaces += (i ? "," : "") + std::string(R"("swp)") + std::to_string(i) +
                  R"(": {"qos": {"pfc": {"profile": "p"}, "mapping": {"profile": "m"}}})";
  std::string dscp;
  for (int d = 0; d < 64; ++d) dscp += (d ? "," : "") + std::string("\"") + std::to_string(d) + R"(": {"switch-priority": 3})";
  const std::string qos = R"("qos": {"pfc": {"p": {"switch-priority": {"3": {}, "4": {}}}}, "mapping": {"m": {"dscp": {)" + dscp + "}}}}";
  auto c = switch_config::ParseSwitchConfig(R"({"set": {)" + qos + R"(, "interface": {)" + interfaces + "}}}", "sw.json");
  ASSERT_TRUE(c.ok()) << c.error().message;
  ASSERT_EQ(c->ports.size(), switch_config::kMaxSwitchPorts);
  for (const auto& p : c->ports) {
    ASSERT_EQ(p.pfc_priorities, (std::vector<std::int64_t>{3, 4}));
    ASSERT_EQ((*p.dscp_priority)[26], 3);
  }
  auto over = switch_config::ParseSwitchConfig(
      R"({"set": {)" + qos + R"(, "interface": {)" + interfaces + R"(, "swp99999": {}}}})", "sw.json");
  ASSERT_FALSE(over.ok());
  EXPECT_THAT(over.error().message, HasSubstr("sw.json: /set/interface/"));
  EXPECT_THAT(over.error().message, HasSubstr("more than 8192 ports"));
}

// Duplicate JSON keys, reported as the plan loader reports them, in every JSON a switch gives.
TEST(BoundedSwitchConfig, RepeatedJsonKeysAreReportedAsThePlanLoaderDoes) {
  auto c = switch_config::ParseSwitchConfig("{\"PORT\": {\"Ethernet0\": {\"alias\": \"a\",\n  \"alias\": \"b\"}}}", "leaf.json");
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().message,
            "leaf.json: /PORT/Ethernet0: key \"alias\" appears twice in one object (first at 1:25, again at 2:3); only "
            "the last one counts");
  // An escaped spelling of the same key is the same key.
  auto escaped = switch_config::ParseSwitchConfig(R"({"PORT": {"E0": {}, "\u00450": {}}})", "leaf.json");
  ASSERT_FALSE(escaped.ok());
  EXPECT_THAT(escaped.error().message, HasSubstr("/PORT: key \"E0\" appears twice"));
  auto profiles = switch_config::ParseCounterProfiles(
      R"({"profiles": [{"name": "a", "name": "b", "switch_label": "s", "port_label": "p", "series": [{"metric": "m", "direction": "rx", "priority": 1}]}]})",
      "profiles.json");
  ASSERT_FALSE(profiles.ok());
  EXPECT_THAT(profiles.error().message, HasSubstr("profiles.json: /profiles/0: key \"name\" appears twice in one object"));
}

// Reproduction 3: one sample of 150k labels compared each label with every earlier one (40k:
// 2.8 s a query). The sample is now skipped past kMaxLabelsPerSample, and counted.
TEST(BoundedQueryAnswer, ASampleOfManyLabelsIsSkippedAndCounted) {
  std::string labels = R"("__name__": "roce_port_state", "instance": "n1")";
  for (int i = 0; i < 150000; ++i) labels += R"(, "l)" + std::to_string(i) + R"(": "v")";
  const std::string body = R"({"status": "success", "data": {"resultType": "vector", "result": [{"metric": {)" + labels +
                           R"(}, "value": [1, "4"]}, {"metric": {"__name__": "roce_port_state", "instance": "n2", "port": "1"}, "value": [1, "4"]}]}})";
  auto a = observe::ParseVectorAnswer(body, "query http://store");
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->samples, 1u);
  EXPECT_EQ(a->skipped_over_limits, 1u);
  EXPECT_EQ(a->texts.count("n1"), 0u);
  EXPECT_EQ(a->texts.at("n2"), "roce_port_state{instance=\"n2\",port=\"1\"} 4\n");
}

TEST(BoundedQueryAnswer, RepeatedLabelsAreFoundBySortingAndLimitsHold) {
  // The same label twice (the SAX parser reports both): the sample is skipped.
  auto a = observe::ParseVectorAnswer(
      R"({"status": "success", "data": {"resultType": "vector", "result": [{"metric": {"__name__": "m", "instance": "n1", "a": "1", "a": "2"}, "value": [1, "1"]}]}})",
      "q");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->samples, 0u);
  // A value past kMaxLabelValueBytes.
  auto b = observe::ParseVectorAnswer(
      R"({"status": "success", "data": {"resultType": "vector", "result": [{"metric": {"__name__": "m", "instance": "n1", "a": ")" +
          std::string(observe::kMaxLabelValueBytes + 1, 'x') + R"("}, "value": [1, "1"]}]}})",
      "q");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->samples, 0u);
  EXPECT_EQ(b->skipped_over_limits, 1u);
}

TEST(BoundedQueryAnswer, MoreSeriesThanTheLimitIsAClearError) {
  std::string body = R"({"status": "success", "data": {"resultType": "vector", "result": [)";
  for (std::size_t i = 0; i <= observe::kMaxSeriesPerQuery; ++i)
    body += std::string(i ? "," : "") + R"({"metric": {"__name__": "m", "instance": "n", "i": ")" + std::to_string(i) +
            R"("}, "value": [1, "1"]})";
  body += "]}}";
  auto a = observe::ParseVectorAnswer(body, "query http://store");
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.error().message,
            "query http://store: more than 1000000 series in one answer; roce-lint reads at most that many (docs/security.md)");
}

// --timeout bounds the reading of the answer too.
TEST(BoundedQueryAnswer, AnAnswerReadPastItsDeadlineIsAnError) {
  std::string body = R"({"status": "success", "data": {"resultType": "vector", "result": [)";
  for (int i = 0; i < 10000; ++i)
    body += std::string(i ? "," : "") + R"({"metric": {"__name__": "m", "instance": "n"}, "value": [1, "1"]})";
  body += "]}}";
  observe::AnswerOptions late;
  late.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  auto a = observe::ParseVectorAnswer(body, "query http://store", late);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.error().message, "query http://store: answer not read within the query's timeout (--timeout)");
  observe::AnswerOptions in_time;
  in_time.deadline = std::chrono::steady_clock::now() + std::chrono::hours(1);
  EXPECT_TRUE(observe::ParseVectorAnswer(body, "q", in_time).ok());
}

// Reproduction 4's memory: the switch ports kept are capped.
TEST(BoundedSwitchPauses, PortsPastTheLimitAreRefused) {
  switch_config::SwitchPauses pauses;
  for (std::size_t i = 0; i < switch_config::kMaxSwitchPausePorts; ++i)
    ASSERT_TRUE(pauses.Add("leaf" + std::to_string(i / 128), "Ethernet" + std::to_string(i % 128), 3,
                           switch_config::PauseDirection::kRx, 1, "p"));
  EXPECT_FALSE(pauses.Add("leaf-new", "Ethernet0", 3, switch_config::PauseDirection::kRx, 1, "p"));
  EXPECT_TRUE(pauses.Add("leaf0", "Ethernet0", 4, switch_config::PauseDirection::kTx, 1, "p"));  // a known port
  EXPECT_EQ(pauses.size(), switch_config::kMaxSwitchPausePorts);
}

Finding Unplanned(std::size_t i, std::string device) {
  Finding f;
  f.check = "inventory.unplanned-device";
  f.severity = Severity::kWarning;
  f.node = "gpu-01";
  f.device = std::move(device);
  f.message = "device " + f.device + " is not in the plan";
  f.expected = std::to_string(i);
  return f;
}

// Reproduction 5's memory: 20k new devices a run with Alertmanager down grew the pending
// resolutions every run. Alerts and pending resolutions are capped, and said so.
TEST(BoundedAlertmanager, AlertsAndPendingResolutionsStayWithinTheirLimits) {
  serve::AlertmanagerPusher pusher(serve::AlertmanagerOptions{});
  const auto now = std::chrono::system_clock::now();
  for (int run = 0; run < 5; ++run) {
    std::vector<Finding> open;
    for (std::size_t i = 0; i < 20000; ++i) open.push_back(Unplanned(i, "x" + std::to_string(run) + "_" + std::to_string(i)));
    serve::PushResult r = pusher.Push(open, now);
    EXPECT_EQ(r.firing, serve::kMaxAlerts);
    EXPECT_EQ(r.not_sent, 20000 - (serve::kMaxAlerts - 1));
    EXPECT_LE(pusher.pending_resolutions(), serve::kMaxPendingResolutions);
  }
  EXPECT_EQ(pusher.pending_resolutions(), serve::kMaxPendingResolutions);
  EXPECT_GT(pusher.resolutions_dropped_total(), 0);
  const std::string body = pusher.Body(now);
  EXPECT_THAT(body, HasSubstr(R"("alertname":"RoCELintAlertsTruncated")"));
  EXPECT_THAT(body, HasSubstr("18001 of 20000 findings were not sent as alerts"));
  EXPECT_LE(body.size(), 2 * (serve::kMaxAlerts + serve::kMaxPendingResolutions) * 1024);
}

// Names reach Alertmanager's labels through its escape: no bidi override, no ESC.
TEST(BoundedAlertmanager, DeviceNamesAreEscapedInLabelsAndAnnotations) {
  serve::AlertmanagerPusher pusher(serve::AlertmanagerOptions{});
  const auto now = std::chrono::system_clock::now();
  (void)pusher.Push({Unplanned(0, "x2_0\u202e\x1b[2J" + std::string(5000, 'y'))}, now);
  const std::string body = pusher.Body(now);
  EXPECT_THAT(body, Not(HasSubstr("\u202e")));
  EXPECT_THAT(body, Not(HasSubstr("\x1b")));
  EXPECT_THAT(body, Not(HasSubstr("\\u001b")));
  EXPECT_THAT(body, HasSubstr(R"("device":"x2_0\\u{202e}\\x1b[2Jyyy)"));
  EXPECT_THAT(body, Not(HasSubstr(std::string(1100, 'y'))));  // cut at its limit
}

}  // namespace
}  // namespace rocewatch::lint
