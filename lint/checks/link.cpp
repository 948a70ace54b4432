// Link: the port is up at the planned rate, MTUs are as planned, and the PCIe
// link trained at full speed and width.

#include <cmath>

#include "lint/checks/check.h"
#include "lint/checks/observed.h"
#include "lint/checks/specs.h"
#include "lint/fix/commands.h"

namespace rocewatch::lint::checks {
namespace {

std::string Gbps(double bytes_per_second) { return FormatNumber(bytes_per_second * 8 / 1e9) + " Gb/s"; }
std::string Gts(double transfers) { return FormatNumber(transfers / 1e9) + " GT/s"; }

}  // namespace

void CheckLink(const NicContext& c, FindingSink& sink) {
  const auto& v = c.view;
  const std::string& dev = c.nic.ib_dev;
  auto state = v.Value("roce_port_state", {{"device", dev}, {"port", c.port}});
  auto phys = v.Value("roce_port_physical_state", {{"device", dev}, {"port", c.port}});
  if ((state && *state != 4) || (phys && *phys != 5)) {
    std::string reason;
    for (const auto& r : v.Select("roce_link_down_reason_info", {{"netdev", c.nic.netdev}}))
      reason = std::string(r.Label("reason")) +
               (r.Label("detail").empty() ? "" : "/" + std::string(r.Label("detail")));
    std::string found = "state " + (state ? FormatNumber(*state) : "?") + ", physical state " +
                        (phys ? FormatNumber(*phys) : "?") + (reason.empty() ? "" : ", " + reason);
    sink.Nic(kPortDown, c, "state 4 (ACTIVE), physical state 5 (LinkUp)", found,
             dev + " port " + c.port + " is not up: " + found + ".",
             "ip link set dev " + c.nic.netdev + " up; check cable and switch port" +
                 (c.nic.switch_port ? " " + *c.nic.switch_port : "") + "; ethtool " + c.nic.netdev);
  }
  const plan::Profile* p = c.profile;
  if (p == nullptr) return;

  if (p->link_speed_gbps && state && *state == 4) {
    auto rate = v.Value("roce_port_rate_bytes_per_second", {{"device", dev}, {"port", c.port}});
    double want = static_cast<double>(*p->link_speed_gbps) * 1e9 / 8;
    if (rate && std::fabs(*rate - want) > 1) {
      sink.Nic(kLinkRate, c, Gbps(want), Gbps(*rate),
               dev + " port " + c.port + " runs at " + Gbps(*rate) + ", the profile wants " + Gbps(want) + ".",
               "ethtool " + c.nic.netdev + " (check the cable/module and the switch port speed); "
               "ethtool -s " + c.nic.netdev + " speed " + std::to_string(*p->link_speed_gbps * 1000) +
                   " autoneg off");
    }
  }
  if (p->netdev_mtu) {
    auto mtu = v.Value("roce_netdev_mtu_bytes", {{"netdev", c.nic.netdev}});
    if (mtu && *mtu != static_cast<double>(*p->netdev_mtu)) {
      sink.Nic(kNetdevMtu, c, std::to_string(*p->netdev_mtu), FormatNumber(*mtu),
               c.nic.netdev + " has MTU " + FormatNumber(*mtu) + ", the profile wants " +
                   std::to_string(*p->netdev_mtu) + ".",
               fix::SetMtu(c.nic.netdev, *p->netdev_mtu));
    }
  }
  if (p->roce_mtu) {
    auto active = v.Value("roce_port_active_mtu_bytes", {{"device", dev}, {"port", c.port}});
    if (active && *active != static_cast<double>(*p->roce_mtu)) {
      sink.Nic(kRoceMtu, c, std::to_string(*p->roce_mtu), FormatNumber(*active),
               dev + " port " + c.port + " has an active RoCE MTU of " + FormatNumber(*active) +
                   ", the profile wants " + std::to_string(*p->roce_mtu) +
                   " (the netdev MTU must be at least the RoCE MTU + 96).",
               fix::SetMtu(c.nic.netdev, p->netdev_mtu ? *p->netdev_mtu : *p->roce_mtu + 96));
    }
  }

  auto cur_speed = v.Value("roce_pcie_link_speed_transfers_per_second", {{"device", dev}, {"kind", "current"}});
  auto max_speed = v.Value("roce_pcie_link_speed_transfers_per_second", {{"device", dev}, {"kind", "max"}});
  auto cur_width = v.Value("roce_pcie_link_width", {{"device", dev}, {"kind", "current"}});
  auto max_width = v.Value("roce_pcie_link_width", {{"device", dev}, {"kind", "max"}});
  std::string pci;
  for (const auto& info : v.Select("roce_pcie_info", {{"device", dev}})) pci = std::string(info.Label("pci_address"));
  std::string lspci = "lspci -s " + (pci.empty() ? std::string("<bdf>") : pci) + " -vv | grep -E 'LnkCap|LnkSta'";
  if (cur_speed && cur_width && max_speed && max_width &&
      (*cur_speed < *max_speed || *cur_width < *max_width)) {
    std::string found = Gts(*cur_speed) + " x" + FormatNumber(*cur_width);
    std::string want = Gts(*max_speed) + " x" + FormatNumber(*max_width);
    sink.Nic(kPcieDegraded, c, want, found,
             dev + " PCIe link trained at " + found + " of " + want + ": the NIC gets a fraction of its bandwidth.",
             "reseat the NIC or riser, check the slot's bifurcation in the BIOS; " + lspci);
  }
  // The profile is compared with what the slot and card can do (max): a link
  // that trained below its own maximum is link.pcie-degraded above.
  if (p->pcie && max_speed && max_width) {
    bool speed_off = p->pcie->speed_gts && std::fabs(*max_speed - *p->pcie->speed_gts * 1e9) > 1e6;
    bool width_off = p->pcie->width && *max_width != static_cast<double>(*p->pcie->width);
    if (speed_off || width_off) {
      std::string want = (p->pcie->speed_gts ? FormatNumber(*p->pcie->speed_gts) + " GT/s" : std::string("any speed")) +
                         (p->pcie->width ? " x" + std::to_string(*p->pcie->width) : std::string());
      std::string found = Gts(*max_speed) + " x" + FormatNumber(*max_width);
      sink.Nic(kPcieProfile, c, want, found,
               dev + " sits in a PCIe link capable of " + found + ", the profile wants " + want + ".",
               "move the NIC to a slot with the planned link (or fix the plan); " + lspci);
    }
  }
}

}  // namespace rocewatch::lint::checks
