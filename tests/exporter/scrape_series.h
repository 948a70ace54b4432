#pragma once

// One full scrape of a tree (capture layout: sys/, configfs/, debugfs/, kernel/) with
// every source enabled and every detail option on (each option whose default is "false":
// what the tree can feed, docs/metrics.md "Default and opt-in series"), as series (name and
// labels) -> value. The exporter's
// self-metrics are left out unless asked for: they count what is missing, the
// rest is what the tree feeds. Shared by the AbsentValues, AttributeDeletion and
// DriverLayouts tests.

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>

#include "exporter/metrics/text_renderer.h"
#include "exporter/pass/runner.h"
#include "exporter/pass/scrape_coalescer.h"

namespace rocewatch::testing {

inline std::map<std::string, std::string> Scrape(const std::string& root, bool self_metrics = false) {
  PassConfig c;
  c.sysfs_root = root + "/sys";
  c.configfs_root = root + "/configfs";
  c.debugfs_root = root + "/debugfs";
  c.kernel = kernel::MakeReplayKernel(root);
  for (const auto& s : collectors::AllCollectors()) {
    c.enabled_collectors.emplace_back(s.name);
    for (const auto& o : s.options)
      if (o.default_value == "false") c.collector_options[std::string(s.name)][std::string(o.name)] = "true";
  }
  auto made = PassRunner::Create(std::move(c));
  EXPECT_TRUE(made.ok()) << made.error().message;
  if (!made.ok()) return {};
  auto& collector = *made;
  NodeSnapshot snap = collector->Collect();
  metrics::TextRenderer text;
  RenderSnapshot(snap, collector->enabled_collectors(), collector->stats(), text);
  std::map<std::string, std::string> out;
  std::istringstream in(std::move(text).Take());
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || (!self_metrics && line.rfind("roce_exporter_", 0) == 0) ||
        line.rfind("roce_module_last_read_timestamp_seconds", 0) == 0)  // the clock, not the tree
      continue;
    auto sp = line.rfind(' ');
    out[line.substr(0, sp)] = line.substr(sp + 1);
  }
  return out;
}

}  // namespace rocewatch::testing
