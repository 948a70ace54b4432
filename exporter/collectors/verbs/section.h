#pragma once

// The verbs collector's section: ibv_query_port per port.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "exporter/model/section.h"

namespace rocewatch {

// libibverbs ibv_query_port.
struct VerbsPortSnapshot {
  std::string device;
  std::uint32_t port = 0;
  std::optional<double> active_mtu_bytes, max_mtu_bytes;
  std::optional<double> active_speed_bytes_per_second;
  std::optional<double> gid_table_length;
  bool operator==(const VerbsPortSnapshot&) const = default;
};

// The collector's part of the NodeSnapshot (model/section.h).
struct VerbsSection {
  std::vector<VerbsPortSnapshot> verbs;
  bool operator==(const VerbsSection&) const = default;  // the render cache's key (exporter/collectors/render_input.h)
  void Append(VerbsSection&& part) { AppendSection(verbs, part.verbs); }
};

}  // namespace rocewatch
