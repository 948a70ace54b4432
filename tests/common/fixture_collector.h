#pragma once

// The collector configuration of a checked-in fixture (tests/fixtures/NAME, capture layout):
// its three trees and its kernel answers, replayed as captured (without motion, so every pass
// reads the same values), with every collector enabled unless `sources` names some.

#include <string>
#include <vector>

#include "exporter/collectors/registry.h"
#include "exporter/kernel/answers.h"
#include "exporter/pass/runner.h"

namespace rocewatch::testing {

inline PassConfig FixtureCollectorConfig(const std::string& dir, std::vector<std::string> sources = {}) {
  PassConfig c;
  c.sysfs_root = dir + "/sys";
  c.configfs_root = dir + "/configfs";
  c.debugfs_root = dir + "/debugfs";
  c.kernel = kernel::MakeReplayKernel(dir);
  if (sources.empty())
    for (const auto& s : collectors::AllCollectors()) sources.emplace_back(s.name);
  c.enabled_collectors = std::move(sources);
  return c;
}

}  // namespace rocewatch::testing
