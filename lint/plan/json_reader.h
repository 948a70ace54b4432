#pragma once

// Typed reading of a parsed JSON document that reports every problem of shape as a
// "plan.schema.*" finding at the value's JSON pointer and line:column, and goes on: a wrong
// value is skipped, the rest is read. Used by the plan loader (load.cpp).

#include <cstdint>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lint/core/finding.h"
#include "lint/core/finding_sink.h"
#include "lint/i18n/catalogue.h"
#include "lint/plan/model.h"
#include "lint/plan/plan_locator.h"

namespace rocewatch::lint::plan {

using json = nlohmann::json;

// "string \"9000\"", "number 9000.5", "an array", …: a value as a finding's "found", in the
// catalogue (lint/i18n/) where it has words.
i18n::Phrase Describe(const json& v);
// "netdev_mtu", "pfc_priorities[1]", "nodes[3]"; "the plan" (a catalogue message) for the root
// pointer.
i18n::Phrase DisplayName(std::string_view pointer);
// "\"a\", \"b\"".
std::string JoinQuoted(const std::vector<std::string>& values);

class JsonReader {
 public:
  static constexpr std::int64_t kMinInt = std::numeric_limits<std::int64_t>::min();
  static constexpr std::int64_t kMaxInt = std::numeric_limits<std::int64_t>::max();

  // `example_for(key)` gives an example value for the "add …" fix of a missing key.
  JsonReader(const PlanSource& source, std::function<std::string(std::string_view)> example_for)
      : locator_(source), sink_(locator_), example_for_(std::move(example_for)) {}
  // The sink points at the locator it holds.
  JsonReader(const JsonReader&) = delete;
  JsonReader& operator=(const JsonReader&) = delete;

  // The findings in document order.
  std::vector<Finding> Finish() { return sink_.Finish(); }
  // The node name put on findings from now on ("" for none).
  void set_node(std::string node) { node_ = std::move(node); }

  // A finding at the value (or, with at_key, at the member's key) of `pointer`. Each text is a
  // catalogue message (i18n::Phrase::Of), rendered in the report's language, or a value.
  void Report(std::string_view check, const std::string& pointer, i18n::Phrase message,
              i18n::Phrase expected, i18n::Phrase found, i18n::Phrase fix, bool at_key = false);
  // `expected`: a "plan.schema.kind.*" message. An empty `fix`: "change NAME to EXPECTED".
  void TypeError(const std::string& pointer, const json& v, const i18n::Phrase& expected,
                 std::optional<i18n::Phrase> fix = std::nullopt);
  // Reports unknown keys (with "did you mean") and missing required keys of `obj`; `what` names
  // the object ("profile \"a\"", "nics[0] of node \"gpu-01\"").
  void CheckKeys(const json& obj, const std::string& pointer,
                 const std::vector<std::string>& allowed, const std::vector<std::string>& required,
                 const i18n::Phrase& what);
  // True when `v` is an object (its keys are then checked); a type finding otherwise.
  bool Object(const json& v, const std::string& pointer, const std::vector<std::string>& allowed,
              const std::vector<std::string>& required, const i18n::Phrase& what);

  static const json* Member(const json& obj, const std::string& key);
  static std::string Child(const std::string& pointer, std::string_view key);

  // Each getter: nullopt (or empty) when the key is absent or its value is wrong (reported).
  std::optional<std::string> String(const json& obj, const std::string& pointer,
                                    const std::string& key);  // non-empty
  std::optional<std::string> Enum(const json& obj, const std::string& pointer,
                                  const std::string& key, const std::vector<std::string>& values);
  // An integer within [min, max]; 9000.0 counts as an integer, as in JSON Schema.
  std::optional<std::int64_t> IntegerValue(const json& v, const std::string& pointer,
                                           std::int64_t min = kMinInt, std::int64_t max = kMaxInt);
  std::optional<std::int64_t> Integer(const json& obj, const std::string& pointer,
                                      const std::string& key, std::int64_t min = kMinInt,
                                      std::int64_t max = kMaxInt);
  std::optional<double> Number(const json& obj, const std::string& pointer, const std::string& key);
  std::optional<std::vector<std::int64_t>> IntegerArray(const json& obj, const std::string& pointer,
                                                        const std::string& key);
  // A non-empty string or a non-empty array of them (accepted versions).
  std::vector<std::string> StringOrStrings(const json& obj, const std::string& pointer,
                                           const std::string& key);

 private:
  PlanLocator locator_;
  FindingSink sink_;  // after locator_, which it points at
  std::function<std::string(std::string_view)> example_for_;
  std::string node_;
};

}  // namespace rocewatch::lint::plan
