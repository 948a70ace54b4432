// gpudirect.aer-errors: AER errors rose over the window on the NIC or a bridge above it:
// non-fatal and fatal ever, correctable beyond the profile's max_aer_correctable. A link that
// logs errors replays TLPs (bandwidth) long before it drops.

#include <string>

#include "lint/checks/gpudirect/group.h"
#include "lint/checks/observed.h"
#include "lint/checks/specs.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::gpudirect {

void AerErrors(const NicContext& c, FindingSink& sink) {
  if (c.profile == nullptr || !c.profile->gpudirect || !c.view.has_increase()) return;
  const auto& limit = c.profile->gpudirect->max_aer_correctable;
  std::vector<std::string> functions;
  for (const auto& s : c.view.Select(metric::roce_pcie_info, {{label::device, c.nic.ib_dev}}))
    functions.emplace_back(s.Label(label::pci_address));
  for (const auto& s : c.view.Select(metric::roce_pcie_upstream_bridge, {{label::device, c.nic.ib_dev}}))
    functions.emplace_back(s.Label(label::bridge));
  for (const auto& function : functions) {
    for (std::string_view severity : {"fatal", "nonfatal", "correctable"}) {
      const double rose = c.view.Increase(metric::roce_pcie_aer_errors_total,
                                          {{label::pci_address, function}, {label::aer_severity, severity}}).value_or(0);
      const double allowed = severity == "correctable" ? (limit ? static_cast<double>(*limit) : -1) : 0;
      if (allowed < 0 || rose <= allowed) continue;
      const i18n::StoredArgs args = {{"device", c.nic.ib_dev},
                                     {"function", function},
                                     {"severity", std::string(severity)},
                                     {"count", FormatNumber(rose)},
                                     {"allowed", FormatNumber(allowed)},
                                     {"window", FormatNumber(c.view.window_seconds()) + " s"}};
      sink.Nic(kGpuDirectAerErrors, c, i18n::Phrase::Of("check.gpudirect.aer_errors.expected", args),
               i18n::Phrase::Of("check.gpudirect.aer_errors.found", args),
               i18n::Phrase::Of("check.gpudirect.aer_errors.message", args),
               i18n::Phrase::Of("check.gpudirect.aer_errors.fix", args));
    }
  }
}

}  // namespace rocewatch::lint::checks::gpudirect
