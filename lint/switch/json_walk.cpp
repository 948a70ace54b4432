#include "lint/switch/json_walk.h"

#include "lint/switch/switch_config.h"

#include "rocewatch/json_depth.h"
#include "rocewatch/json_duplicate_key.h"

#include "rocewatch/strings.h"

namespace rocewatch::lint::switch_config {

std::string Child(const std::string& path, std::string_view key) {
  std::string out = path + "/";
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

std::string_view KindOf(const json& v) {
  if (v.is_object()) return "an object";
  if (v.is_array()) return "an array";
  if (v.is_string()) return "a string";
  if (v.is_number()) return "a number";
  if (v.is_boolean()) return "a boolean";
  return "null";
}

const json& Object(const json& v, const std::string& path) {
  if (!v.is_object()) throw Bad{path, "expected an object, found " + std::string(KindOf(v))};
  return v;
}

const json* Member(const json& obj, const std::string& path, std::string_view key) {
  const json& o = Object(obj, path);
  auto it = o.find(key);
  return it == o.end() ? nullptr : &*it;
}

std::string Text(const json& v, const std::string& path) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return v.dump();
  throw Bad{path, "expected a string, found " + std::string(KindOf(v))};
}

std::int64_t IntegerText(std::string_view text, const std::string& path, std::int64_t min, std::int64_t max) {
  auto n = ParseI64(text);
  if (!n || *n < min || *n > max) {
    throw Bad{path, Quote(text) + " is not an integer from " + std::to_string(min) + " to " +
                        std::to_string(max)};
  }
  return *n;
}

std::vector<std::pair<std::int64_t, const json*>> IntegerKeys(const json& v, const std::string& path,
                                                              std::int64_t min, std::int64_t max) {
  std::vector<std::pair<std::int64_t, const json*>> out;
  std::vector<const std::string*> key_of(static_cast<std::size_t>(max - min + 1), nullptr);
  for (const auto& [k, value] : Object(v, path).items()) {
    const std::string at = Child(path, k);
    const std::int64_t n = IntegerText(k, at, min, max);
    const std::string*& first = key_of[static_cast<std::size_t>(n - min)];
    if (first != nullptr)
      throw Bad{at, "key " + Quote(k) + " is the number " + std::to_string(n) + " again (key " + Quote(*first) +
                        "); keep one of the two"};
    first = &k;
    out.emplace_back(n, &value);
  }
  return out;
}

Bad TooManyPorts(const std::string& path) {
  return Bad{path, "more than " + std::to_string(kMaxSwitchPorts) +
                       " ports; roce-lint reads at most that many of one switch (docs/security.md)"};
}

std::int64_t Integer(const json& v, const std::string& path, std::int64_t min, std::int64_t max) {
  if (v.is_number_float()) throw Bad{path, "expected an integer, found " + v.dump()};
  return IntegerText(Text(v, path), path, min, max);
}

Result<json> ParseBoundedJson(std::string_view text, const std::string& source,
                              std::size_t max_bytes, std::size_t max_depth,
                              std::string_view what, std::string_view depth_why) {
  if (text.size() > max_bytes)
    return Error{source + ": " + std::to_string(text.size()) + " bytes, above the limit of " +
                 std::to_string(max_bytes) + " bytes for " + std::string(what)};
  if (JsonNestsDeeperThan(text, max_depth))
    return Error{source + ": JSON nested deeper than " + std::to_string(max_depth) + " levels; " +
                 std::string(depth_why)};
  json parsed;
  try {
    parsed = json::parse(text.begin(), text.end());
  } catch (const json::exception& e) {
    std::string detail = e.what();
    if (auto colon = detail.find(": "); colon != std::string::npos) detail = detail.substr(colon + 2);
    return Error{source + ": invalid JSON: " + detail};
  }
  // A repeated key is reported as the plan loader reports it: nlohmann-json keeps the last one.
  if (auto dup = FindDuplicateJsonKey(text, max_depth + 1)) return Error{source + ": " + DuplicateKeyMessage(*dup)};
  return parsed;
}

}  // namespace rocewatch::lint::switch_config
