// counters.transport-errors: RoCE retransmissions, sequence errors or timeouts over the window.

#include "lint/checks/counters/group.h"
#include "lint/checks/observed.h"
#include "lint/checks/specs.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::counters {
namespace {

// hw counters that count RoCE transport trouble (retransmissions, sequence errors, timeouts).
constexpr const char* kTransportCounters[] = {
    "out_of_sequence",     "packet_seq_err", "implied_nak_seq_err", "roce_adp_retrans",
    "roce_adp_retrans_to", "local_ack_timeout_err", "req_transport_retries_exceeded",
    "rnr_nak_retry_err"};

}  // namespace

void TransportErrors(const NicContext& c, FindingSink& sink) {
  const auto& v = c.view;
  if (!v.has_increase()) return;
  const double w = v.window_seconds();
  const std::string& dev = c.nic.ib_dev;
  double transport = 0;
  std::string which;
  for (const char* name : kTransportCounters) {
    double inc = v.Increase(metric::roce_hw_stat_total, {{label::device, dev}, {label::port, c.port}, {label::counter, name}}).value_or(0);
    if (inc > 0) {
      transport += inc;
      which += (which.empty() ? "" : ", ") + std::string(name) + " +" + FormatNumber(inc);
    }
  }
  if (transport > 0) {
    sink.Nic(kTransportErrors, c, i18n::Phrase::Of("check.counters.transport_errors.expected", {}), which,
             i18n::Phrase::Of("check.counters.transport_errors.message",
                              {{"device", dev}, {"window", Window(w)}, {"which", which}}),
             i18n::Phrase::Of("check.counters.transport_errors.fix", {}));
  }
}

}  // namespace rocewatch::lint::checks::counters
