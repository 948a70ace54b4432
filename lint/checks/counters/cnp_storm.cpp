// counters.cnp-storm: congestion notifications (DCQCN CNPs) for more than 1% of the port's
// packets over the window: as reaction point the port handled them (its senders were cut back),
// or as notification point it sent them (it receives congested traffic, e.g. incast). Names the
// jobs with QPs on the port where the exporter serves the per-job view.
//
// Read from the port's hw counters as mlx5 names them (rp_cnp_handled, np_cnp_sent); a driver
// that counts no CNPs there is not judged.

#include <cmath>

#include "lint/checks/counters/group.h"
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
  auto hw = [&](const char* counter) {
    return v.Increase(metric::roce_hw_stat_total, {{label::device, dev}, {label::port, c.port}, {label::counter, counter}});
  };
  const auto handled = hw("rp_cnp_handled");
  const auto sent = hw("np_cnp_sent");
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
