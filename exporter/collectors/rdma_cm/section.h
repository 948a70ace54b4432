#pragma once

// The rdma_cm collector's section: configfs defaults per device and port.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "exporter/model/section.h"

namespace rocewatch {

struct RdmaCmSnapshot {
  std::string device;
  std::uint32_t port = 0;
  std::string roce_mode;      // "RoCE v2", "IB/RoCE v1"
  std::optional<double> tos;  // default_roce_tos (DSCP << 2 | ECN)
  bool operator==(const RdmaCmSnapshot&) const = default;
};

// The collector's part of the NodeSnapshot (model/section.h).
struct RdmaCmSection {
  std::vector<RdmaCmSnapshot> rdma_cm;
  bool operator==(const RdmaCmSection&) const = default;  // the render cache's key (exporter/collectors/render_input.h)
  void Append(RdmaCmSection&& part) { AppendSection(rdma_cm, part.rdma_cm); }
};

}  // namespace rocewatch
