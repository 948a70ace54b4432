// counters.cnp-storm: congestion notifications (DCQCN CNPs) for more than 1% of the port's
// packets over the window: as reaction point the port handled them (its senders were cut back),
// or as notification point it sent them (it receives congested traffic, e.g. incast). Names the
// jobs with QPs on the port where the exporter serves the per-job view.
//
// Read from roce_transport_events_total's cnp_handled and cnp_sent, for every driver that counts
// them (transport_events.h; an older exporter's mlx5 hw counters where the kernel reports
// mlx5_core); a driver that counts no CNPs is not judged.

#include <cmath>
#include <optional>
#include <string_view>

#include "lint/checks/counters/group.h"
#include "lint/checks/counters/transport_events.h"
#include "lint/checks/observed.h"
#include "lint/checks/specs.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::counters {
namespace {

// A storm: CNPs above this share of the port's packets in the same direction, and at least
// kMinCnps of them in the window (a handful on an idle port is no storm).
constexpr double kShare = 0.01;
constexpr double kMinCnps = 1000;

}  // namespace

void CnpStorm(const NicContext& c, FindingSink& sink) {
  const auto& v = c.view;
  if (!v.has_increase()) return;
  const std::string& dev = c.nic.ib_dev;
  const TransportIncreases events = ReadTransportIncreases(v, dev, c.port);
  auto served = [&](std::string_view event) -> std::optional<double> {
    for (const auto& e : events.events)
      if (e.event == event) return e.increase;
    return std::nullopt;
  };
  const auto handled = served("cnp_handled");
  const auto sent = served("cnp_sent");
  if (!handled && !sent) return;
  const double tx = v.Increase(metric::roce_port_transmitted_packets_total, {{label::device, dev}, {label::port, c.port}}).value_or(0);
  const double rx = v.Increase(metric::roce_port_received_packets_total, {{label::device, dev}, {label::port, c.port}}).value_or(0);
  const double h = handled.value_or(0), s = sent.value_or(0);
  // A share needs packets to be a share of: a port whose packet counters did not grow (or that
  // has none) is not judged in that direction.
  const bool reaction = tx > 0 && h >= kMinCnps && h > kShare * tx;
  const bool notification = rx > 0 && s >= kMinCnps && s > kShare * rx;
  if (!reaction && !notification) return;
  auto percent = [](double part, double whole) {
    return FormatNumber(whole > 0 ? std::round(1000 * part / whole) / 10 : 0);
  };
  const i18n::StoredArgs found_args = {{"handled", FormatNumber(h)}, {"handled_percent", percent(h, tx)},
                                       {"sent", FormatNumber(s)},    {"sent_percent", percent(s, rx)},
                                       {"window", Window(v.window_seconds())}};
  i18n::Phrase found = i18n::Phrase::Of("check.counters.cnp_storm.found", found_args);
  i18n::StoredArgs args = {{"device", dev}, {"port", c.port}};
  i18n::AddPhraseArg(args, "found", found);
  sink.Nic(kCnpStorm, c, i18n::Phrase::Of("check.counters.cnp_storm.expected", {}), std::move(found),
           WithJobsOnPort(c, i18n::Phrase::Of("check.counters.cnp_storm.message", args)),
           i18n::Phrase::Of("check.counters.cnp_storm.fix", {{"device", dev}}));
}

}  // namespace rocewatch::lint::checks::counters
