// link.fec-mode: the port runs another FEC encoding than the profile's fec.mode. Both ends of a
// link must run the same FEC: a mismatch with the switch port keeps the link down or erroring.

#include "lint/checks/link/group.h"
#include "lint/checks/specs.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::link {

void FecMode(const NicContext& c, FindingSink& sink) {
  const plan::Profile* p = c.profile;
  if (p == nullptr || !p->fec || !p->fec->mode) return;
  const std::string& nd = c.nic.netdev;
  // roce_fec_active_info has one series per netdev; none when the driver has no FEC or the fec
  // collector is off: nothing to compare then (inventory.collector-failing reports a failure).
  const auto active = c.view.Select(metric::roce_fec_active_info, {{label::netdev, nd}});
  if (active.empty()) return;
  const std::string found(active.front().Label(label::mode));
  if (found == *p->fec->mode) return;
  std::string configured;
  for (const auto& s : c.view.Select(metric::roce_fec_configured_info, {{label::netdev, nd}})) {
    configured += (configured.empty() ? "" : " ") + std::string(s.Label(label::mode));
  }
  const i18n::StoredArgs args = {{"netdev", nd},
                                 {"found", found},
                                 {"configured", configured.empty() ? "none" : configured},
                                 {"expected", *p->fec->mode},
                                 {"switch_port", c.nic.switch_port ? " " + *c.nic.switch_port : std::string()}};
  sink.Nic(kFecMode, c, "FEC " + *p->fec->mode, "FEC " + found, i18n::Phrase::Of("check.link.fec_mode.message", args),
           i18n::Phrase::Of("check.link.fec_mode.fix", args));
}

}  // namespace rocewatch::lint::checks::link
