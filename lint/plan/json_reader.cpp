#include "lint/plan/json_reader.h"

#include <algorithm>
#include <cmath>

#include "rocewatch/strings.h"

namespace rocewatch::lint::plan {

using i18n::Phrase;

Phrase Describe(const json& v) {
  switch (v.type()) {
    case json::value_t::string:
      return Phrase::Of("plan.schema.found.string", {{"value", Quote(v.get_ref<const std::string&>())}});
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float:
      return Phrase::Of("plan.schema.found.number", {{"value", v.dump()}});
    case json::value_t::boolean:
      return v.get<bool>() ? "true" : "false";
    case json::value_t::null:
      return "null";
    case json::value_t::object:
      return Phrase::Of("plan.schema.kind.object", {});
    case json::value_t::array:
      return Phrase::Of("plan.schema.kind.array", {});
    default:
      return Phrase::Of("plan.schema.kind.unsupported", {});
  }
}

namespace {

std::string UnescapeToken(std::string_view token) {
  std::string out;
  for (std::size_t i = 0; i < token.size(); ++i) {
    if (token[i] == '~' && i + 1 < token.size() && (token[i + 1] == '0' || token[i + 1] == '1')) {
      out += token[i + 1] == '0' ? '~' : '/';
      ++i;
    } else {
      out += token[i];
    }
  }
  return out;
}

}  // namespace

// "netdev_mtu", "pfc_priorities[1]", "nodes[3]"; "the plan" for the root.
Phrase DisplayName(std::string_view pointer) {
  if (pointer.empty()) return Phrase::Of("plan.schema.the_plan", {});
  std::size_t slash = pointer.rfind('/');
  std::string last = UnescapeToken(pointer.substr(slash + 1));
  std::string_view parent = pointer.substr(0, slash);
  if (!last.empty() && ParseU64(last) && !parent.empty()) {
    std::size_t pslash = parent.rfind('/');
    return UnescapeToken(parent.substr(pslash + 1)) + "[" + last + "]";
  }
  return last;
}

std::string JoinQuoted(const std::vector<std::string>& values) {
  std::string out;
  for (const auto& v : values) {
    if (!out.empty()) out += ", ";
    out += '"' + v + '"';
  }
  return out;
}

// A "plan.schema.*" finding at the value (or, with at_key, at the member's key) of `pointer`.
void JsonReader::Report(std::string_view check, const std::string& pointer, Phrase message,
                        Phrase expected, Phrase found, Phrase fix, bool at_key) {
  Finding f;
  f.check = std::string(check);
  f.severity = Severity::kError;
  f.node = node_;
  SetTexts(f, std::move(expected), std::move(found), std::move(message), std::move(fix));
  sink_.Add(std::move(f), pointer, at_key);
}

void JsonReader::TypeError(const std::string& pointer, const json& v, const Phrase& expected,
                           std::optional<Phrase> fix) {
  i18n::StoredArgs args;
  AddPhraseArg(args, "name", DisplayName(pointer));
  AddPhraseArg(args, "expected", expected);
  if (!fix) fix = Phrase::Of("plan.schema.type.fix", args);
  const Phrase found = Describe(v);
  AddPhraseArg(args, "found", found);
  Report("plan.schema.type", pointer, Phrase::Of("plan.schema.type.message", std::move(args)), expected,
         found, std::move(*fix));
}

// Reports unknown keys (with "did you mean") and missing required keys.
void JsonReader::CheckKeys(const json& obj, const std::string& pointer,
                           const std::vector<std::string>& allowed,
                           const std::vector<std::string>& required, const Phrase& what) {
  for (const auto& [key, value] : obj.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    std::string member = pointer;
    AppendPointerToken(member, key);
    auto suggestion = DidYouMean(key, allowed);
    i18n::StoredArgs args = {{"key", Quote(key)}};
    AddPhraseArg(args, "what", what);
    std::optional<Phrase> message, fix;
    if (suggestion) {
      args.emplace_back("suggestion", *suggestion);
      message = Phrase::Of("plan.schema.unknown_key.message_suggest", args);
      fix = Phrase::Of("plan.schema.unknown_key.fix_suggest", args);
    } else {
      args.emplace_back("keys", JoinQuoted(allowed));
      message = Phrase::Of("plan.schema.unknown_key.message", args);
      fix = Phrase::Of("plan.schema.unknown_key.fix", args);
    }
    Report("plan.schema.unknown-key", member, std::move(*message),
           suggestion ? *suggestion : std::string(), key, std::move(*fix), /*at_key=*/true);
  }
  for (const auto& key : required) {
    if (obj.contains(key)) continue;
    std::string member = pointer;
    AppendPointerToken(member, key);
    i18n::StoredArgs args = {{"key", key}, {"example", example_for_(key)}};
    AddPhraseArg(args, "what", what);
    Report("plan.schema.missing-key", member, Phrase::Of("plan.schema.missing_key.message", args), key, "",
           Phrase::Of("plan.schema.missing_key.fix", args));
  }
}

// True when `v` is an object; its keys are checked.
bool JsonReader::Object(const json& v, const std::string& pointer,
                        const std::vector<std::string>& allowed,
                        const std::vector<std::string>& required, const Phrase& what) {
  if (!v.is_object()) {
    TypeError(pointer, v, Phrase::Of("plan.schema.kind.object", {}));
    return false;
  }
  CheckKeys(v, pointer, allowed, required, what);
  return true;
}

const json* JsonReader::Member(const json& obj, const std::string& key) {
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

std::string JsonReader::Child(const std::string& pointer, std::string_view key) {
  std::string out = pointer;
  AppendPointerToken(out, key);
  return out;
}

std::optional<std::string> JsonReader::String(const json& obj, const std::string& pointer,
                                              const std::string& key) {
  const json* v = Member(obj, key);
  if (v == nullptr) return std::nullopt;
  std::string p = Child(pointer, key);
  if (!v->is_string()) {
    TypeError(p, *v, Phrase::Of("plan.schema.kind.string", {}));
    return std::nullopt;
  }
  const auto& s = v->get_ref<const std::string&>();
  if (s.empty()) {
    TypeError(p, *v, Phrase::Of("plan.schema.kind.non_empty_string", {}),
              Phrase::Of("plan.schema.fix.fill_in", {{"key", key}}));
    return std::nullopt;
  }
  return s;
}

std::optional<std::string> JsonReader::Enum(const json& obj, const std::string& pointer,
                                            const std::string& key,
                                            const std::vector<std::string>& values) {
  const json* v = Member(obj, key);
  if (v == nullptr) return std::nullopt;
  std::string p = Child(pointer, key);
  if (!v->is_string() ||
      std::find(values.begin(), values.end(), v->get_ref<const std::string&>()) == values.end()) {
    Phrase expected = values.size() == 1
                          ? Phrase("\"" + values[0] + "\"")
                          : Phrase::Of("plan.schema.kind.one_of", {{"values", JoinQuoted(values)}});
    const Phrase found = Describe(*v);
    i18n::StoredArgs args = {{"name", key}, {"key", key}};
    AddPhraseArg(args, "expected", expected);
    AddPhraseArg(args, "found", found);
    Report("plan.schema.enum", p, Phrase::Of("plan.schema.type.message", args), expected, found,
           Phrase::Of("plan.schema.enum.fix", args));
    return std::nullopt;
  }
  return v->get<std::string>();
}

// An integer (JSON number without fraction or exponent) within [min, max].
std::optional<std::int64_t> JsonReader::IntegerValue(const json& v, const std::string& p,
                                                     std::int64_t min, std::int64_t max) {
  Phrase expected = Phrase::Of("plan.schema.kind.integer", {});
  if (min == 0 && max == kMaxInt) {
    expected = Phrase::Of("plan.schema.kind.non_negative_integer", {});
  } else if (min != kMinInt) {
    expected = Phrase::Of("plan.schema.kind.integer_range",
                          {{"min", std::to_string(min)}, {"max", std::to_string(max)}});
  }
  std::optional<std::int64_t> value;
  if (v.is_number_unsigned()) {
    auto u = v.get<std::uint64_t>();
    if (u <= static_cast<std::uint64_t>(kMaxInt)) {
      value = static_cast<std::int64_t>(u);
    }
  } else if (v.is_number_integer()) {
    value = v.get<std::int64_t>();
  } else if (v.is_number_float()) {
    // JSON Schema counts 9000.0 as an integer; so do we.
    double d = v.get<double>();
    if (std::isfinite(d) && d == std::trunc(d) && d >= -9223372036854775808.0 &&
        d < 9223372036854775808.0) {
      value = static_cast<std::int64_t>(d);
    }
  }
  if (!value || *value < min || *value > max) {
    std::optional<Phrase> fix;
    if (v.is_string()) {
      if (auto parsed = ParseI64(v.get_ref<const std::string&>())) {
        fix = Phrase::Of("plan.schema.fix.unquote", {{"value", std::to_string(*parsed)}});
      }
    }
    TypeError(p, v, expected, std::move(fix));
    return std::nullopt;
  }
  return value;
}

std::optional<std::int64_t> JsonReader::Integer(const json& obj, const std::string& pointer,
                                                const std::string& key, std::int64_t min,
                                                std::int64_t max) {
  const json* v = Member(obj, key);
  if (v == nullptr) return std::nullopt;
  return IntegerValue(*v, Child(pointer, key), min, max);
}

std::optional<double> JsonReader::Number(const json& obj, const std::string& pointer,
                                         const std::string& key) {
  const json* v = Member(obj, key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_number()) {
    std::optional<Phrase> fix;
    if (v->is_string()) {
      if (auto parsed = ParseDouble(v->get_ref<const std::string&>())) {
        fix = Phrase::Of("plan.schema.fix.unquote", {{"value", v->get_ref<const std::string&>()}});
      }
    }
    TypeError(Child(pointer, key), *v, Phrase::Of("plan.schema.kind.number", {}), std::move(fix));
    return std::nullopt;
  }
  return v->get<double>();
}

std::optional<std::vector<std::int64_t>> JsonReader::IntegerArray(const json& obj,
                                                                  const std::string& pointer,
                                                                  const std::string& key) {
  const json* v = Member(obj, key);
  if (v == nullptr) return std::nullopt;
  std::string p = Child(pointer, key);
  if (!v->is_array()) {
    TypeError(p, *v, Phrase::Of("plan.schema.kind.integer_array", {}));
    return std::nullopt;
  }
  std::vector<std::int64_t> out;
  bool ok = true;
  for (std::size_t i = 0; i < v->size(); ++i) {
    auto value = IntegerValue((*v)[i], p + "/" + std::to_string(i));
    if (value) {
      out.push_back(*value);
    } else {
      ok = false;
    }
  }
  if (!ok) return std::nullopt;
  return out;
}

// A string or a non-empty array of strings (accepted versions).
std::vector<std::string> JsonReader::StringOrStrings(const json& obj, const std::string& pointer,
                                                     const std::string& key) {
  const json* v = Member(obj, key);
  if (v == nullptr) return {};
  std::string p = Child(pointer, key);
  const Phrase expected = Phrase::Of("plan.schema.kind.strings", {});
  if (v->is_string()) {
    if (v->get_ref<const std::string&>().empty()) {
      TypeError(p, *v, expected);
      return {};
    }
    return {v->get<std::string>()};
  }
  if (!v->is_array() || v->empty()) {
    TypeError(p, *v, expected);
    return {};
  }
  std::vector<std::string> out;
  for (std::size_t i = 0; i < v->size(); ++i) {
    const json& item = (*v)[i];
    if (!item.is_string() || item.get_ref<const std::string&>().empty()) {
      TypeError(p + "/" + std::to_string(i), item, Phrase::Of("plan.schema.kind.non_empty_string", {}));
      return {};
    }
    out.push_back(item.get<std::string>());
  }
  return out;
}

}  // namespace rocewatch::lint::plan
