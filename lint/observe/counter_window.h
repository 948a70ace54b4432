#pragma once

// What a counter grew by over the counter window: one rule for every source roce-lint observes
// through — two sets of files (--previous-metrics-dir), two scrapes (--counter-window, `serve`)
// and a query API (--prometheus), whatever its engine (Prometheus, Thanos, Mimir: PromQL;
// VictoriaMetrics: MetricsQL). The engines' own increase() differ exactly where a fleet lives
// (MetricsQL counts a series whose first sample is inside the window from zero, PromQL needs two
// samples in the window and extrapolates), so the stores are asked for raw values at the
// window's two ends (lint/observe/counter_queries.h), never for their increase().
//
//  - A node that was not observed at the window's start has no increase at all: its counter
//    checks do not run, and the report says so once (a node that joined inside the window).
//  - A series that a node observed at the start did not have counts from zero: the exporter
//    serves some series only once their counter is non-zero (the per-priority pause counters),
//    and a new series of a known node is such a series.
//  - A value below the one before it is a reset: the counter counted again from zero, so what it
//    grew by since is its new value.

#include <cstdint>
#include <optional>
#include <span>

namespace rocewatch::lint::observe {

// How long before a window end a sample still says what a series held there: Prometheus's
// default lookback delta, and what the queries ask each end's last sample within.
inline constexpr double kCounterLookbackSeconds = 300;

// What a counter grew by from `before` to `after`, the next value it was seen at (a counter
// below zero, which no counter is, grew by nothing).
inline double CounterGrowth(double before, double after) {
  return after >= before ? after - before : (after > 0 ? after : 0);
}

struct TimedValue {
  double time = 0;  // unix seconds
  double value = 0;
};

// The window (end - length, end] with each end's value the last sample within the lookback.
struct CounterWindow {
  double end = 0;     // unix seconds
  double length = 0;  // seconds
  double start() const { return end - length; }
};

// What one series grew by over `window`, from its samples in time order (those outside the
// window and its start's lookback are ignored): from the last sample at or before the start
// (within the lookback), or from zero when there is none, through every sample inside the
// window. Nullopt when the series has no sample within the lookback before the end (it is gone,
// as a series missing from the later of two files is).
std::optional<double> IncreaseOver(const CounterWindow& window, std::span<const TimedValue> samples);

}  // namespace rocewatch::lint::observe
