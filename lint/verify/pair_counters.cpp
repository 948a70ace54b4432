#include "lint/verify/pair_counters.h"

#include <algorithm>

namespace rocewatch::lint::verify {

const std::vector<std::string>& TransportErrorCounters() {
  static const std::vector<std::string> kNames = {
      "out_of_sequence",     "packet_seq_err",        "implied_nak_seq_err",
      "roce_adp_retrans",    "roce_adp_retrans_to",   "local_ack_timeout_err",
      "req_transport_retries_exceeded", "rnr_nak_retry_err"};
  return kNames;
}

NicCounters ReadNicCounters(const observe::NodeView& v, const observe::NodeView* during,
                            const plan::Nic& nic) {
  NicCounters c;
  if (!v.reachable()) {
    c.error = v.error().empty() ? "not observed" : v.error();
    return c;
  }
  if (!v.has_increase()) {
    c.error = "no scrape before the test to compare with";
    return c;
  }
  c.observed = true;
  c.window_seconds = v.window_seconds();
  const std::string& nd = nic.netdev;
  const std::string& dev = nic.ib_dev;
  const std::string port = "1";
  // mlx5's ethtool stats list only the priorities with PFC enabled; dcbnl counts all eight:
  // the larger of the two per priority and direction.
  for (const char* family : {"roce_pfc_pause_frames_total", "roce_dcb_pfc_pause_frames_total"}) {
    std::map<std::string, double> counted;
    for (const auto& s : v.SelectIncrease(family, {{"netdev", nd}}))
      counted[std::string(s.Label("direction")) + " " + std::string(s.Label("priority"))] += s.value();
    for (const auto& [k, inc] : counted) c.pause_frames[k] = std::max(c.pause_frames[k], inc);
  }
  for (const auto& s : v.SelectIncrease("roce_pfc_pause_duration_seconds_total", {{"netdev", nd}}))
    c.pause_seconds[std::string(s.Label("direction")) + " " + std::string(s.Label("priority"))] += s.value();
  // Per-priority discards break down the port's rx discards: the same packets once.
  double per_priority = 0;
  for (const auto& s : v.SelectIncrease("roce_priority_discards_total", {{"netdev", nd}}))
    per_priority += s.value();
  c.discards = std::max(per_priority,
                        v.Increase("roce_ethtool_rx_discarded_packets_total", {{"netdev", nd}}).value_or(0));
  for (const char* m : {"roce_ethtool_tx_discarded_packets_total", "roce_ethtool_rx_out_of_buffer_packets_total"})
    c.discards += v.Increase(m, {{"netdev", nd}}).value_or(0);
  c.discards += v.Increase("roce_hw_stat_total", {{"device", dev}, {"port", port}, {"counter", "out_of_buffer"}})
                    .value_or(0);
  for (const auto& s : v.SelectIncrease("roce_priority_ecn_marked_packets_total", {{"netdev", nd}}))
    c.ecn_marked += s.value();
  auto hw = [&](const char* name) {
    return v.Increase("roce_hw_stat_total", {{"device", dev}, {"port", port}, {"counter", name}}).value_or(0);
  };
  c.cnp_sent = hw("np_cnp_sent");
  c.cnp_handled = hw("rp_cnp_handled");
  for (const auto& name : TransportErrorCounters())
    if (double inc = hw(name.c_str()); inc > 0) c.transport_errors[name] = inc;
  for (const char* m : {"roce_netdev_carrier_changes_total", "roce_ethtool_link_down_events_total",
                        "roce_link_down_events_total"})
    c.link_flaps = std::max(c.link_flaps, v.Increase(m, {{"netdev", nd}}).value_or(0));
  c.link_flaps = std::max(
      c.link_flaps,
      v.Increase("roce_port_stat_total", {{"device", dev}, {"port", port}, {"counter", "link_downed"}}).value_or(0));
  c.rx_bytes = v.Increase("roce_port_received_bytes_total", {{"device", dev}, {"port", port}}).value_or(0);
  c.tx_bytes = v.Increase("roce_port_transmitted_bytes_total", {{"device", dev}, {"port", port}}).value_or(0);
  if (during && during->reachable()) {
    // roce_port_state is the sysfs state id: 4 is ACTIVE.
    if (auto state = during->Value("roce_port_state", {{"device", dev}, {"port", port}}); state && *state != 4)
      c.port_down_during = true;
  }
  return c;
}

std::vector<observe::NodeView> ScrapeSome(const plan::Plan& plan, const std::vector<std::size_t>& nodes,
                                          const observe::ScrapeOptions& options) {
  plan::Plan some;
  some.cluster = plan.cluster;
  some.exporter_port = plan.exporter_port;
  for (std::size_t i : nodes) some.nodes.push_back(plan.nodes[i]);
  return observe::ScrapeNodes(some, options);
}

}  // namespace rocewatch::lint::verify
