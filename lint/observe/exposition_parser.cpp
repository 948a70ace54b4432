// The text-format parser behind Exposition::Parse: one pass over the lines, names interned,
// label values as views into the text (or the arena when they had escapes), duplicates found
// through a flat hash set of series.

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>

#include "lint/observe/exposition.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::observe {

namespace {

struct CharClasses {
  std::array<bool, 256> metric_start{}, metric_char{}, label_start{}, label_char{};
  constexpr CharClasses() {
    for (int c = 0; c < 256; ++c) {
      bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
      bool digit = c >= '0' && c <= '9';
      metric_start[c] = alpha || c == ':';
      metric_char[c] = alpha || digit || c == ':';
      label_start[c] = alpha;
      label_char[c] = alpha || digit;
    }
  }
};
constexpr CharClasses kChars;

inline unsigned char U(char c) { return static_cast<unsigned char>(c); }

inline const char* SkipBlanks(const char* p, const char* end) {
  while (p < end && (*p == ' ' || *p == '\t')) ++p;
  return p;
}

inline std::uint64_t Mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  return h;
}

// Go's strconv.ParseFloat as Prometheus uses it: decimal and exponent forms, NaN, Inf with an
// optional sign, case-insensitive.
bool ParseValue(const char* b, const char* e, double* out) {
  if (b < e && *b == '+') {
    ++b;
    if (b < e && (*b == '+' || *b == '-')) return false;
  }
  if (b == e) return false;
  if (std::memchr(b, '(', static_cast<std::size_t>(e - b)) != nullptr) return false;  // nan(...)
  auto [ptr, ec] = std::from_chars(b, e, *out);
  return ec == std::errc() && ptr == e;
}

bool ParseTimestamp(const char* b, const char* e, std::int64_t* out) {
  if (b < e && *b == '+') ++b;
  if (b == e) return false;
  auto [ptr, ec] = std::from_chars(b, e, *out);
  return ec == std::errc() && ptr == e;
}

}  // namespace

class ExpositionParser {
 public:
  ExpositionParser(Exposition& out, const ParseOptions& options) : x_(out), options_(options) {}

  void Run() {
    const std::string& text = *x_.text_;
    const std::size_t guess = text.size() / 80 + 16;
    x_.samples_.reserve(guess);
    x_.labels_.reserve(guess * 4);
    sample_hashes_.reserve(guess);
    dedup_slots_.assign(RoundUpPow2(guess * 2), 0);

    const char* p = text.data();
    const char* end = p + text.size();
    std::size_t line = 0;
    while (p < end) {
      ++line;
      const char* eol =
          static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
      const char* next = eol ? eol + 1 : end;
      if (!eol) eol = end;
      const char* line_end = (eol > p && eol[-1] == '\r') ? eol - 1 : eol;
      line_ = static_cast<std::uint32_t>(line);
      ParseLine(p, line_end);
      p = next;
    }
    x_.line_count_ = line;
    BuildMetricIndex();
  }

 private:
  static std::size_t RoundUpPow2(std::size_t n) {
    std::size_t v = 64;
    while (v < n) v <<= 1;
    return v;
  }

  void Report(LineError::Kind kind, std::string message) {
    ++x_.error_count_;
    if (x_.errors_.size() < options_.max_errors) {
      x_.errors_.push_back({kind, line_, std::move(message)});
    }
  }

  void ParseLine(const char* p, const char* end) {
    p = SkipBlanks(p, end);
    if (p == end) return;
    if (*p == '#') {
      ParseComment(p + 1, end);
      return;
    }
    const std::size_t labels_before = x_.labels_.size();
    if (!ParseSample(p, end)) x_.labels_.resize(labels_before);
  }

  // "# HELP name text" and "# TYPE name type"; any other comment is ignored.
  void ParseComment(const char* p, const char* end) {
    p = SkipBlanks(p, end);
    const char* w = p;
    while (p < end && *p != ' ' && *p != '\t') ++p;
    std::string_view word(w, static_cast<std::size_t>(p - w));
    bool help = word == "HELP";
    if (!help && word != "TYPE") return;
    p = SkipBlanks(p, end);
    const char* ns = p;
    if (p < end && kChars.metric_start[U(*p)]) {
      ++p;
      while (p < end && kChars.metric_char[U(*p)]) ++p;
    }
    std::string_view name(ns, static_cast<std::size_t>(p - ns));
    if (name.empty() || (p < end && *p != ' ' && *p != '\t')) {
      Report(LineError::Kind::kSyntax,
             std::string(word) + " line without a valid metric name: " +
                 Quote(std::string_view(ns, static_cast<std::size_t>(end - ns))));
      return;
    }
    Family& family = FamilyFor(name);
    p = SkipBlanks(p, end);
    if (help) {
      if (family.has_help) {
        Report(LineError::Kind::kDuplicateMetadata, "second HELP line for " + std::string(name) +
                                                        " (first at line " +
                                                        std::to_string(family.help_line) + ")");
        return;
      }
      family.has_help = true;
      family.help_line = line_;
      family.help = UnescapeHelp(p, end);
      return;
    }
    const char* ts = p;
    while (p < end && *p != ' ' && *p != '\t') ++p;
    std::string_view type(ts, static_cast<std::size_t>(p - ts));
    if (SkipBlanks(p, end) != end) {
      Report(LineError::Kind::kSyntax,
             "unexpected text after the type in TYPE line for " + std::string(name));
      return;
    }
    MetricType t;
    if (type == "counter") {
      t = MetricType::kCounter;
    } else if (type == "gauge") {
      t = MetricType::kGauge;
    } else if (type == "histogram") {
      t = MetricType::kHistogram;
    } else if (type == "summary") {
      t = MetricType::kSummary;
    } else if (type == "untyped") {
      t = MetricType::kUntyped;
    } else {
      Report(LineError::Kind::kSyntax, "unknown metric type " + Quote(type) + " for " +
                                           std::string(name) +
                                           " (expected counter, gauge, histogram, summary or "
                                           "untyped)");
      return;
    }
    if (family.has_type) {
      Report(LineError::Kind::kDuplicateMetadata, "second TYPE line for " + std::string(name) +
                                                      " (first at line " +
                                                      std::to_string(family.type_line) + ")");
      return;
    }
    family.has_type = true;
    family.type = t;
    family.type_line = line_;
  }

  std::string_view UnescapeHelp(const char* p, const char* end) {
    std::string_view raw(p, static_cast<std::size_t>(end - p));
    if (raw.find('\\') == std::string_view::npos) return raw;
    char* out = x_.arena_.Allocate(raw.size());
    std::size_t n = 0;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '\\' && i + 1 < raw.size() && (raw[i + 1] == '\\' || raw[i + 1] == 'n')) {
        out[n++] = raw[i + 1] == 'n' ? '\n' : '\\';
        ++i;
      } else {
        out[n++] = raw[i];
      }
    }
    return {out, n};
  }

  Family& FamilyFor(std::string_view name) {
    std::uint32_t id = x_.names_.Intern(name);
    if (x_.family_by_name_.size() <= id) x_.family_by_name_.resize(id + 1, -1);
    if (x_.family_by_name_[id] < 0) {
      x_.family_by_name_[id] = static_cast<std::int32_t>(x_.families_.size());
      Family f;
      f.name = x_.names_.Name(id);
      x_.families_.push_back(f);
    }
    return x_.families_[static_cast<std::size_t>(x_.family_by_name_[id])];
  }

  std::uint32_t InternMetric(std::string_view name) {
    if (name.size() == last_metric_.size() &&
        std::memcmp(name.data(), last_metric_.data(), name.size()) == 0) {
      return last_metric_id_;
    }
    last_metric_ = name;
    last_metric_id_ = x_.names_.Intern(name);
    return last_metric_id_;
  }

  std::uint32_t InternLabel(std::string_view name, std::size_t position) {
    if (position < kLabelCache) {
      auto& [cached, id] = label_cache_[position];
      if (name.size() == cached.size() &&
          std::memcmp(name.data(), cached.data(), name.size()) == 0) {
        return id;
      }
      cached = name;
      id = x_.names_.Intern(name);
      return id;
    }
    return x_.names_.Intern(name);
  }

  // Reads a quoted label value starting after the opening quote. On success `*p` is past the
  // closing quote.
  bool ReadLabelValue(const char** p, const char* end, std::string_view label,
                      std::string_view* value) {
    const char* vs = *p;
    const char* q =
        static_cast<const char*>(std::memchr(vs, '"', static_cast<std::size_t>(end - vs)));
    const char* bs = static_cast<const char*>(
        std::memchr(vs, '\\', static_cast<std::size_t>((q ? q : end) - vs)));
    if (q != nullptr && bs == nullptr) {  // fast path: no escapes
      *value = std::string_view(vs, static_cast<std::size_t>(q - vs));
      *p = q + 1;
      return Utf8LabelValue(*value, label);
    }
    // Slow path: find the closing quote past escapes, then unescape into the arena.
    const char* c = vs;
    while (c < end && *c != '"') {
      if (*c == '\\') {
        if (c + 1 >= end) break;
        char e = c[1];
        if (e != '\\' && e != '"' && e != 'n') {
          Report(LineError::Kind::kSyntax, "invalid escape \\" + std::string(1, e) +
                                               " in the value of label " + std::string(label) +
                                               " (only \\\\, \\\" and \\n are allowed)");
          return false;
        }
        c += 2;
      } else {
        ++c;
      }
    }
    if (c >= end) {
      Report(LineError::Kind::kSyntax,
             "unterminated value of label " + std::string(label) + ": missing closing '\"'");
      return false;
    }
    char* out = x_.arena_.Allocate(static_cast<std::size_t>(c - vs));
    std::size_t n = 0;
    for (const char* r = vs; r < c; ++r) {
      if (*r == '\\') {
        ++r;
        out[n++] = *r == 'n' ? '\n' : *r;
      } else {
        out[n++] = *r;
      }
    }
    *value = std::string_view(out, n);
    *p = c + 1;
    return Utf8LabelValue(*value, label);
  }

  // The text format is UTF-8, and label values go on into JSON reports and alerts, whose writer
  // throws on anything else: like Prometheus, a value that is not UTF-8 makes the line malformed.
  // ASCII (every byte below 0x80) is the fast path.
  bool Utf8LabelValue(std::string_view value, std::string_view label) {
    const bool ascii =
        std::none_of(value.begin(), value.end(), [](char ch) { return U(ch) >= 0x80; });
    if (ascii || FirstInvalidUtf8(value) == std::string_view::npos) return true;
    Report(LineError::Kind::kSyntax, "the value of label " + std::string(label) + " is not UTF-8");
    return false;
  }

  bool ParseSample(const char* p, const char* end) {
    const char* line_start = p;
    if (!kChars.metric_start[U(*p)]) {
      Report(LineError::Kind::kSyntax,
             "invalid metric name at the start of " +
                 Quote(std::string_view(p, static_cast<std::size_t>(end - p))));
      return false;
    }
    const char* ns = p++;
    while (p < end && kChars.metric_char[U(*p)]) ++p;
    std::string_view name(ns, static_cast<std::size_t>(p - ns));
    Sample s;
    s.metric = InternMetric(name);
    s.first_label = static_cast<std::uint32_t>(x_.labels_.size());
    s.line = line_;
    p = SkipBlanks(p, end);
    if (p < end && *p == '{') {
      ++p;
      std::size_t position = 0;
      while (true) {
        p = SkipBlanks(p, end);
        if (p >= end) {
          Report(LineError::Kind::kSyntax,
                 "label set of " + std::string(name) + " has no closing '}'");
          return false;
        }
        if (*p == '}') {
          ++p;
          break;
        }
        if (!kChars.label_start[U(*p)]) {
          Report(LineError::Kind::kSyntax,
                 "invalid label name in " + std::string(name) + " at " +
                     Quote(std::string_view(p, static_cast<std::size_t>(end - p)), 24));
          return false;
        }
        const char* ls = p++;
        while (p < end && kChars.label_char[U(*p)]) ++p;
        std::string_view label(ls, static_cast<std::size_t>(p - ls));
        p = SkipBlanks(p, end);
        if (p >= end || *p != '=') {
          Report(LineError::Kind::kSyntax, "expected '=' after label name " + std::string(label) +
                                               " of " + std::string(name));
          return false;
        }
        p = SkipBlanks(p + 1, end);
        if (p >= end || *p != '"') {
          Report(LineError::Kind::kSyntax, "expected '\"' to open the value of label " +
                                               std::string(label) + " of " + std::string(name));
          return false;
        }
        ++p;
        std::string_view value;
        if (!ReadLabelValue(&p, end, label, &value)) return false;
        x_.labels_.push_back({InternLabel(label, position++), value});
        p = SkipBlanks(p, end);
        if (p < end && *p == ',') {
          ++p;
          continue;
        }
        if (p < end && *p == '}') {
          ++p;
          break;
        }
        Report(LineError::Kind::kSyntax, "expected ',' or '}' after the value of label " +
                                             std::string(label) + " of " + std::string(name));
        return false;
      }
      p = SkipBlanks(p, end);
    } else if (p == ns + name.size() && p < end) {
      // The name runs straight into something that is not a name character, '{' or a blank.
      Report(LineError::Kind::kSyntax,
             "invalid character " + Quote(std::string_view(p, 1)) + " in metric name " +
                 Quote(std::string_view(line_start, static_cast<std::size_t>(p - line_start + 1))));
      return false;
    }
    s.label_count = static_cast<std::uint32_t>(x_.labels_.size() - s.first_label);

    const char* vs = p;
    while (p < end && *p != ' ' && *p != '\t') ++p;
    if (vs == p) {
      Report(LineError::Kind::kSyntax, "missing value for " + std::string(name));
      return false;
    }
    if (!ParseValue(vs, p, &s.value)) {
      Report(LineError::Kind::kSyntax,
             "invalid value " + Quote(std::string_view(vs, static_cast<std::size_t>(p - vs))) +
                 " for " + std::string(name));
      return false;
    }
    p = SkipBlanks(p, end);
    if (p < end) {
      const char* ts = p;
      while (p < end && *p != ' ' && *p != '\t') ++p;
      if (!ParseTimestamp(ts, p, &s.timestamp_ms)) {
        Report(LineError::Kind::kSyntax,
               "invalid timestamp " +
                   Quote(std::string_view(ts, static_cast<std::size_t>(p - ts))) + " for " +
                   std::string(name) + " (expected integer milliseconds)");
        return false;
      }
      s.has_timestamp = true;
      if (SkipBlanks(p, end) != end) {
        Report(LineError::Kind::kSyntax,
               "unexpected text after the timestamp of " + std::string(name));
        return false;
      }
    }

    if (!SortLabels(s, name)) return false;
    return AddUnlessDuplicate(s);
  }

  // Labels sorted by name (usually already are); a label given twice is an error.
  bool SortLabels(const Sample& s, std::string_view metric) {
    Label* first = x_.labels_.data() + s.first_label;
    Label* last = first + s.label_count;
    auto less = [&](const Label& a, const Label& b) {
      return x_.names_.Name(a.name) < x_.names_.Name(b.name);
    };
    bool sorted = true;
    for (Label* l = first; l + 1 < last; ++l) {
      if (l[0].name == l[1].name || !less(l[0], l[1])) {
        sorted = false;
        break;
      }
    }
    if (sorted) return true;
    std::stable_sort(first, last, less);
    for (Label* l = first; l + 1 < last; ++l) {
      if (l[0].name == l[1].name) {
        Report(LineError::Kind::kSyntax, "label " + std::string(x_.names_.Name(l->name)) +
                                             " appears twice in " + std::string(metric));
        return false;
      }
    }
    return true;
  }

  std::uint64_t SeriesHash(const Sample& s) const {
    std::uint64_t h = Mix(0x51ED270B27A5F1A3ull, s.metric);
    for (std::uint32_t i = 0; i < s.label_count; ++i) {
      const Label& l = x_.labels_[s.first_label + i];
      h = Mix(h, l.name);
      h = Mix(h, NameTable::Hash(l.value));
    }
    return h;
  }

  bool SameSeries(const Sample& a, const Sample& b) const {
    if (a.metric != b.metric || a.label_count != b.label_count) return false;
    for (std::uint32_t i = 0; i < a.label_count; ++i) {
      const Label& la = x_.labels_[a.first_label + i];
      const Label& lb = x_.labels_[b.first_label + i];
      if (la.name != lb.name || la.value != lb.value) return false;
    }
    return true;
  }

  bool AddUnlessDuplicate(const Sample& s) {
    const std::uint64_t h = SeriesHash(s);
    std::size_t mask = dedup_slots_.size() - 1;
    std::size_t i = h & mask;
    for (;; i = (i + 1) & mask) {
      std::uint32_t slot = dedup_slots_[i];
      if (slot == 0) break;
      const std::uint32_t other = slot - 1;
      if (sample_hashes_[other] == h && SameSeries(x_.samples_[other], s)) {
        Report(LineError::Kind::kDuplicateSeries,
               "duplicate series " + x_.SeriesString(s) + " (first at line " +
                   std::to_string(x_.samples_[other].line) + "); the repeat is ignored");
        return false;
      }
    }
    const auto index = static_cast<std::uint32_t>(x_.samples_.size());
    dedup_slots_[i] = index + 1;
    x_.samples_.push_back(s);
    sample_hashes_.push_back(h);
    if (x_.samples_.size() * 2 > dedup_slots_.size()) GrowDedup();
    return true;
  }

  void GrowDedup() {
    std::vector<std::uint32_t> slots(dedup_slots_.size() * 2, 0);
    std::size_t mask = slots.size() - 1;
    for (std::uint32_t id = 0; id < sample_hashes_.size(); ++id) {
      std::size_t i = sample_hashes_[id] & mask;
      while (slots[i] != 0) i = (i + 1) & mask;
      slots[i] = id + 1;
    }
    dedup_slots_ = std::move(slots);
  }

  // Counting sort of sample indices by metric id.
  void BuildMetricIndex() {
    const std::size_t n = x_.names_.size();
    x_.by_metric_offsets_.assign(n + 1, 0);
    for (const Sample& s : x_.samples_) ++x_.by_metric_offsets_[s.metric + 1];
    for (std::size_t i = 0; i < n; ++i) x_.by_metric_offsets_[i + 1] += x_.by_metric_offsets_[i];
    x_.by_metric_.resize(x_.samples_.size());
    std::vector<std::uint32_t> fill(x_.by_metric_offsets_.begin(), x_.by_metric_offsets_.end() - 1);
    for (std::uint32_t i = 0; i < x_.samples_.size(); ++i) {
      x_.by_metric_[fill[x_.samples_[i].metric]++] = i;
    }
    if (x_.family_by_name_.size() < n) x_.family_by_name_.resize(n, -1);
  }

  static constexpr std::size_t kLabelCache = 16;

  Exposition& x_;
  const ParseOptions& options_;
  std::uint32_t line_ = 0;
  std::string_view last_metric_;
  std::uint32_t last_metric_id_ = 0;
  std::array<std::pair<std::string_view, std::uint32_t>, kLabelCache> label_cache_{};
  std::vector<std::uint64_t> sample_hashes_;
  std::vector<std::uint32_t> dedup_slots_;
};

Result<Exposition> Exposition::Parse(std::string text, const ParseOptions& options) {
  if (text.size() > options.max_bytes) {
    return Error{"exposition text is " + std::to_string(text.size()) +
                 " bytes, above the limit of " + std::to_string(options.max_bytes) + " bytes"};
  }
  if (text.size() > 0xFFFFFFFFull) return Error{"exposition text larger than 4 GiB"};
  Exposition x;
  *x.text_ = std::move(text);
  ExpositionParser(x, options).Run();
  return x;
}

}  // namespace rocewatch::lint::observe
