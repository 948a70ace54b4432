// link.pcie-profile: the slot and card can do another PCIe link than the profile's.

#include <cmath>

#include "lint/checks/link/group.h"
#include "lint/checks/observed.h"
#include "lint/checks/specs.h"

namespace rocewatch::lint::checks::link {

void PcieProfile(const NicContext& c, FindingSink& sink) {
  const plan::Profile* p = c.profile;
  if (p == nullptr) return;
  const PcieLink l = ObservePcie(c);
  // The profile is compared with what the slot and card can do (max): a link
  // that trained below its own maximum is link.pcie-degraded.
  if (p->pcie && l.max_speed && l.max_width) {
    bool speed_off = p->pcie->speed_gts && std::fabs(*l.max_speed - *p->pcie->speed_gts * 1e9) > 1e6;
    bool width_off = p->pcie->width && *l.max_width != static_cast<double>(*p->pcie->width);
    if (speed_off || width_off) {
      const std::string width = p->pcie->width ? " x" + std::to_string(*p->pcie->width) : std::string();
      i18n::Phrase want = p->pcie->speed_gts ? i18n::Phrase(FormatNumber(*p->pcie->speed_gts) + " GT/s" + width)
                                             : i18n::Phrase::Of("check.link.pcie_profile.any_speed", {{"width", width}});
      std::string found = Gts(*l.max_speed) + " x" + FormatNumber(*l.max_width);
      i18n::StoredArgs args = {{"device", c.nic.ib_dev}, {"found", found}, {"lspci", l.lspci}};
      i18n::AddPhraseArg(args, "expected", want);
      sink.Nic(kPcieProfile, c, std::move(want), found, i18n::Phrase::Of("check.link.pcie_profile.message", args),
               i18n::Phrase::Of("check.link.pcie_profile.fix", args));
    }
  }
}

}  // namespace rocewatch::lint::checks::link
