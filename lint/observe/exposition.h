#pragma once

// The Prometheus text exposition format 0.0.4 (what roce_exporter and node_exporter serve),
// parsed into a compact, indexed structure for the checks.
//
// Fast and allocation-light: the Exposition owns the input text; metric and label names are
// interned to 32-bit ids; label values are string_views into the text (or, when they had
// escapes, into an arena owned by the Exposition). Nothing is allocated per sample beyond the
// amortized growth of a few flat vectors.
//
// A malformed line is reported with its line number and skipped; the rest is kept. A series
// that repeats (same name and label set) is reported and the repeat dropped, keeping the first.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lint/observe/arena.h"
#include "lint/observe/name_table.h"
#include "rocewatch/result.h"

namespace rocewatch::lint::observe {

enum class MetricType : std::uint8_t { kUntyped, kCounter, kGauge, kHistogram, kSummary };
std::string_view MetricTypeName(MetricType type);

struct ParseOptions {
  std::size_t max_bytes = 64u << 20;  // larger input is refused with an Error
  std::size_t max_errors = 1000;      // errors beyond this are counted but not stored
};

struct LineError {
  enum class Kind : std::uint8_t { kSyntax, kDuplicateSeries, kDuplicateMetadata };
  Kind kind = Kind::kSyntax;
  std::size_t line = 0;  // 1-based
  std::string message;   // "line 12: …" is added by ToString()
  std::string ToString() const { return "line " + std::to_string(line) + ": " + message; }
};

struct Label {
  std::uint32_t name = 0;  // interned id: Exposition::Name(name)
  std::string_view value;  // unescaped
};

struct Sample {
  std::uint32_t metric = 0;       // interned id of the metric name
  std::uint32_t first_label = 0;  // index into the label array
  std::uint32_t label_count = 0;  // labels are sorted by name
  std::uint32_t line = 0;         // 1-based source line
  double value = 0;               // NaN, +Inf and -Inf included
  std::int64_t timestamp_ms = 0;  // valid when has_timestamp
  bool has_timestamp = false;
};

struct Family {
  std::string_view name;
  MetricType type = MetricType::kUntyped;
  bool has_type = false;
  bool has_help = false;
  std::string_view help;  // unescaped
  std::size_t type_line = 0;
  std::size_t help_line = 0;
};

class Exposition {
 public:
  static Result<Exposition> Parse(std::string text, const ParseOptions& options = {});

  Exposition(Exposition&&) noexcept;
  Exposition& operator=(Exposition&&) noexcept;
  ~Exposition();

  std::span<const Sample> samples() const { return samples_; }
  std::span<const Family> families() const { return families_; }
  // Stored errors, in line order (at most ParseOptions::max_errors).
  const std::vector<LineError>& errors() const { return errors_; }
  // All errors, stored or not.
  std::size_t error_count() const { return error_count_; }
  std::size_t line_count() const { return line_count_; }

  std::string_view Name(std::uint32_t id) const { return names_.Name(id); }
  std::string_view MetricName(const Sample& s) const { return names_.Name(s.metric); }
  std::span<const Label> LabelsOf(const Sample& s) const {
    return std::span<const Label>(labels_).subspan(s.first_label, s.label_count);
  }
  std::optional<std::string_view> LabelValue(const Sample& s, std::string_view label_name) const;
  // The interned id of a metric or label name (for repeated lookups), or kNoName.
  static constexpr std::uint32_t kNoName = 0xffffffffu;
  std::uint32_t NameId(std::string_view name) const;
  std::optional<std::string_view> LabelValueById(const Sample& s, std::uint32_t label_id) const;
  // `name{a="1",b="2"}`, with values escaped as in the text format.
  std::string SeriesString(const Sample& s) const;

  // Indices into samples() of every sample of `metric`, in input order.
  std::span<const std::uint32_t> SamplesOf(std::string_view metric) const;
  // Indices of the samples of `metric` whose label `label` equals `value`. The index behind it is
  // built on first use per (metric, label) and then kept; safe to call from several threads.
  std::span<const std::uint32_t> Find(std::string_view metric, std::string_view label,
                                      std::string_view value) const;
  // The family `name` (HELP/TYPE), or, for name_bucket/_sum/_count of a histogram or summary,
  // that family; nullptr when there is no metadata.
  const Family* FamilyOf(std::string_view metric) const;

 private:
  struct LazyIndex;
  friend class ExpositionParser;
  Exposition();

  std::unique_ptr<std::string> text_;  // heap-held so views survive moves
  Arena arena_;
  NameTable names_;
  std::vector<Sample> samples_;
  std::vector<Label> labels_;
  std::vector<Family> families_;
  std::vector<std::int32_t> family_by_name_;      // name id -> index in families_, or -1
  std::vector<std::uint32_t> by_metric_offsets_;  // CSR over name ids: size names+1
  std::vector<std::uint32_t> by_metric_;
  std::vector<LineError> errors_;
  std::size_t error_count_ = 0;
  std::size_t line_count_ = 0;
  std::unique_ptr<LazyIndex> lazy_;
};

}  // namespace rocewatch::lint::observe
