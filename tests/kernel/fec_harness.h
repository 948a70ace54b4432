#pragma once

// Test-only: the fec source built from the registry over any KernelAnswers, collected the way
// the collector does (Prepare when the inventory's generation changes), and its page rendered.

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "common/rendered_text.h"
#include "exporter/collectors/fec/collector.h"
#include "exporter/collectors/registry.h"
#include "exporter/inventory/inventory.h"
#include "exporter/pass/runner.h"

namespace rocewatch::testing {

inline Inventory NetdevsInventory(std::initializer_list<const char*> names,
                                  std::uint64_t generation = 1) {
  Inventory inv;
  inv.generation = generation;
  for (const char* n : names)
    inv.netdevs.push_back(NetdevRef{n, "devices/virtual/net/" + std::string(n), "", 0});
  return inv;
}

class FecUnderTest {
 public:
  explicit FecUnderTest(kernel::KernelAnswers& kernel, std::string sysfs_root = "/nonexistent")
      : sysfs_("sysfs", std::move(sysfs_root)) {
    const collectors::CollectorInfo* info = collectors::FindCollector("fec");
    EXPECT_NE(info, nullptr);
    collectors::SourceEnv env;
    env.sysfs = &sysfs_;
    env.configfs = &sysfs_;
    env.debugfs = &sysfs_;
    env.kernel = &kernel;
    env.options = WithDefaults(*info, {});
    auto made = info->make(env);
    EXPECT_TRUE(made.ok());
    if (made.ok()) source_ = std::move(*made);
  }

  struct Pass {
    NodeSnapshot snap;
    SourceStatus status;
    std::string text;  // the page as served
  };

  Pass Collect(const Inventory& inventory) {
    if (inventory.generation != prepared_) {
      source_->Prepare(inventory);
      prepared_ = inventory.generation;
    }
    Pass p;
    p.status.name = "fec";
    source_->Collect(inventory, p.snap, p.status);
    RenderText(collectors::RenderFec, p.snap, &p.text);
    return p;
  }

 private:
  fs::Tree sysfs_;
  std::unique_ptr<collectors::Source> source_;
  std::uint64_t prepared_ = 0;
};

// Whether `text` has the sample line `line` (series and value, as served).
inline bool HasLine(const std::string& text, const std::string& line) {
  return ("\n" + text).find("\n" + line + "\n") != std::string::npos;
}

}  // namespace rocewatch::testing
