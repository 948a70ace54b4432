#pragma once

// The queries that read a counter window from a Prometheus-compatible store
// (lint/observe/counter_window.h says what the window means). Only what PromQL and MetricsQL
// evaluate alike: the last raw sample within a range (last_over_time), with and without offset,
// `or`, `-`, resets() as a filter (MetricsQL also compares with the sample before the range, so
// it may name a series PromQL does not; the raw samples decide), and a range selector's raw
// samples. Never increase(): MetricsQL counts a series first seen inside the window from zero,
// PromQL needs two samples in it and extrapolates.

#include <string>
#include <string_view>

#include "lint/observe/counter_window.h"

namespace rocewatch::lint::observe {

// `[300000ms]`: a range any PromQL engine parses (integer units only).
std::string RangeText(double seconds);

// Every series of `family{match}` with its growth from the window's start (the last sample
// within the lookback before it, or 0 when there is none) to its end (the same at the end):
// exact unless the counter was reset inside the window. Negative where a reset shows.
std::string EndsQuery(std::string_view family, std::string_view match, const CounterWindow& window);
// Every series of `family{match}` that has a sample within the lookback before both of the
// window's ends, with its growth between them (negative where a reset shows). A series with no
// sample at the start is left out: for sources that serve every counter always (a switch's
// SNMP table), such a series belongs to a port that was not observed at the start.
std::string BothEndsQuery(std::string_view family, std::string_view match, const CounterWindow& window);
// The series of `family{match}` that went down between two samples around the window, and may
// have been reset inside it: those are read again as raw samples.
std::string ResetsQuery(std::string_view family, std::string_view match, const CounterWindow& window);
// The raw samples of `family{match}` from a lookback before the window's start to its end, as a
// matrix (ParseVectorAnswer with AnswerOptions::increase_over).
std::string RawSamplesQuery(std::string_view family, std::string_view match, const CounterWindow& window);
// One sample per node (by `key_label`) that had `presence_family` within the lookback before the
// window's start: the nodes observed at the start, whose counters have an increase.
std::string ObservedAtStartQuery(std::string_view presence_family, std::string_view key_label,
                                 std::string_view match, const CounterWindow& window);

}  // namespace rocewatch::lint::observe
