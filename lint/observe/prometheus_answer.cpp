#include "lint/observe/prometheus_answer.h"

#include <nlohmann/json.hpp>

namespace rocewatch::lint::observe {
namespace {

// Escapes a label value for the text format.
std::string EscapeLabel(std::string_view v) {
  std::string out;
  for (char c : v) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
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

// Member `key` of `object`, nullptr when `object` is not an object or has no such member.
const nlohmann::json* Member(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

// The string member `key`, "" when it is missing or not a string.
std::string StringMember(const nlohmann::json& object, const char* key) {
  const nlohmann::json* member = Member(object, key);
  return member != nullptr && member->is_string() ? member->get<std::string>() : std::string();
}

}  // namespace

Result<std::map<std::string, std::string>> SplitVectorAnswerByInstance(std::string_view body,
                                                                       std::string_view where) {
  const std::string prefix(where);
  const nlohmann::json doc = nlohmann::json::parse(body, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return Error{prefix + ": answer is not JSON"};
  // Only find() and typed checks below: a const operator[] on a missing key is undefined
  // behaviour in nlohmann-json, and value() throws when the key holds another type.
  if (StringMember(doc, "status") != "success") {
    const std::string error = StringMember(doc, "error");
    return Error{prefix + ": " + (error.empty() ? "status is not success" : error)};
  }
  const nlohmann::json* data = Member(doc, "data");
  const nlohmann::json* result = data != nullptr ? Member(*data, "result") : nullptr;
  if (data == nullptr || StringMember(*data, "resultType") != "vector" || result == nullptr ||
      !result->is_array())
    return Error{prefix + ": expected a result vector"};
  std::map<std::string, std::string> by_instance;
  for (const auto& item : *result) {
    const nlohmann::json* metric = Member(item, "metric");
    const nlohmann::json* sample = Member(item, "value");
    if (metric == nullptr || !metric->is_object() || sample == nullptr || !sample->is_array() ||
        sample->size() != 2 || !(*sample)[1].is_string())
      continue;
    const std::string name = StringMember(*metric, "__name__");
    const std::string instance = StringMember(*metric, "instance");
    const std::string value = (*sample)[1].get<std::string>();
    if (!IsMetricName(name) || instance.empty() || !IsValueText(value)) continue;
    std::string line = name + "{";
    bool first = true;
    bool valid = true;
    for (auto it = metric->begin(); it != metric->end(); ++it) {
      if (it.key() == "__name__" || !it.value().is_string()) continue;
      if (!IsLabelName(it.key())) {
        valid = false;
        break;
      }
      if (!first) line += ',';
      first = false;
      line += it.key() + "=\"" + EscapeLabel(it.value().get<std::string>()) + "\"";
    }
    if (!valid) continue;
    line += "} " + value + "\n";
    by_instance[instance] += line;
  }
  return by_instance;
}

}  // namespace rocewatch::lint::observe
