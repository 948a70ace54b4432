// Counters: what grew over the observation window (two scrapes, consecutive
// runs of `serve`, or increase() through Prometheus). Without a window these
// checks are skipped, never guessed.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "lint/checks/check.h"
#include "lint/checks/observed.h"
#include "lint/checks/specs.h"

namespace rocewatch::lint::checks {
namespace {

// hw counters that count RoCE transport trouble (retransmissions, sequence errors, timeouts).
constexpr const char* kTransportCounters[] = {
    "out_of_sequence",     "packet_seq_err", "implied_nak_seq_err", "roce_adp_retrans",
    "roce_adp_retrans_to", "local_ack_timeout_err", "req_transport_retries_exceeded",
    "rnr_nak_retry_err"};

std::string PerSecond(double increase, double window) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4g/s", window > 0 ? increase / window : increase);
  return buf;
}

std::string Window(double seconds) { return FormatNumber(seconds) + " s"; }

}  // namespace

void CheckCounters(const NicContext& c, FindingSink& sink) {
  const auto& v = c.view;
  if (!v.has_increase()) return;
  const double w = v.window_seconds();
  const std::string& nd = c.nic.netdev;
  const std::string& dev = c.nic.ib_dev;

  // Pause frames on priorities without PFC: something sends PFC for a class
  // that should be lossy (a switch or peer with another QoS plan).
  auto pfc = EnabledPriorities(v, "roce_pfc_enabled", nd);
  if (pfc) {
    // mlx5's ethtool stats list only the priorities with PFC enabled; dcbnl
    // counts all eight (the same counters on mlx5): take the larger per priority.
    std::map<std::string, double> per_priority;
    for (const char* family : {"roce_pfc_pause_frames_total", "roce_dcb_pfc_pause_frames_total"}) {
      std::map<std::string, double> counted;
      for (const auto& s : v.SelectIncrease(family, {{"netdev", nd}}))
        counted[std::string(s.Label("priority"))] += s.value();
      for (const auto& [prio, inc] : counted) per_priority[prio] = std::max(per_priority[prio], inc);
    }
    for (const auto& [prio, inc] : per_priority) {
      bool enabled = false;
      for (auto p : *pfc) enabled = enabled || std::to_string(p) == prio;
      if (enabled || inc <= 0) continue;
      sink.Nic(kPauseNonPfc, c, "no pause frames on priority " + prio, FormatNumber(inc) + " in " + Window(w),
               nd + " saw " + FormatNumber(inc) + " pause frames on priority " + prio +
                   ", which has no PFC here (" + PerSecond(inc, w) + ").",
               "compare the switch port's PFC/QoS config with the plan; mlnx_qos -i " + nd);
    }
  }
  // Pause storms: the NIC's own storm detector, or a priority paused most of the time.
  double storms = 0;
  for (const char* m : {"roce_ethtool_tx_pause_storm_warning_events_total", "roce_ethtool_tx_pause_storm_error_events_total"})
    storms += v.Increase(m, {{"netdev", nd}}).value_or(0);
  double worst_paused = 0;
  std::string worst;
  for (const auto& s : v.SelectIncrease("roce_pfc_pause_duration_seconds_total", {{"netdev", nd}})) {
    if (w > 0 && s.value() / w > worst_paused) {
      worst_paused = s.value() / w;
      worst = std::string(s.Label("direction")) + " priority " + std::string(s.Label("priority"));
    }
  }
  if (storms > 0 || worst_paused > 0.5) {
    std::string found = storms > 0 ? FormatNumber(storms) + " storm events in " + Window(w)
                                   : worst + " paused " + FormatNumber(std::round(worst_paused * 100)) + "% of the time";
    sink.Nic(kPauseStorm, c, "no pause storm", found,
             nd + " is in a PFC pause storm: " + found + "; it can stall the whole lossless fabric.",
             "find the receiver that cannot drain (ethtool -S " + nd +
                 " | grep -E 'pause|storm'); the NIC's storm guard disables PFC after the timeout");
  }
  // Discards.
  double discards = 0;
  for (const char* m : {"roce_ethtool_tx_discarded_packets_total", "roce_ethtool_rx_out_of_buffer_packets_total"})
    discards += v.Increase(m, {{"netdev", nd}}).value_or(0);
  // The per-priority discards break down the port's rx discards (mlx5
  // rx_prio<N>_discards vs rx_discards_phy): count the same packets once.
  double per_priority_discards = 0;
  for (const auto& s : v.SelectIncrease("roce_priority_discards_total", {{"netdev", nd}})) per_priority_discards += s.value();
  discards += std::max(per_priority_discards,
                       v.Increase("roce_ethtool_rx_discarded_packets_total", {{"netdev", nd}}).value_or(0));
  discards += v.Increase("roce_hw_stat_total", {{"device", dev}, {"port", c.port}, {"counter", "out_of_buffer"}}).value_or(0);
  if (discards > 0) {
    sink.Nic(kDiscards, c, "no discards", FormatNumber(discards) + " in " + Window(w),
             nd + " discarded " + FormatNumber(discards) + " packets in " + Window(w) + " (" + PerSecond(discards, w) + ").",
             "ethtool -S " + nd + " | grep -E 'discard|out_of_buffer'; check PFC on the RoCE priority and receive buffers");
  }
  // Transport errors.
  double transport = 0;
  std::string which;
  for (const char* name : kTransportCounters) {
    double inc = v.Increase("roce_hw_stat_total", {{"device", dev}, {"port", c.port}, {"counter", name}}).value_or(0);
    if (inc > 0) {
      transport += inc;
      which += (which.empty() ? "" : ", ") + std::string(name) + " +" + FormatNumber(inc);
    }
  }
  if (transport > 0) {
    sink.Nic(kTransportErrors, c, "no retransmissions or sequence errors", which,
             dev + " counted RoCE retransmissions/sequence errors in " + Window(w) + ": " + which + ".",
             "look for packet loss on the path: PFC on the RoCE priority end to end, discards, link errors");
  }
  // Link flaps.
  double flaps = 0;
  for (const char* m : {"roce_netdev_carrier_changes_total", "roce_ethtool_link_down_events_total", "roce_link_down_events_total"})
    flaps = std::max(flaps, v.Increase(m, {{"netdev", nd}}).value_or(0));
  flaps = std::max(flaps, v.Increase("roce_port_stat_total", {{"device", dev}, {"port", c.port}, {"counter", "link_downed"}}).value_or(0));
  if (flaps > 0) {
    sink.Nic(kLinkFlaps, c, "stable link", FormatNumber(flaps) + " link changes in " + Window(w),
             nd + " went down or changed carrier " + FormatNumber(flaps) + " times in " + Window(w) + ".",
             "check the cable/module and the switch port" +
                 (c.nic.switch_port ? " " + *c.nic.switch_port : std::string()) + "; ethtool -S " + nd +
                 " | grep link_down; dmesg | grep " + nd);
  }
}

}  // namespace rocewatch::lint::checks
