#include "lint/observe/prometheus_answer.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "rocewatch/strings.h"

namespace rocewatch::lint::observe {
namespace {

// Escapes a label value for the text format.
void AppendEscapedLabel(std::string& out, std::string_view v) {
  for (char c : v) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
}

bool IsAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// [a-zA-Z_:][a-zA-Z0-9_:]*
bool IsMetricName(std::string_view s) {
  if (s.empty() || IsDigit(s[0])) return false;
  for (char c : s)
    if (!IsAlpha(c) && !IsDigit(c) && c != ':') return false;
  return true;
}

// [a-zA-Z_][a-zA-Z0-9_]*
bool IsLabelName(std::string_view s) {
  if (s.empty() || IsDigit(s[0])) return false;
  for (char c : s)
    if (!IsAlpha(c) && !IsDigit(c)) return false;
  return true;
}

// What the API writes for a sample value: "1", "0.25", "1e+06", "NaN", "+Inf", "-Inf". Only
// the characters of a number, so a value can never carry a line break or a second sample; the
// exposition parser decides whether it is a number.
bool IsValueText(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!IsAlpha(c) && !IsDigit(c) && c != '.' && c != '+' && c != '-') return false;
  return true;
}

using Json = nlohmann::json;

// The answer's events, walked with a stack of open containers. Where each value sits is told by
// the path of member names from the root ("[]" for an array element):
//   status, error                          the outcome
//   data.resultType, data.result[]         the vector, one object per sample:
//   data.result[].metric.<label>           its labels (strings)
//   data.result[].value[1]                 its value (a string)
//   data.result[].values[][0], [1]         a matrix series' samples: time (a number), value
//   data.stats.timings.evalTotalTime, data.stats.samples.{totalQueryableSamples,peakSamples}
class AnswerReader : public nlohmann::json_sax<Json> {
 public:
  explicit AnswerReader(const AnswerOptions& options) : options_(options) {}

  bool null() override { return Scalar(nullptr, 0); }
  bool boolean(bool) override { return Scalar(nullptr, 0); }
  bool number_integer(number_integer_t v) override { return Scalar(nullptr, static_cast<double>(v)); }
  bool number_unsigned(number_unsigned_t v) override { return Scalar(nullptr, static_cast<double>(v)); }
  bool number_float(number_float_t v, const string_t&) override { return Scalar(nullptr, v); }
  bool string(string_t& v) override { return Scalar(&v, 0); }
  bool binary(binary_t&) override { return Scalar(nullptr, 0); }
  bool key(string_t& k) override {
    key_ = k;
    return true;
  }
  bool start_object(std::size_t) override { return InTime() && Open(false); }
  bool start_array(std::size_t) override { return InTime() && Open(true); }
  bool end_object() override { return Close(); }
  bool end_array() override { return Close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    syntax_error_ = true;
    return false;
  }

  bool syntax_error() const { return syntax_error_; }
  bool late() const { return late_; }
  bool too_many() const { return too_many_; }
  bool repeated() const { return repeated_; }
  bool root_object() const { return root_object_; }
  const std::string& status() const { return status_; }
  const std::string& error() const { return error_; }
  const std::string& result_type() const { return result_type_; }
  bool has_result_array() const { return result_array_; }
  VectorAnswer& answer() { return answer_; }

 private:
  struct Frame {
    bool array;
    std::string name;     // the member name (or "[]") this container sits under
    std::size_t index = 0;  // arrays: elements seen so far
  };
  static constexpr std::size_t kMaxDepth = 64;

  // False once options_.deadline has passed, looked at every 4096 containers (a sample is one).
  bool InTime() {
    if (!options_.deadline || (++opened_ & 4095) != 0) return true;
    late_ = std::chrono::steady_clock::now() > *options_.deadline;
    return !late_;
  }

  // The name the next value sits under in the innermost open container.
  std::string ChildName() const { return !stack_.empty() && stack_.back().array ? "[]" : key_; }
  // The innermost open containers' names equal `names`, from the root's child on.
  bool At(std::initializer_list<std::string_view> names) const {
    if (stack_.size() != names.size() + 1) return false;
    std::size_t i = 1;
    for (auto n : names)
      if (stack_[i++].name != n) return false;
    return true;
  }
  // Remembers a top-level or data member; a repeat is an Error (the answer is ambiguous).
  void Seen(std::string_view member) {
    if (!seen_.insert(std::string(member)).second) repeated_ = true;
  }

  bool Open(bool array) {
    if (stack_.size() >= kMaxDepth) return false;
    std::string name = stack_.empty() ? "" : ChildName();
    if (stack_.empty()) {
      root_object_ = !array;
    } else if (stack_.back().array) {
      ++stack_.back().index;
    }
    if (stack_.size() == 1 && stack_.front().array == false) Seen(name);
    if (At({"data"}) && !stack_.back().array) Seen("data." + name);
    if (At({"data"}) && name == "result") result_array_ = array;
    if (At({"data", "result"}) && !array) {  // one sample (or series) begins
      in_item_ = true;
      labels_.clear();
      value_.reset();
      timed_.clear();
      item_valid_ = true;
    }
    if (in_item_ && At({"data", "result", "[]", "values"}) && array) {  // one [time, value] pair
      pair_time_.reset();
      pair_value_.reset();
    }
    stack_.push_back(Frame{array, std::move(name)});
    return true;
  }

  bool Close() {
    if (stack_.empty()) return false;
    bool item = At({"data", "result", "[]"});
    if (in_item_ && At({"data", "result", "[]", "values", "[]"})) {
      auto value = pair_value_ ? ParseDouble(*pair_value_) : std::nullopt;
      if (!pair_time_ || !value || !IsValueText(*pair_value_)) {
        item_valid_ = false;
      } else {
        timed_.push_back({*pair_time_, *value});
      }
    }
    stack_.pop_back();
    if (item && in_item_) {
      Emit();
      in_item_ = false;
    }
    return true;
  }

  bool Scalar(const std::string* text, double number) {
    if (stack_.empty()) return true;  // a bare scalar document: not an object
    const std::string name = ChildName();
    std::size_t index = stack_.back().array ? stack_.back().index++ : 0;
    if (At({})) {
      Seen(name);
      if (name == "status") status_ = text != nullptr ? *text : "";
      if (name == "error") error_ = text != nullptr ? *text : "";
    } else if (At({"data"})) {
      Seen("data." + name);
      if (name == "resultType") result_type_ = text != nullptr ? *text : "";
      if (name == "result") result_array_ = false;
    } else if (in_item_ && At({"data", "result", "[]", "metric"})) {
      if (text == nullptr) {
        if (name == "__name__" || name == options_.key_label) item_valid_ = false;
        return true;  // a label that is not a string is left out, as before
      }
      // Kept up to the limits; a repeated label is found once the sample closes, by sorting (a
      // comparison with every earlier label made 150k labels take minutes).
      if (labels_.size() >= kMaxLabelsPerSample || name.size() > kMaxLabelNameBytes ||
          text->size() > kMaxLabelValueBytes) {
        if (item_valid_) ++answer_.skipped_over_limits;
        item_valid_ = false;
        return true;
      }
      labels_.emplace_back(name, *text);
    } else if (in_item_ && At({"data", "result", "[]", "values", "[]"})) {
      if (index == 0 && text == nullptr) pair_time_ = number;
      if (index == 1 && text != nullptr) pair_value_ = *text;
      if ((index == 0) == (text != nullptr) || index >= 2) item_valid_ = false;
    } else if (in_item_ && At({"data", "result", "[]", "value"})) {
      if (index == 1 && text != nullptr) value_ = *text;
      if (index == 1 && text == nullptr) item_valid_ = false;
      if (index >= 2) item_valid_ = false;
    } else if (At({"data", "stats", "timings"}) && name == "evalTotalTime") {
      answer_.eval_seconds += number;
    } else if (At({"data", "stats", "samples"}) && name == "totalQueryableSamples") {
      answer_.samples_touched += static_cast<std::uint64_t>(std::max(0.0, number));
    } else if (At({"data", "stats", "samples"}) && name == "peakSamples") {
      answer_.peak_samples = std::max(answer_.peak_samples, static_cast<std::uint64_t>(std::max(0.0, number)));
    }
    return true;
  }

  // The sample just closed, as one line of its node's text.
  void Emit() {
    if (!item_valid_) return;
    if (options_.increase_over != nullptr) {
      // The engines answer a matrix in time order; sorting costs nothing then and makes an
      // answer out of order mean what it says.
      std::stable_sort(timed_.begin(), timed_.end(),
                       [](const TimedValue& a, const TimedValue& b) { return a.time < b.time; });
      auto increase = IncreaseOver(*options_.increase_over, timed_);
      if (!increase) return;
      value_ = FormatDouble(*increase);
    }
    if (!value_ || !IsValueText(*value_)) return;
    std::sort(labels_.begin(), labels_.end());  // first: the views below point into labels_
    for (std::size_t i = 1; i < labels_.size(); ++i)
      if (labels_[i].first == labels_[i - 1].first) return;  // a repeated label
    if (answer_.samples >= kMaxSeriesPerQuery) {
      too_many_ = true;
      return;
    }
    std::string_view name = options_.metric_name;
    std::string_view key;
    for (const auto& [k, v] : labels_) {
      if (k == "__name__" && options_.metric_name.empty()) name = v;
      if (k == options_.key_label) key = v;
    }
    if (!IsMetricName(name) || key.empty()) return;
    std::string line(name);
    line += '{';
    bool first = true;
    for (const auto& [k, v] : labels_) {
      if (k == "__name__") continue;
      if (!IsLabelName(k)) return;
      if (!first) line += ',';
      first = false;
      line += k;
      line += "=\"";
      AppendEscapedLabel(line, v);
      line += '"';
    }
    line += "} ";
    line += *value_;
    line += '\n';
    answer_.texts[std::string(key)] += line;
    ++answer_.samples;
  }

  const AnswerOptions& options_;
  std::vector<Frame> stack_;
  std::string key_;
  std::set<std::string> seen_;
  std::size_t opened_ = 0;
  bool late_ = false;
  bool syntax_error_ = false, too_many_ = false, repeated_ = false, root_object_ = false, result_array_ = false;
  std::string status_, error_, result_type_;
  bool in_item_ = false, item_valid_ = false;
  std::vector<std::pair<std::string, std::string>> labels_;
  std::optional<std::string> value_;
  std::vector<TimedValue> timed_;  // a matrix series' samples
  std::optional<double> pair_time_;
  std::optional<std::string> pair_value_;
  VectorAnswer answer_;
};

}  // namespace

Result<VectorAnswer> ParseVectorAnswer(std::string_view body, std::string_view where,
                                       const AnswerOptions& options) {
  const std::string prefix(where);
  AnswerReader reader(options);
  const bool parsed = Json::sax_parse(body.begin(), body.end(), &reader, nlohmann::json::input_format_t::json,
                                      /*strict=*/true);
  if (reader.late()) return Error{prefix + ": answer not read within the query's timeout (--timeout)"};
  if (!parsed || reader.syntax_error() || !reader.root_object()) return Error{prefix + ": answer is not JSON"};
  if (reader.repeated()) return Error{prefix + ": answer repeats a member"};
  if (reader.too_many())
    return Error{prefix + ": more than " + std::to_string(kMaxSeriesPerQuery) +
                 " series in one answer; roce-lint reads at most that many (docs/security.md)"};
  if (reader.status() != "success")
    return Error{prefix + ": " + (reader.error().empty() ? "status is not success" : reader.error())};
  const std::string_view expected = options.increase_over != nullptr ? "matrix" : "vector";
  if (reader.result_type() != expected || !reader.has_result_array())
    return Error{prefix + ": expected a result " + std::string(expected)};
  return std::move(reader.answer());
}

Result<std::map<std::string, std::string>> SplitVectorAnswerByInstance(std::string_view body,
                                                                       std::string_view where) {
  auto answer = ParseVectorAnswer(body, where);
  if (!answer) return answer.error();
  return std::move(answer->texts);
}

}  // namespace rocewatch::lint::observe
