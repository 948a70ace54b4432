// The transport events roce-lint judges (transport_events.h).

#include "lint/checks/counters/transport_events.h"

#include "lint/checks/versions/nic_driver.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::counters {
namespace {

using K = TransportEventKind;

struct EventName {
  std::string_view event;  // roce_transport_events_total's `event`
  K kind;
  // The mlx5 hw counter (roce_hw_stat_total's `counter`) that counts the event, read only from
  // an exporter that does not serve roce_transport_events_total: the exporter's own mlx5 table
  // (docs/metrics.md), so that both give the same finding.
  std::string_view mlx5;
};

// The vocabulary roce-lint reads (docs/metrics.md "Drivers"): the events it judges
// (retransmission evidence, then transport errors) and the congestion events verify reports.
constexpr EventName kEvents[] = {
    {"retransmits", K::kRetransmission, "roce_adp_retrans"},
    {"local_ack_timeout", K::kRetransmission, "local_ack_timeout_err"},
    {"sequence_error_nak", K::kRetransmission, "packet_seq_err"},
    {"implied_nak_sequence_error", K::kRetransmission, "implied_nak_seq_err"},
    {"out_of_sequence", K::kRetransmission, "out_of_sequence"},
    {"duplicate_request", K::kRetransmission, "duplicate_request"},
    {"retry_exceeded", K::kTransportError, "req_transport_retries_exceeded"},
    {"rnr_retry_exceeded", K::kTransportError, "req_rnr_retries_exceeded"},
    {"cnp_sent", K::kCongestion, "np_cnp_sent"},
    {"cnp_handled", K::kCongestion, "rp_cnp_handled"},
    {"ecn_marked", K::kCongestion, "np_ecn_marked_roce_packets"},
};

}  // namespace

std::vector<std::string_view> JudgedTransportEvents() {
  std::vector<std::string_view> out;
  for (const auto& e : kEvents)
    if (e.kind != K::kCongestion) out.push_back(e.event);
  return out;
}

bool TransportIncreases::CountsJudged() const {
  for (const auto& e : events)
    if (e.kind != K::kCongestion) return true;
  return false;
}

double TransportIncreases::Of(std::string_view event) const {
  for (const auto& e : events)
    if (e.event == event) return e.increase;
  return 0;
}

std::vector<TransportIncrease> TransportIncreases::JudgedThatGrew() const {
  std::vector<TransportIncrease> out;
  for (const auto& e : events)
    if (e.kind != K::kCongestion && e.increase > 0) out.push_back(e);
  return out;
}

TransportIncreases ReadTransportIncreases(const observe::NodeView& view, std::string_view device,
                                          std::string_view port) {
  TransportIncreases out;
  const auto served =
      view.SelectIncrease(metric::roce_transport_events_total, {{label::device, device}, {label::port, port}});
  if (!served.empty()) {
    out.source = TransportSource::kEvents;
    for (const auto& name : kEvents) {
      bool has = false;
      double increase = 0;
      for (const auto& s : served) {
        if (s.Label(label::event) != name.event) continue;
        has = true;
        increase += s.value();
      }
      if (has) out.events.push_back({name.event, name.kind, increase});
    }
    return out;
  }
  if (!DriverOf(view, device).mlx5()) return out;  // not counted: no other driver's names are guessed
  out.source = TransportSource::kMlx5HwCounters;
  for (const auto& name : kEvents) {
    const auto increase = view.Increase(metric::roce_hw_stat_total,
                                        {{label::device, device}, {label::port, port}, {label::counter, name.mlx5}});
    if (increase) out.events.push_back({name.event, name.kind, *increase});
  }
  return out;
}

}  // namespace rocewatch::lint::checks::counters
