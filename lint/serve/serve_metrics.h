#pragma once

// The families `roce-lint serve` serves on its /metrics, each defined once: Daemon::Collect
// makes every family and sample through these specs (so a label name cannot drift from its
// family), and docs/metrics.md's roce-lint table is checked against them
// (tests/lint/serve_metrics_test.cpp), which is the catalogue the dashboards and rules are
// checked against. The exporter's families have their specs in exporter/collectors/*/metrics.cpp.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <prometheus/metric_family.h>

namespace rocewatch::lint::serve {

struct ServeMetricSpec {
  std::string_view name;
  prometheus::MetricType type;  // Gauge or Counter
  std::span<const std::string_view> labels;
  std::string_view help;
};

inline constexpr std::string_view kFindingLabels[] = {"node", "device", "netdev", "check", "severity"};
inline constexpr std::string_view kSeverityLabels[] = {"severity"};
inline constexpr std::string_view kStateLabels[] = {"state"};
inline constexpr std::string_view kBuildLabels[] = {"version", "revision"};

using T = prometheus::MetricType;
inline constexpr ServeMetricSpec kFinding{"roce_lint_finding", T::Gauge, kFindingLabels,
    "An open roce-lint finding; always 1 (docs/checks.md)."};
inline constexpr ServeMetricSpec kFindings{"roce_lint_findings", T::Gauge, kSeverityLabels,
    "Open findings by severity."};
inline constexpr ServeMetricSpec kNodes{"roce_lint_nodes", T::Gauge, kStateLabels,
    "Planned nodes by the state of the last run: passed, failed, unreachable."};
inline constexpr ServeMetricSpec kRunSuccess{"roce_lint_run_success", T::Gauge, {},
    "1 when the last evaluation could observe the cluster."};
inline constexpr ServeMetricSpec kRunDuration{"roce_lint_run_duration_seconds", T::Gauge, {},
    "Duration of the last evaluation."};
inline constexpr ServeMetricSpec kLastRun{"roce_lint_last_run_timestamp_seconds", T::Gauge, {},
    "Unix time of the last evaluation."};
inline constexpr ServeMetricSpec kRuns{"roce_lint_runs_total", T::Counter, {}, "Evaluations since start."};
inline constexpr ServeMetricSpec kPlanReload{"roce_lint_plan_reload_success", T::Gauge, {},
    "0 when the last plan reload failed (the previous plan is kept)."};
inline constexpr ServeMetricSpec kPushSuccess{"roce_lint_alertmanager_push_success", T::Gauge, {},
    "1 when the last push reached an Alertmanager."};
inline constexpr ServeMetricSpec kPushFailures{"roce_lint_alertmanager_push_failures_total", T::Counter, {},
    "Pushes that reached no Alertmanager after their retries."};
inline constexpr ServeMetricSpec kPendingResolutions{"roce_lint_alertmanager_pending_resolutions", T::Gauge, {},
    "Resolved alerts not yet delivered to Alertmanager."};
inline constexpr ServeMetricSpec kResolutionsDropped{"roce_lint_alertmanager_resolutions_dropped_total",
    T::Counter, {}, "Resolutions dropped past the limit of pending ones (docs/security.md)."};
inline constexpr ServeMetricSpec kAlertsNotSent{"roce_lint_alertmanager_alerts_not_sent", T::Gauge, {},
    "Findings of the last push past the limit of alerts (docs/security.md)."};
inline constexpr ServeMetricSpec kFindingsOverLimit{"roce_lint_findings_over_limit", T::Gauge, {},
    "Findings of the last run past the limit a run keeps (docs/security.md)."};
inline constexpr ServeMetricSpec kBuildInfo{"roce_lint_build_info", T::Gauge, kBuildLabels,
    "Version of roce-lint; always 1."};

// Every family, in the order /metrics serves them.
std::span<const ServeMetricSpec* const> ServeMetricSpecs();

// An empty family of `spec`.
prometheus::MetricFamily MakeFamily(const ServeMetricSpec& spec);
// Adds one sample to `family` (made by MakeFamily(spec)): `values` are the label values in the
// order of spec.labels, one for each.
void AddSample(prometheus::MetricFamily& family, const ServeMetricSpec& spec,
               const std::vector<std::string>& values, double value);

}  // namespace rocewatch::lint::serve
