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
      std::string want = (p->pcie->speed_gts ? FormatNumber(*p->pcie->speed_gts) + " GT/s" : std::string("any speed")) +
                         (p->pcie->width ? " x" + std::to_string(*p->pcie->width) : std::string());
      std::string found = Gts(*l.max_speed) + " x" + FormatNumber(*l.max_width);
      sink.Nic(kPcieProfile, c, want, found,
               c.nic.ib_dev + " sits in a PCIe link capable of " + found + ", the profile wants " + want + ".",
               "move the NIC to a slot with the planned link (or fix the plan); " + l.lspci);
    }
  }
}

}  // namespace rocewatch::lint::checks::link
