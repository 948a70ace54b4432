// link.pcie-degraded: the PCIe link trained below its own maximum speed or width.

#include "lint/checks/link/group.h"
#include "lint/checks/observed.h"
#include "lint/checks/specs.h"

namespace rocewatch::lint::checks::link {

void PcieDegraded(const NicContext& c, FindingSink& sink) {
  if (c.profile == nullptr) return;
  const PcieLink l = ObservePcie(c);
  if (l.cur_speed && l.cur_width && l.max_speed && l.max_width &&
      (*l.cur_speed < *l.max_speed || *l.cur_width < *l.max_width)) {
    std::string found = Gts(*l.cur_speed) + " x" + FormatNumber(*l.cur_width);
    std::string want = Gts(*l.max_speed) + " x" + FormatNumber(*l.max_width);
    const i18n::StoredArgs args = {{"device", c.nic.ib_dev}, {"found", found}, {"expected", want}, {"lspci", l.lspci}};
    sink.Nic(kPcieDegraded, c, want, found, i18n::Phrase::Of("check.link.pcie_degraded.message", args),
             i18n::Phrase::Of("check.link.pcie_degraded.fix", args));
  }
}

}  // namespace rocewatch::lint::checks::link
