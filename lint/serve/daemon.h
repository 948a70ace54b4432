#pragma once

// `roce-lint serve`: evaluates the plan against the cluster on an interval,
// serves the open findings as metrics, and pushes them to Alertmanager. The
// plan is reloaded on SIGHUP or when its file changes; an invalid new plan is
// reported and the last good one kept.

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <prometheus/collectable.h>
#include <prometheus/metric_family.h>

#include "lint/observe/orchestrate.h"
#include "lint/core/finding.h"
#include "lint/plan/model.h"
#include "lint/serve/alertmanager.h"
#include "lint/serve/push_worker.h"
#include "lint/switch/counter_profiles.h"
#include "lint/switch/switch_config.h"

namespace rocewatch::lint::serve {

struct DaemonOptions {
  std::string plan_path;
  double interval_seconds = 60;
  // With --prometheus, each run reads the counter window (its --window) from the store; else its
  // window is replaced by the interval (counters compare consecutive runs).
  observe::ObserveSettings observe;
  AlertmanagerOptions alertmanager;
  // The switch side (check's --switch-config and --switch-counters): the switches' configurations,
  // and the counter profiles whose pause counters are read from --prometheus over the counter
  // window, as the NICs' counters are.
  switch_config::SwitchConfigs switches;
  std::vector<switch_config::CounterProfile> counter_profiles;
};

// The findings one run keeps (docs/security.md): an exporter that invents devices makes one
// finding each. Past the limit the most severe are kept and the rest counted
// (roce_lint_findings_over_limit).
inline constexpr std::size_t kMaxFindingsPerRun = 20000;

// What the last run found, as served on /metrics.
struct RunState {
  bool success = false;
  double duration_seconds = 0;
  double timestamp_seconds = 0;
  std::vector<Finding> findings;
  std::size_t nodes_passed = 0, nodes_failed = 0, nodes_unreachable = 0;
  bool plan_reload_ok = true;
  std::string plan_error;
  bool alertmanager_ok = true;
  double alertmanager_failures_total = 0;
  double runs_total = 0;
  std::size_t pending_resolutions = 0;
  double resolutions_dropped_total = 0;  // past kMaxPendingResolutions
  std::size_t alerts_not_sent = 0;       // findings of the last push past kMaxAlerts
  std::size_t findings_over_limit = 0;   // findings of the last run past kMaxFindingsPerRun
  std::string switch_counters_error;  // the store refused the switches' counters this run
};

class Daemon : public prometheus::Collectable {
 public:
  explicit Daemon(DaemonOptions options);
  ~Daemon() override;

  // Loads the plan; an Error when the first plan is unusable.
  Status Start();
  // One evaluation (observe, check, publish), whose findings are then pushed to Alertmanager
  // apart from the run (PushWorker): a slow Alertmanager delays neither this nor /metrics.
  void RunOnce();
  // Re-reads the plan if asked to or if the file changed; keeps the old one on errors.
  void MaybeReloadPlan(bool forced);

  std::vector<prometheus::MetricFamily> Collect() const override;
  RunState state() const;

 private:
  Status LoadPlan();

  DaemonOptions options_;
  std::optional<plan::Plan> plan_;
  std::optional<std::filesystem::file_time_type> PlanMtime() const;
  std::optional<std::filesystem::file_time_type> plan_mtime_;
  std::vector<observe::NodeView> previous_;
  std::optional<std::chrono::steady_clock::time_point> previous_at_;
  mutable std::mutex mu_;
  RunState state_;
  // The push's part of the state (alertmanager_*, pending and dropped resolutions), written by
  // the push thread; state() puts it into what it returns.
  PushOutcome push_state_;
  bool pushed_ = false;
  double push_failures_ = 0;
  std::unique_ptr<PushWorker> push_;  // last: stopped and joined before the rest goes
};

}  // namespace rocewatch::lint::serve
