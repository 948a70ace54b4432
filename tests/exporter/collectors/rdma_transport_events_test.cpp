// roce_transport_events_total (exporter/collectors/rdma/transport_events.cpp): a port's hw
// counters by meaning, from the table of the driver the kernel reports for the device. The
// expected events are typed here from each driver's kernel source (the counter tables cited in
// exporter/drivers/<name>/tables.cpp), not read from the exporter's tables.

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "exporter/collectors/rdma/transport_events.h"
#include "exporter/metrics/metric_sink.h"

namespace rocewatch {
namespace {

// Keeps "device/port/event" -> value; a series served twice fails.
class EventSink final : public metrics::MetricSink {
 public:
  void Add(const metrics::MetricSpec& spec, std::initializer_list<std::string_view> values, double value) override {
    ASSERT_EQ(spec.name, "roce_transport_events_total");
    ASSERT_EQ(values.size(), 3u);
    auto it = values.begin();
    std::string key = std::string(*it++) + "/";
    key += std::string(*it++) + "/";
    key += std::string(*it);
    EXPECT_TRUE(events.emplace(key, value).second) << "served twice: " << key;
  }
  std::map<std::string, double> events;
};

DeviceSnapshot Device(std::string name, std::string driver,
                      const std::vector<std::pair<std::string, double>>& counters) {
  DeviceSnapshot d;
  d.name = std::move(name);
  d.driver = std::move(driver);
  PortSnapshot p;
  p.number = 1;
  auto names = std::make_shared<std::vector<std::string>>();
  for (const auto& [n, v] : counters) {
    names->push_back(n);
    p.hw_counters.values.push_back(v);
  }
  p.hw_counters.names = std::move(names);
  d.ports.push_back(std::move(p));
  return d;
}

std::map<std::string, double> Render(const DeviceSnapshot& d) {
  EventSink sink;
  collectors::RenderTransportEvents(d, sink);
  return sink.events;
}

TEST(RdmaTransportEvents, Mlx5CountersByMeaning) {
  // drivers/infiniband/hw/mlx5/counters.c names; rx_write_requests has no event.
  const auto events = Render(Device("mlx5_0", "mlx5_core",
                                    {{"rx_write_requests", 8},
                                     {"np_cnp_sent", 11},
                                     {"rp_cnp_handled", 12},
                                     {"np_ecn_marked_roce_packets", 13},
                                     {"out_of_sequence", 14},
                                     {"duplicate_request", 15},
                                     {"packet_seq_err", 16},
                                     {"local_ack_timeout_err", 17},
                                     {"roce_adp_retrans", 18},
                                     {"req_transport_retries_exceeded", 19},
                                     {"rnr_nak_retry_err", 20},
                                     {"req_rnr_retries_exceeded", 21},
                                     {"implied_nak_seq_err", 22}}));
  const std::map<std::string, double> expected = {
      {"mlx5_0/1/cnp_sent", 11},          {"mlx5_0/1/cnp_handled", 12},
      {"mlx5_0/1/ecn_marked", 13},        {"mlx5_0/1/out_of_sequence", 14},
      {"mlx5_0/1/duplicate_request", 15}, {"mlx5_0/1/sequence_error_nak", 16},
      {"mlx5_0/1/local_ack_timeout", 17}, {"mlx5_0/1/retransmits", 18},
      {"mlx5_0/1/retry_exceeded", 19},    {"mlx5_0/1/rnr_nak_received", 20},
      {"mlx5_0/1/rnr_retry_exceeded", 21}, {"mlx5_0/1/implied_nak_sequence_error", 22}};
  EXPECT_EQ(events, expected);  // cnp_ignored: rp_cnp_ignored was not read, so no series
}

TEST(RdmaTransportEvents, BnxtReBothSpellingsOneSeries) {
  // bnxt_re hw_counters.c: 6.4's rx_cnp_pkts and a later kernel's rp_cnp_handled mean the same;
  // a device printing both serves the first.
  const auto events = Render(Device("bnxt_re0", "bnxt_en",
                                    {{"active_qps", 3},
                                     {"tx_cnp_pkts", 5},
                                     {"rx_cnp_pkts", 6},
                                     {"rp_cnp_handled", 99},
                                     {"rx_ecn_marked_pkts", 7},
                                     {"to_retransmits", 8},
                                     {"seq_err_naks_rcvd", 9},
                                     {"max_retry_exceeded", 10},
                                     {"rnr_naks_rcvd", 11},
                                     {"dup_req", 12},
                                     {"oos_drop_count", 13},
                                     {"missing_resp", 14}}));
  const std::map<std::string, double> expected = {
      {"bnxt_re0/1/cnp_sent", 5},          {"bnxt_re0/1/cnp_handled", 6},
      {"bnxt_re0/1/ecn_marked", 7},        {"bnxt_re0/1/local_ack_timeout", 8},
      {"bnxt_re0/1/sequence_error_nak", 9}, {"bnxt_re0/1/retry_exceeded", 10},
      {"bnxt_re0/1/rnr_nak_received", 11}, {"bnxt_re0/1/duplicate_request", 12},
      {"bnxt_re0/1/out_of_sequence", 13}};
  EXPECT_EQ(events, expected);
}

TEST(RdmaTransportEvents, IrdmaAndRxe) {
  // irdma verbs.c gen2 names; the TCP counter RetransSegs is iWARP's, no RoCE event.
  EXPECT_EQ(Render(Device("irdma0", "ice",
                          {{"cnpSent", 1}, {"cnpHandled", 2}, {"cnpIgnored", 3}, {"RxECNMrkd", 4},
                           {"RetransSegs", 5}, {"ip4InOctets", 6}})),
            (std::map<std::string, double>{{"irdma0/1/cnp_sent", 1},
                                           {"irdma0/1/cnp_handled", 2},
                                           {"irdma0/1/cnp_ignored", 3},
                                           {"irdma0/1/ecn_marked", 4}}));
  // rxe_hw_counters.c.
  EXPECT_EQ(Render(Device("rxe0", "rdma_rxe",
                          {{"sent_pkts", 1}, {"duplicate_request", 2}, {"out_of_seq_request", 3},
                           {"rcvd_rnr_err", 4}, {"rcvd_seq_err", 5}, {"retry_exceeded_err", 6},
                           {"retry_rnr_exceeded_err", 7}, {"completer_retry_err", 8}})),
            (std::map<std::string, double>{{"rxe0/1/duplicate_request", 2},
                                           {"rxe0/1/out_of_sequence", 3},
                                           {"rxe0/1/rnr_nak_received", 4},
                                           {"rxe0/1/sequence_error_nak", 5},
                                           {"rxe0/1/retry_exceeded", 6},
                                           {"rxe0/1/rnr_retry_exceeded", 7},
                                           {"rxe0/1/retransmits", 8}}));
}

TEST(RdmaTransportEvents, TheKernelsDriverChoosesNotTheName) {
  // mlx5's names on a device whose driver has no table, or none reported: nothing by meaning
  // (roce_hw_stat_total still serves them raw).
  const std::vector<std::pair<std::string, double>> mlx5_names = {{"np_cnp_sent", 1}, {"out_of_sequence", 2}};
  EXPECT_TRUE(Render(Device("x0", "hns3", mlx5_names)).empty());
  EXPECT_TRUE(Render(Device("x0", "", mlx5_names)).empty());
  // bnxt_re's names under mlx5: mlx5's table knows none of them.
  EXPECT_TRUE(Render(Device("mlx5_0", "mlx5_core", {{"rx_cnp_pkts", 1}, {"to_retransmits", 2}})).empty());
}

TEST(RdmaTransportEvents, AnUnreadValueIsNoSeries) {
  // NaN: the read failed this pass (bnxt_re answers EINVAL for some): absent, never 0.
  const auto events = Render(Device("bnxt_re0", "bnxt_en", {{"tx_cnp_pkts", std::nan("")}, {"rx_cnp_pkts", 4}}));
  EXPECT_EQ(events, (std::map<std::string, double>{{"bnxt_re0/1/cnp_handled", 4}}));
}

}  // namespace
}  // namespace rocewatch
