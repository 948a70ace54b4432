#include "lint/verify/pair_counters.h"

#include "lint/checks/counters/transport_events.h"
#include "lint/metric_contract.h"

#include <algorithm>

namespace rocewatch::lint::verify {

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
  // the larger of the two per priority and direction. bnxt_en counts every PFC frame naming a
  // priority, XON included (roce_pfc_frames_total): on a priority without PFC a resume is as
  // foreign as a pause.
  for (std::string_view family : {metric::roce_pfc_pause_frames_total, metric::roce_dcb_pfc_pause_frames_total,
                                  metric::roce_pfc_frames_total}) {
    std::map<std::string, double> counted;
    for (const auto& s : v.SelectIncrease(family, {{label::netdev, nd}}))
      counted[std::string(s.Label(label::direction)) + " " + std::string(s.Label(label::priority))] += s.value();
    for (const auto& [k, inc] : counted) {
      if (c.pause_family.count(k) != 0 && inc <= c.pause_frames[k]) continue;
      c.pause_frames[k] = inc;
      c.pause_family[k] = std::string(family);
    }
  }
  for (const auto& s : v.SelectIncrease(metric::roce_pfc_pause_duration_seconds_total, {{label::netdev, nd}}))
    c.pause_seconds[std::string(s.Label(label::direction)) + " " + std::string(s.Label(label::priority))] += s.value();
  // Per-priority discards break down the port's rx discards: the same packets once.
  double per_priority = 0;
  for (const auto& s : v.SelectIncrease(metric::roce_priority_discards_total, {{label::netdev, nd}}))
    per_priority += s.value();
  c.discards = std::max(per_priority,
                        v.Increase(metric::roce_ethtool_rx_discarded_packets_total, {{label::netdev, nd}}).value_or(0));
  for (std::string_view m : {metric::roce_ethtool_tx_discarded_packets_total, metric::roce_ethtool_rx_out_of_buffer_packets_total})
    c.discards += v.Increase(m, {{label::netdev, nd}}).value_or(0);
  c.discards += v.Increase(metric::roce_hw_stat_total, {{label::device, dev}, {label::port, port}, {label::counter, "out_of_buffer"}})
                    .value_or(0);
  for (const auto& s : v.SelectIncrease(metric::roce_priority_ecn_marked_packets_total, {{label::netdev, nd}}))
    c.ecn_marked += s.value();
  // CNPs, retransmissions and sequence errors by meaning, whatever the driver calls them.
  const auto events = checks::counters::ReadTransportIncreases(v, dev, port);
  c.cnp_sent = events.Of("cnp_sent");
  c.cnp_handled = events.Of("cnp_handled");
  c.transport_counted = events.CountsJudged();
  for (const auto& e : events.JudgedThatGrew()) c.transport_errors[std::string(e.event)] = e.increase;
  for (std::string_view m : {metric::roce_netdev_carrier_changes_total, metric::roce_ethtool_link_down_events_total,
                        metric::roce_link_down_events_total})
    c.link_flaps = std::max(c.link_flaps, v.Increase(m, {{label::netdev, nd}}).value_or(0));
  c.link_flaps = std::max(
      c.link_flaps,
      v.Increase(metric::roce_port_stat_total, {{label::device, dev}, {label::port, port}, {label::counter, "link_downed"}}).value_or(0));
  c.rx_bytes = v.Increase(metric::roce_port_received_bytes_total, {{label::device, dev}, {label::port, port}}).value_or(0);
  c.tx_bytes = v.Increase(metric::roce_port_transmitted_bytes_total, {{label::device, dev}, {label::port, port}}).value_or(0);
  if (during && during->reachable()) {
    // roce_port_state is the sysfs state id: 4 is ACTIVE.
    if (auto state = during->Value(metric::roce_port_state, {{label::device, dev}, {label::port, port}}); state && *state != 4)
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
