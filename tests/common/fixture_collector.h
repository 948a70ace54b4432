#pragma once

// The collector configuration of a checked-in fixture (tests/fixtures/NAME, capture layout):
// its three trees and its kernel answers, replayed as captured (without motion, so every pass
// reads the same values), with every collector enabled unless `sources` names some.

#include <string>
#include <vector>

#include "kernel/answers.h"
#include "collect/collector.h"
#include "sources/registry.h"

namespace rocewatch::testing {

inline CollectorConfig FixtureCollectorConfig(const std::string& dir, std::vector<std::string> sources = {}) {
  CollectorConfig c;
  c.sysfs_root = dir + "/sys";
  c.configfs_root = dir + "/configfs";
  c.debugfs_root = dir + "/debugfs";
  c.kernel = kernel::MakeReplayKernel(dir);
  if (sources.empty())
    for (const auto& s : sources::AllSources()) sources.emplace_back(s.name);
  c.enabled_sources = std::move(sources);
  return c;
}

}  // namespace rocewatch::testing
