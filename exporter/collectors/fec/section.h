#pragma once

// The fec collector's section: FEC encoding and counters (ethtool netlink FEC_GET).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "exporter/model/section.h"

namespace rocewatch {

// A FEC counter as served: the total and, where the driver counts per lane, each lane.
struct FecCounterSnapshot {
  double total = 0;
  std::vector<double> lanes;
};

// One histogram bin: codewords received with low..high symbol errors.
struct FecBinSnapshot {
  std::uint32_t low = 0, high = 0;
  double codewords = 0;
};

struct FecSnapshot {
  std::string netdev;
  std::vector<std::string> configured;  // "off", "rs", "baser", "llrs"
  bool auto_mode = false;
  std::string active;  // "" when no encoding is active
  std::optional<FecCounterSnapshot> corrected_blocks, uncorrectable_blocks, corrected_bits;
  std::vector<FecBinSnapshot> histogram;
};

// The collector's part of the NodeSnapshot (model/section.h).
struct FecSection {
  std::vector<FecSnapshot> fec;
  void Append(FecSection&& part) { AppendSection(fec, part.fec); }
};

}  // namespace rocewatch
