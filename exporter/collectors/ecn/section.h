#pragma once

// The ecn source's section of the NodeSnapshot: ECN enable and DCQCN parameters per netdev.

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "exporter/model/section.h"

namespace rocewatch {

// ECN/DCQCN as MLNX_OFED's sysfs (/sys/class/net/<if>/ecn/roce_{np,rp}), upstream mlx5's
// debugfs (mlx5/<bdf>/cc_params) or Broadcom's bnxt_re configfs (bnxt_re/<ibdev>/ports/<n>/cc)
// holds them.
struct EcnSnapshot {
  std::string netdev;
  std::string device;
  std::array<std::optional<bool>, 8> np_enabled{};  // notification point, per priority
  std::array<std::optional<bool>, 8> rp_enabled{};  // reaction point, per priority
  // One switch for every priority and both points (bnxt_re's cc/ecn_enable).
  std::optional<bool> all_enabled;
  struct Parameter {
    std::string point;  // "np" or "rp"
    std::string name;   // as the kernel names it, without the rp_/np_ prefix of debugfs
    double value = 0;
    std::string source;  // "sysfs", "debugfs" or "configfs"
    bool operator==(const Parameter&) const = default;
  };
  std::vector<Parameter> parameters;
  // --collector.ecn.all-priorities / .all-sources: what the renderer exports beyond the
  // default series (the source copies its options here).
  bool all_priorities = false;
  bool all_sources = false;
  bool operator==(const EcnSnapshot&) const = default;
};

// The collector's part of the NodeSnapshot (model/section.h).
struct EcnSection {
  std::vector<EcnSnapshot> ecn;
  void Append(EcnSection&& part) { AppendSection(ecn, part.ecn); }
  bool operator==(const EcnSection&) const = default;  // the render cache's key (exporter/collectors/render_input.h)
};

}  // namespace rocewatch
