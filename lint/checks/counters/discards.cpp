// counters.discards: the NIC discarded packets over the window.

#include <algorithm>

#include "lint/checks/counters/group.h"
#include "lint/checks/observed.h"
#include "lint/checks/specs.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::counters {

void Discards(const NicContext& c, FindingSink& sink) {
  const auto& v = c.view;
  if (!v.has_increase()) return;
  const double w = v.window_seconds();
  const std::string& nd = c.nic.netdev;
  const std::string& dev = c.nic.ib_dev;
  double discards = 0;
  for (std::string_view m : {metric::roce_ethtool_tx_discarded_packets_total, metric::roce_ethtool_rx_out_of_buffer_packets_total})
    discards += v.Increase(m, {{label::netdev, nd}}).value_or(0);
  // The per-priority discards break down the port's rx discards (mlx5
  // rx_prio<N>_discards vs rx_discards_phy): count the same packets once.
  double per_priority_discards = 0;
  for (const auto& s : v.SelectIncrease(metric::roce_priority_discards_total, {{label::netdev, nd}})) per_priority_discards += s.value();
  discards += std::max(per_priority_discards,
                       v.Increase(metric::roce_ethtool_rx_discarded_packets_total, {{label::netdev, nd}}).value_or(0));
  discards += v.Increase(metric::roce_hw_stat_total, {{label::device, dev}, {label::port, c.port}, {label::counter, "out_of_buffer"}}).value_or(0);
  if (discards > 0) {
    const i18n::StoredArgs args = {
        {"netdev", nd}, {"count", FormatNumber(discards)}, {"window", Window(w)}, {"rate", PerSecond(discards, w)}};
    sink.Nic(kDiscards, c, i18n::Phrase::Of("check.counters.discards.expected", {}),
             i18n::Phrase::Of("check.counters.count_in_window", args),
             i18n::Phrase::Of("check.counters.discards.message", args),
             i18n::Phrase::Of("check.counters.discards.fix", args));
  }
}

}  // namespace rocewatch::lint::checks::counters
