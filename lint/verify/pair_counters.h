#pragma once

// What a NIC's counters did during a test: the exporter scraped before and after it (and once
// while it runs, to see the link stay up), through the observe layer `check` uses, the
// difference read as counter increases (observe::AttachIncrease).

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lint/observe/node_view.h"
#include "lint/observe/observe.h"
#include "lint/plan/model.h"

namespace rocewatch::lint::verify {

struct NicCounters {
  bool observed = false;
  std::string error;          // why not (the exporter's error, a missing scrape)
  double window_seconds = 0;  // between the scrapes before and after
  // Keyed "rx 3" / "tx 3": direction and priority.
  std::map<std::string, double> pause_frames;
  // The family that counted each entry of pause_frames (bnxt_en counts PFC frames, XON included,
  // in roce_pfc_frames_total; the others pause frames).
  std::map<std::string, std::string> pause_family;
  std::map<std::string, double> pause_seconds;
  double discards = 0;
  double ecn_marked = 0;
  double cnp_sent = 0, cnp_handled = 0;
  // Retransmission evidence and transport errors that grew, by roce_transport_events_total's
  // event ("retransmits" -> increase; lint/checks/counters/transport_events.h).
  std::map<std::string, double> transport_errors;
  bool transport_counted = false;  // false: no retransmission event is counted for the device
  double link_flaps = 0;
  bool port_down_during = false;  // the scrape during the test saw the port not ACTIVE
  double rx_bytes = 0, tx_bytes = 0;  // RDMA port data counters
};

// The counters of `nic` from a view carrying increases (`after`, AttachIncrease'd with the
// view before), and the view during the test (may be unreachable).
NicCounters ReadNicCounters(const observe::NodeView& after, const observe::NodeView* during,
                            const plan::Nic& nic);

// Scrapes the exporters of `nodes` (plan indices) once, concurrently: one view each, in order.
std::vector<observe::NodeView> ScrapeSome(const plan::Plan& plan, const std::vector<std::size_t>& nodes,
                                          const observe::ScrapeOptions& options);

}  // namespace rocewatch::lint::verify
