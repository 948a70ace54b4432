// What the link.* checks share (group.h).

#include "lint/checks/link/group.h"
#include "lint/checks/observed.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::link {

std::string Gbps(double bytes_per_second) { return FormatNumber(bytes_per_second * 8 / 1e9) + " Gb/s"; }
std::string Gts(double transfers) { return FormatNumber(transfers / 1e9) + " GT/s"; }

PcieLink ObservePcie(const NicContext& c) {
  const auto& v = c.view;
  const std::string& dev = c.nic.ib_dev;
  PcieLink l;
  l.cur_speed = v.Value(metric::roce_pcie_link_speed_transfers_per_second, {{label::device, dev}, {label::kind, "current"}});
  l.max_speed = v.Value(metric::roce_pcie_link_speed_transfers_per_second, {{label::device, dev}, {label::kind, "max"}});
  l.cur_width = v.Value(metric::roce_pcie_link_width, {{label::device, dev}, {label::kind, "current"}});
  l.max_width = v.Value(metric::roce_pcie_link_width, {{label::device, dev}, {label::kind, "max"}});
  std::string pci;
  for (const auto& info : v.Select(metric::roce_pcie_info, {{label::device, dev}})) pci = std::string(info.Label(label::pci_address));
  l.lspci = "lspci -s " + (pci.empty() ? std::string("<bdf>") : pci) + " -vv | grep -E 'LnkCap|LnkSta'";
  return l;
}

}  // namespace rocewatch::lint::checks::link
