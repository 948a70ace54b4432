// counters.transport-errors: RoCE retransmissions, sequence errors, timeouts or exhausted
// retries over the window, on every driver (transport_events.h).

#include "lint/checks/counters/group.h"
#include "lint/checks/counters/transport_events.h"
#include "lint/checks/observed.h"
#include "lint/checks/specs.h"

namespace rocewatch::lint::checks::counters {

void TransportErrors(const NicContext& c, FindingSink& sink) {
  const auto& v = c.view;
  if (!v.has_increase()) return;
  const std::string& dev = c.nic.ib_dev;
  std::string which;
  for (const auto& e : ReadTransportIncreases(v, dev, c.port).JudgedThatGrew())
    which += (which.empty() ? "" : ", ") + std::string(e.event) + " +" + FormatNumber(e.increase);
  if (which.empty()) return;
  sink.Nic(kTransportErrors, c, i18n::Phrase::Of("check.counters.transport_errors.expected", {}), which,
           i18n::Phrase::Of("check.counters.transport_errors.message",
                            {{"device", dev}, {"window", Window(v.window_seconds())}, {"which", which}}),
           i18n::Phrase::Of("check.counters.transport_errors.fix", {}));
}

}  // namespace rocewatch::lint::checks::counters
