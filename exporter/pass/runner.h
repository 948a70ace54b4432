#pragma once

// PassRunner: one collection pass = one NodeSnapshot (docs/design.md#one-scrape-is-one-snapshot). Keeps the
// inventory and the sources (with their held descriptors) between passes and
// walks the tree again only when the device listing changed or a source saw a
// device vanish.

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "exporter/collectors/registry.h"
#include "exporter/fs/tree.h"
#include "exporter/inventory/inventory.h"
#include "exporter/kernel/answers.h"
#include "exporter/metrics/exporter_metrics.h"
#include "exporter/model/snapshot.h"
#include "exporter/pass/source_pool.h"

namespace rocewatch {

struct PassConfig {
  std::string sysfs_root = "/sys";
  std::string configfs_root = "/sys/kernel/config";
  std::string debugfs_root = "/sys/kernel/debug";
  std::string procfs_root = "/proc";  // read only by --collector.rdma.per-process
  DiscoverOptions discover;
  std::vector<std::string> enabled_collectors;  // names from collectors::AllCollectors()
  // Per source, its option values (defaults filled in for options not given).
  std::map<std::string, std::map<std::string, std::string>> collector_options;
  // Applied to every sysfs value read (what a replay serves, capture/replay/replay.h; test
  // seams). Optional.
  fs::ValueTransform sysfs_transform;
  // The longest a collection pass waits for a source when the scrape brings no
  // deadline of its own (--collector.timeout).
  double source_timeout_seconds = 10;
  // ioctl/netlink/verbs answers; the live kernel when not set.
  std::shared_ptr<kernel::KernelAnswers> kernel;
};

class PassRunner {
 public:
  // Builds the enabled sources; an Error names a bad option value.
  static Result<std::unique_ptr<PassRunner>> Create(PassConfig config);

  // One collection pass, the sources run by a few threads (exporter/pass/source_pool.h), each
  // bounded by `deadline` (the scrape's, from X-Prometheus-Scrape-Timeout-Seconds) or by the
  // configured timeout. Not thread-safe: callers serialize (see ScrapeCoalescer).
  NodeSnapshot Collect(std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt);

  const metrics::CollectorStats& stats() const { return stats_; }
  // The sources the last Collect() left behind at its deadline: their series are not in its
  // snapshot.
  const std::vector<std::string>& timed_out() const { return timed_out_; }
  const Inventory& inventory() const { return *inventory_; }
  std::vector<const fs::Tree*> trees() const { return {&sysfs_, &configfs_, &debugfs_, &procfs_}; }
  // Observes every path the trees read (capture).
  void SetRecorder(fs::Recorder* recorder);
  const std::vector<std::string>& enabled_collectors() const { return config_.enabled_collectors; }

 private:
  explicit PassRunner(PassConfig config);
  void Rediscover();

  PassConfig config_;
  fs::Tree sysfs_, configfs_, debugfs_, procfs_;
  ClassListing listing_{sysfs_};  // looked at on every pass for devices that came or went
  std::unique_ptr<SourcePool> pool_;
  std::shared_ptr<const Inventory> inventory_ = std::make_shared<Inventory>();
  bool need_discovery_ = true;
  metrics::CollectorStats stats_;
  std::vector<std::string> timed_out_;
};

// Fills every option of `source_name` that `given` lacks with its default.
std::map<std::string, std::string> WithDefaults(const collectors::CollectorInfo& info,
                                                std::map<std::string, std::string> given);

}  // namespace rocewatch
