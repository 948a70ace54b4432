#pragma once

// The pcie collector's section: the PCIe link of each RDMA device.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "exporter/model/section.h"

namespace rocewatch {

struct PcieSnapshot {
  std::string device;                                                  // ibdev
  std::string pci_address;                                             // 0000:17:00.0
  std::optional<double> current_speed_transfers, max_speed_transfers;  // transfers per second
  std::optional<std::uint32_t> current_width, max_width;
  std::optional<std::int64_t> numa_node;
  std::string vendor_id, device_id;
  bool operator==(const PcieSnapshot&) const = default;
};

// The collector's part of the NodeSnapshot (model/section.h).
struct PcieSection {
  std::vector<PcieSnapshot> pcie;
  bool operator==(const PcieSection&) const = default;  // the render cache's key (exporter/collectors/render_input.h)
  void Append(PcieSection&& part) { AppendSection(pcie, part.pcie); }
};

}  // namespace rocewatch
