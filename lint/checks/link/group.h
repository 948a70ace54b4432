#pragma once

// Link (link.*): the port is up at the planned rate, MTUs are as planned, and the PCIe link
// trained at full speed and width. One file per check; each is registered in
// lint/checks/specs.h. All but port-down compare with the NIC's profile and skip a NIC without one.

#include <optional>
#include <string>

#include "lint/checks/check.h"

namespace rocewatch::lint::checks::link {

void PortDown(const NicContext& c, FindingSink& sink);
void Rate(const NicContext& c, FindingSink& sink);
void NetdevMtu(const NicContext& c, FindingSink& sink);
void RoceMtu(const NicContext& c, FindingSink& sink);
void PcieDegraded(const NicContext& c, FindingSink& sink);
void PcieProfile(const NicContext& c, FindingSink& sink);
void FecMode(const NicContext& c, FindingSink& sink);

std::string Gbps(double bytes_per_second);
std::string Gts(double transfers);

// The device's PCIe link as roce_pcie_* says, and how to look at it.
struct PcieLink {
  std::optional<double> cur_speed, max_speed, cur_width, max_width;
  std::string lspci;  // "lspci -s <bdf> -vv | grep -E 'LnkCap|LnkSta'"
};
PcieLink ObservePcie(const NicContext& c);

}  // namespace rocewatch::lint::checks::link
