// verify's counters on every driver: the scrapes before and after a test read through
// ReadNicCounters, with the driver's own hw counter names served by meaning in
// roce_transport_events_total (Soft-RoCE's completer_retry_err and duplicate_request rose
// during a verify run on two rxe devices while the report said 0 retransmissions and PASS), an
// exporter older than that family read through mlx5's names on mlx5 only, and a device whose
// retransmissions nothing counts judged "not counted", never "none".

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "lint/observe/exposition.h"
#include "lint/observe/node_view.h"
#include "lint/plan/load.h"
#include "lint/verify/judge.h"
#include "lint/verify/pair_counters.h"
#include "rocewatch/read_file.h"

namespace rocewatch::lint::verify {
namespace {

using ::testing::HasSubstr;

// The families ReadNicCounters reads for one device, as its exporter serves them: identity,
// the raw hw counters and (when `events`) the same by meaning.
struct Served {
  std::string device, driver;
  std::vector<std::tuple<std::string, std::string, double>> hw;  // counter, event, value
  bool events = true;
};

std::string Text(const Served& s, double scale) {
  const std::string dp = "device=\"" + s.device + "\",port=\"1\"";
  std::string t = "roce_device_info{device=\"" + s.device + "\",fw_version=\"\",driver=\"" + s.driver + "\"} 1\n";
  t += "# TYPE roce_hw_stat_total counter\n";
  for (const auto& [counter, event, value] : s.hw)
    t += "roce_hw_stat_total{" + dp + ",counter=\"" + counter + "\"} " + std::to_string(value * scale) + "\n";
  if (s.events) {
    t += "# TYPE roce_transport_events_total counter\n";
    for (const auto& [counter, event, value] : s.hw)
      t += "roce_transport_events_total{" + dp + ",event=\"" + event + "\"} " + std::to_string(value * scale) + "\n";
  }
  return t;
}

// The counters of NIC `device` (netdev eth1) over a 10 s test between two scrapes' texts.
NicCounters CountersBetween(const std::string& before_text, const std::string& after_text,
                            const std::string& device) {
  auto before = observe::Exposition::Parse(before_text);
  auto after = observe::Exposition::Parse(after_text);
  EXPECT_TRUE(before.ok() && after.ok());
  observe::NodeView view("n1", "test");
  view.SetMetrics(std::move(*after));
  auto increase = observe::ComputeIncrease(*before, *view.metrics());
  EXPECT_TRUE(increase.ok());
  view.SetIncrease(std::move(*increase), 10);
  plan::Nic nic;
  nic.ib_dev = device;
  nic.netdev = "eth1";
  return ReadNicCounters(view, nullptr, nic);
}

// The counters of `s`'s NIC over a 10 s test, every counter doubled from the scrape before.
NicCounters Counters(const Served& s) { return CountersBetween(Text(s, 1), Text(s, 2), s.device); }

// rdma_rxe's counters (drivers/infiniband/sw/rxe/rxe_hw_counters.c).
Served Rxe() {
  return {"rxe0", "",
          {{"completer_retry_err", "retransmits", 40}, {"duplicate_request", "duplicate_request", 31},
           {"out_of_seq_request", "out_of_sequence", 0}, {"rcvd_seq_err", "sequence_error_nak", 0},
           {"retry_exceeded_err", "retry_exceeded", 0}}};
}

TEST(VerifyVendors, SoftRoceRetransmissionsAreCountedByMeaning) {
  NicCounters c = Counters(Rxe());
  ASSERT_TRUE(c.observed) << c.error;
  EXPECT_TRUE(c.transport_counted);
  EXPECT_EQ(c.transport_errors, (std::map<std::string, double>{{"retransmits", 40}, {"duplicate_request", 31}}));
}

TEST(VerifyVendors, BroadcomCnpsAndTimeoutsAreReadByMeaning) {
  // bnxt_re's hw stats (drivers/infiniband/hw/bnxt_re/hw_counters.c).
  NicCounters c = Counters({"bnxt_re0", "bnxt_en",
                            {{"tx_cnp_pkts", "cnp_sent", 700}, {"rx_cnp_pkts", "cnp_handled", 500},
                             {"to_retransmits", "local_ack_timeout", 3}, {"dup_req", "duplicate_request", 0}}});
  EXPECT_TRUE(c.transport_counted);
  EXPECT_EQ(c.cnp_sent, 700);
  EXPECT_EQ(c.cnp_handled, 500);
  EXPECT_EQ(c.transport_errors, (std::map<std::string, double>{{"local_ack_timeout", 3}}));
}

TEST(VerifyVendors, BroadcomPfcFramesOnAPriorityWithoutPfcAreSeen) {
  // bnxt_en counts every PFC frame naming a priority, XON included (rx_pfc_ena_frames_pri5 in
  // bnxt_ethtool.c), served as roce_pfc_frames_total: no roce_pfc_pause_frames_total at all.
  auto text = [](int frames) {
    return "roce_device_info{device=\"bnxt_re0\",driver=\"bnxt_en\"} 1\n"
           "# TYPE roce_pfc_frames_total counter\n"
           "roce_pfc_frames_total{netdev=\"eth1\",direction=\"rx\",priority=\"5\"} " +
           std::to_string(frames) + "\n";
  };
  NicCounters c = CountersBetween(text(100), text(160), "bnxt_re0");
  ASSERT_TRUE(c.observed) << c.error;
  EXPECT_EQ(c.pause_frames, (std::map<std::string, double>{{"rx 5", 60}}));
  EXPECT_EQ(c.pause_family.at("rx 5"), "roce_pfc_frames_total");
}

TEST(VerifyVendors, AnOlderExporterIsReadThroughMlx5NamesOnMlx5Only) {
  Served mlx5{"mlx5_0", "mlx5_core",
              {{"np_cnp_sent", "cnp_sent", 9}, {"rp_cnp_handled", "cnp_handled", 8},
               {"out_of_sequence", "out_of_sequence", 12}, {"roce_adp_retrans", "retransmits", 4}},
              false};
  NicCounters c = Counters(mlx5);
  EXPECT_TRUE(c.transport_counted);
  EXPECT_EQ(c.cnp_sent, 9);
  EXPECT_EQ(c.transport_errors, (std::map<std::string, double>{{"out_of_sequence", 12}, {"retransmits", 4}}));
  Served rxe = Rxe();
  rxe.events = false;
  NicCounters r = Counters(rxe);
  EXPECT_FALSE(r.transport_counted);
  EXPECT_TRUE(r.transport_errors.empty());
}

TEST(VerifyVendors, RetransmissionsNobodyCountsAreJudgedNotCountedNotNone) {
  // irdma counts CNPs and ECN marks, no retransmissions (drivers/infiniband/hw/irdma/verbs.c).
  NicCounters ice = Counters({"irdma0", "ice", {{"cnpSent", "cnp_sent", 5}, {"RxECNMrkd", "ecn_marked", 6}}});
  EXPECT_FALSE(ice.transport_counted);
  auto loaded = plan::LoadPlanText(R"({"cluster": "t", "profiles": {"p": {"link_speed_gbps": 100}},
    "nodes": [{"name": "n1", "management_ip": "127.0.0.1", "nics": [
       {"ib_dev": "irdma0", "netdev": "eth1", "profile": "p", "roce_ip": "10.10.0.1/24", "rail": 0}]},
      {"name": "n2", "management_ip": "127.0.0.2", "nics": [
       {"ib_dev": "rxe0", "netdev": "eth1", "profile": "p", "roce_ip": "10.10.0.2/24", "rail": 0}]}]})",
                                   "plan.json");
  ASSERT_TRUE(loaded.ok());
  const plan::Plan& plan = loaded->plan;
  auto pairs = PairsFromPlan(plan, PairMode::kRail);
  ASSERT_EQ(pairs.size(), 1u);
  auto text = ReadFileCapped(std::string(ROCEWATCH_TEST_DATA) + "/fixtures/real/perftest/ib-gpu-blog-write-bw-gbits-ib.txt", 1 << 20);
  ASSERT_TRUE(text.ok());
  PerftestRun run;
  run.outcome = PerftestRun::Outcome::kRan;
  JudgeInput in;
  in.plan = &plan;
  in.pair = pairs[0];
  in.thresholds = ThresholdsFor(plan.profiles.at("p"));
  in.tool = "ib_write_bw";
  in.run = &run;
  in.client_output = ParsePerftestOutput(*text);
  const bool irdma_is_server = plan.nodes[pairs[0].server.node].nics[0].ib_dev == "irdma0";
  (irdma_is_server ? in.server_counters : in.client_counters) = ice;
  (irdma_is_server ? in.client_counters : in.server_counters) = Counters(Rxe());
  PairResult r = Judge(in);
  std::vector<const Verdict*> retx;
  for (const auto& v : r.verdicts)
    if (v.check == "verify.retransmissions") retx.push_back(&v);
  ASSERT_EQ(retx.size(), 2u);
  for (const Verdict* v : retx) {
    EXPECT_EQ(v->counter,
              "roce_transport_events_total{event=~\"retransmits|local_ack_timeout|sequence_error_nak|"
              "implied_nak_sequence_error|out_of_sequence|duplicate_request|retry_exceeded|rnr_retry_exceeded\"}");
    if (v->nic.find("irdma0") != std::string::npos) {
      EXPECT_EQ(v->found, "not counted");
      EXPECT_THAT(v->message, HasSubstr("retransmissions not counted"));
    } else {
      // rxe0: 71 in 10 s is 7.1/s, over the default limit of 1/s.
      EXPECT_FALSE(v->passed);
      EXPECT_EQ(v->found, "7.1/s");
      EXPECT_THAT(v->message, HasSubstr("duplicate_request +31, retransmits +40"));
    }
  }
}

}  // namespace
}  // namespace rocewatch::lint::verify
