#pragma once

// The answer of a Prometheus-compatible instant query (GET/POST /api/v1/query: Prometheus,
// Thanos, Mimir, VictoriaMetrics) turned into exposition text, one text per node. Read as a
// stream of JSON events (nlohmann's SAX parser): no document tree is built, so an answer
// costs its bytes plus the text it becomes. Pure: bytes in, text out, no I/O, so it is
// unit-tested and fuzzed (tests/fuzz/prometheus_answer_fuzz.cpp) on its own.

#include <chrono>
#include <cstdint>
#include <optional>
#include <map>
#include <string>
#include <string_view>

#include "lint/observe/counter_window.h"
#include "rocewatch/result.h"

namespace rocewatch::lint::observe {

struct AnswerOptions {
  // The label whose value names the node a sample belongs to ("instance": the exporter's
  // address; "node" with `roce-lint targets`' labels).
  std::string_view key_label = "instance";
  // When set, every sample is of this family: functions such as increase() drop __name__.
  std::string_view metric_name;
  // When set, the answer is a range query's "matrix" of raw samples (`family{…}[range]`), and
  // each series becomes one line whose value is what it grew by over this window
  // (IncreaseOver, lint/observe/counter_window.h); a series that has none is left out.
  const CounterWindow* increase_over = nullptr;
  // When set, reading the answer stops with an Error once this time has passed: --timeout bounds
  // the whole query, the parsing of its answer included.
  std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt;
};

// Limits on one answer (docs/security.md): a sample past a label limit is skipped and counted;
// an answer of more series is an Error. The exporter writes at most 8 labels of ~100 bytes, and
// a 10,000-node cluster of 8 NICs at 8 priorities is 640,000 series.
inline constexpr std::size_t kMaxLabelsPerSample = 64;
inline constexpr std::size_t kMaxLabelNameBytes = 256;
inline constexpr std::size_t kMaxLabelValueBytes = 4096;
inline constexpr std::size_t kMaxSeriesPerQuery = 1000000;

struct VectorAnswer {
  std::map<std::string, std::string> texts;  // by the key label's value
  std::size_t samples = 0;                   // lines written
  std::size_t skipped_over_limits = 0;       // samples past kMaxLabelsPerSample or a label's length
  // The store's own cost, when it reports one (Prometheus with stats=all): 0 otherwise.
  double eval_seconds = 0;
  std::uint64_t samples_touched = 0;  // data.stats.samples.totalQueryableSamples
  std::uint64_t peak_samples = 0;     // data.stats.samples.peakSamples
};

// Each sample of a "vector" result (or each series of a "matrix", with increase_over) becomes one line `name{label="value",...} value` (labels
// sorted by name), appended to the text of its key label's value. A sample is skipped (never
// turned into other lines) when it has no name or key label, a metric or label name the text
// format does not allow, a repeated label, or a value that is not a number. An Error, its
// message starting with `where`, when the body is not JSON, its status is not "success", its
// result is not a vector (a matrix, with increase_over), or a top-level member repeats.
Result<VectorAnswer> ParseVectorAnswer(std::string_view body, std::string_view where,
                                       const AnswerOptions& options = {});

// ParseVectorAnswer(body, where).texts, split by `instance`.
Result<std::map<std::string, std::string>> SplitVectorAnswerByInstance(std::string_view body,
                                                                       std::string_view where);

}  // namespace rocewatch::lint::observe
