#include "lint/serve/daemon.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "lint/checks/specs.h"
#include "lint/plan/load.h"
#include "lint/plan/validate.h"
#include "lint/run/evaluate.h"
#include "lint/serve/serve_metrics.h"
#include "rocewatch/escape.h"
#include "rocewatch/version.h"

namespace rocewatch::lint::serve {
namespace {

// Keeps the kMaxFindingsPerRun most severe findings (in their order otherwise); how many went.
std::size_t KeepWithinLimit(std::vector<Finding>& findings) {
  if (findings.size() <= kMaxFindingsPerRun) return 0;
  std::stable_sort(findings.begin(), findings.end(),
                   [](const Finding& a, const Finding& b) { return a.severity > b.severity; });
  const std::size_t over = findings.size() - kMaxFindingsPerRun;
  findings.resize(kMaxFindingsPerRun);
  return over;
}

}  // namespace

Daemon::Daemon(DaemonOptions options) : options_(std::move(options)) {}

Daemon::~Daemon() { push_.reset(); }

Status Daemon::LoadPlan() {
  auto loaded = plan::LoadPlan(options_.plan_path);
  if (!loaded) return loaded.error();
  std::vector<Finding> findings = loaded->findings;
  for (auto& f : plan::ValidatePlan(loaded->plan)) findings.push_back(std::move(f));
  for (const auto& f : findings)
    if (f.severity >= Severity::kError) return Error{f.location + ": " + f.message + " [" + f.check + "]"};
  plan_ = std::move(loaded->plan);
  plan_mtime_ = PlanMtime();
  previous_.clear();  // node set may have changed: counters start over
  previous_at_.reset();
  return {};
}

Status Daemon::Start() {
  Status s = LoadPlan();
  if (!s.ok()) return s;
  if (options_.alertmanager.cluster.empty()) options_.alertmanager.cluster = plan_->cluster;
  push_.reset();
  push_ = std::make_unique<PushWorker>(options_.alertmanager, [this](const PushOutcome& outcome) {
    std::lock_guard<std::mutex> lock(mu_);
    push_state_ = outcome;
    if (!outcome.result.ok) push_failures_ += 1;
    pushed_ = true;
  });
  return {};
}

std::optional<std::filesystem::file_time_type> Daemon::PlanMtime() const {
  std::error_code ec;
  auto mtime = std::filesystem::last_write_time(options_.plan_path, ec);
  if (ec) return std::nullopt;
  return mtime;
}

void Daemon::MaybeReloadPlan(bool forced) {
  if (!forced) {
    auto mtime = PlanMtime();
    if (!mtime || mtime == plan_mtime_) return;
  }
  Status s = LoadPlan();
  std::lock_guard<std::mutex> lock(mu_);
  state_.plan_reload_ok = s.ok();
  state_.plan_error = s.ok() ? "" : s.error().message;
  // On errors the last good plan stays; remember the file's time so the same
  // broken file is not reloaded every run.
  if (!s.ok()) plan_mtime_ = PlanMtime();
}

void Daemon::RunOnce() {
  auto start = std::chrono::steady_clock::now();
  observe::ObserveSettings settings = options_.observe;
  // A store keeps the counters' history: each run reads its counter window (--window) there, as
  // `check --prometheus` does, and the switches' pause counters over the same window. Exporters
  // and files do not: counters then compare this run with the last.
  const bool from_store = settings.mode == observe::ObserveSettings::Mode::kPrometheus;
  if (from_store)
    settings.prometheus.at = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  else
    settings.window_seconds = 0;
  run::EvaluateOptions evaluate;
  evaluate.keep_views = true;
  evaluate.switch_counters_required = false;
  if (!from_store && previous_at_) {
    evaluate.previous = &previous_;
    evaluate.previous_seconds = std::chrono::duration<double>(start - *previous_at_).count();
  }
  auto evaluation =
      run::Evaluate(*plan_, settings, {options_.switches, options_.counter_profiles}, evaluate);
  RunState next;
  {
    std::lock_guard<std::mutex> lock(mu_);
    next.plan_reload_ok = state_.plan_reload_ok;
    next.plan_error = state_.plan_error;
    next.runs_total = state_.runs_total + 1;
  }
  if (evaluation) {
    next.switch_counters_error = std::move(evaluation->switch_counters_error);
    next.findings = std::move(evaluation->findings);
    next.findings_over_limit = KeepWithinLimit(next.findings);
    std::map<std::string, int> state_by_node;  // 0 passed, 1 failed, 2 unreachable
    for (const auto& n : plan_->nodes) state_by_node[n.name] = 0;
    for (const auto& f : next.findings)
      state_by_node[f.node] = std::max(state_by_node[f.node], f.check == checks::kExporterUnreachable.id ? 2 : 1);
    for (const auto& [node, st] : state_by_node) {
      if (st == 0) ++next.nodes_passed;
      else if (st == 1) ++next.nodes_failed;
      else ++next.nodes_unreachable;
    }
    next.success = true;
    previous_ = std::move(evaluation->views);
    previous_at_ = start;
  } else {
    next.success = false;
    std::lock_guard<std::mutex> lock(mu_);
    next.findings = state_.findings;  // keep serving what we knew
  }
  if (push_ != nullptr) push_->Submit(next.findings, std::chrono::system_clock::now());
  next.duration_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  next.timestamp_seconds =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  std::lock_guard<std::mutex> lock(mu_);
  state_ = std::move(next);
}

RunState Daemon::state() const {
  std::lock_guard<std::mutex> lock(mu_);
  RunState s = state_;
  s.alertmanager_ok = !pushed_ || push_state_.result.ok;
  s.alertmanager_failures_total = push_failures_;
  s.pending_resolutions = push_state_.pending_resolutions;
  s.resolutions_dropped_total = push_state_.resolutions_dropped_total;
  s.alerts_not_sent = push_state_.result.not_sent;
  return s;
}

std::vector<prometheus::MetricFamily> Daemon::Collect() const {
  RunState s = state();
  std::vector<prometheus::MetricFamily> out;
  auto finding = MakeFamily(kFinding);
  std::map<std::string, double> by_severity = {{"critical", 0}, {"error", 0}, {"warning", 0}, {"info", 0}};
  std::map<std::string, bool> seen;
  for (const auto& f : s.findings) {
    std::string sev(SeverityName(f.severity));
    by_severity[sev] += 1;
    // Names from the plan and the nodes as label values: no control or bidi character, cut at the limit.
    using escape::PrometheusLabelValue;
    std::string node = PrometheusLabelValue(f.node), device = PrometheusLabelValue(f.device),
                netdev = PrometheusLabelValue(f.netdev), check = PrometheusLabelValue(f.check);
    std::string key = node + "\x1f" + device + "\x1f" + netdev + "\x1f" + check;
    if (seen[key]) continue;  // one series per (node, device, netdev, check)
    seen[key] = true;
    AddSample(finding, kFinding, {node, device, netdev, check, sev}, 1);
  }
  out.push_back(std::move(finding));
  auto findings = MakeFamily(kFindings);
  for (const auto& [sev, n] : by_severity) AddSample(findings, kFindings, {sev}, n);
  out.push_back(std::move(findings));
  auto nodes = MakeFamily(kNodes);
  AddSample(nodes, kNodes, {"passed"}, static_cast<double>(s.nodes_passed));
  AddSample(nodes, kNodes, {"failed"}, static_cast<double>(s.nodes_failed));
  AddSample(nodes, kNodes, {"unreachable"}, static_cast<double>(s.nodes_unreachable));
  out.push_back(std::move(nodes));
  auto single = [&](const ServeMetricSpec& spec, double v) {
    auto f = MakeFamily(spec);
    AddSample(f, spec, {}, v);
    out.push_back(std::move(f));
  };
  single(kRunSuccess, s.success ? 1 : 0);
  single(kRunDuration, s.duration_seconds);
  single(kLastRun, s.timestamp_seconds);
  single(kRuns, s.runs_total);
  single(kPlanReload, s.plan_reload_ok ? 1 : 0);
  single(kPushSuccess, s.alertmanager_ok ? 1 : 0);
  single(kPushFailures, s.alertmanager_failures_total);
  single(kPendingResolutions, static_cast<double>(s.pending_resolutions));
  single(kResolutionsDropped, s.resolutions_dropped_total);
  single(kAlertsNotSent, static_cast<double>(s.alerts_not_sent));
  single(kFindingsOverLimit, static_cast<double>(s.findings_over_limit));
  auto info = MakeFamily(kBuildInfo);
  AddSample(info, kBuildInfo, {kVersion, kRevision}, 1);
  out.push_back(std::move(info));
  return out;
}

}  // namespace rocewatch::lint::serve
