#pragma once

// The RoCE transport events roce-lint judges, for every driver: the exporter's
// roce_transport_events_total{device,port,event} (docs/metrics.md "Drivers"), where
// each driver's own hw counters are sorted by meaning (mlx5 out_of_sequence and rxe
// out_of_seq_request are both `out_of_sequence`). counters.transport-errors and
// verify.retransmissions read them here, the one list of the events they judge.
//
// An exporter that serves no roce_transport_events_total for a device (one older than the
// family) is read through the raw roce_hw_stat_total names of mlx5, and only when the kernel
// reports mlx5_core for the device (nic_driver.h): other drivers' names are not guessed.

#include <string>
#include <string_view>
#include <vector>

#include "lint/observe/node_view.h"

namespace rocewatch::lint::checks::counters {

// What an event says (CONTRACT: "retransmission evidence", "transport errors").
enum class TransportEventKind {
  kRetransmission,  // a packet was lost or resent: retransmits, timeouts, NAKs, duplicates, out of sequence
  kTransportError,  // a QP ran out of retries: the connection (and the job) failed
  kCongestion,      // CNPs and ECN marks: congestion control at work, not an error
};

// Where a device's transport events were read from.
enum class TransportSource {
  kEvents,          // roce_transport_events_total
  kMlx5HwCounters,  // an exporter without it, mlx5: the raw hw counter names
  kNotServed,       // neither: the events are not counted for this device
};

struct TransportIncrease {
  std::string_view event;  // the `event` label: "retransmits", "out_of_sequence", …
  TransportEventKind kind;
  double increase;
};

struct TransportIncreases {
  TransportSource source = TransportSource::kNotServed;
  // Each event the source has a series for, in the vocabulary's order, with its increase over
  // the window (0 included).
  std::vector<TransportIncrease> events;

  // True when the source has a series of at least one judged event: retransmissions are
  // counted (an Intel E810's irdma counts CNPs only; rxe, bnxt_re and mlx5 count them).
  bool CountsJudged() const;
  // The increase of `event`, 0 when not served.
  double Of(std::string_view event) const;
  // The increases of the events that are judged (retransmission evidence and transport
  // errors) and grew, in order.
  std::vector<TransportIncrease> JudgedThatGrew() const;
};

// The events judged (retransmission evidence, then transport errors), in the vocabulary's order.
std::vector<std::string_view> JudgedTransportEvents();

// The transport events of `device` port `port` over the view's counter window (the view must
// have one: has_increase()).
TransportIncreases ReadTransportIncreases(const observe::NodeView& view, std::string_view device,
                                          std::string_view port);

}  // namespace rocewatch::lint::checks::counters
