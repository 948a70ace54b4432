// Reading counter profiles (counter_profiles.h): a --switch-counters file as hostile input.

#include "lint/switch/counter_profiles.h"

#include <algorithm>
#include <set>

#include "lint/switch/json_walk.h"
#include "rocewatch/escape.h"
#include "rocewatch/read_file.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::switch_config {
namespace {

// Prometheus's metric and label name grammar: a name from the file goes into a PromQL query,
// so anything else (`a{b="c"} or vector(1)`) is refused here.
bool IsMetricName(std::string_view s) {
  if (s.empty() || s.size() > 200) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
    if (!alpha && !(i > 0 && c >= '0' && c <= '9')) return false;
  }
  return true;
}
bool IsLabelName(std::string_view s) {
  return IsMetricName(s) && s.find(':') == std::string_view::npos && s != "__name__";
}

std::string String(const json& v, const std::string& path) {
  if (!v.is_string()) throw Bad{path, "expected a string, found " + std::string(KindOf(v))};
  return v.get<std::string>();
}

std::string LabelName(const json& v, const std::string& path) {
  std::string s = String(v, path);
  if (!IsLabelName(s)) throw Bad{path, Quote(s) + " is not a Prometheus label name ([a-zA-Z_][a-zA-Z0-9_]*)"};
  return s;
}

std::vector<CounterSeries> ReadSeries(const json& v, const std::string& path) {
  if (!v.is_array()) throw Bad{path, "expected an array, found " + std::string(KindOf(v))};
  if (v.empty()) throw Bad{path, "no series: a profile names at least one metric"};
  if (v.size() > kMaxSeriesPerProfile)
    throw Bad{path, std::to_string(v.size()) + " series, above the limit of " + std::to_string(kMaxSeriesPerProfile)};
  std::vector<CounterSeries> out;
  std::set<std::pair<std::string, std::optional<int>>> seen;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::string at = Child(path, std::to_string(i));
    const json& s = Object(v[i], at);
    CounterSeries series;
    bool has_metric = false, has_direction = false;
    for (const auto& [key, value] : s.items()) {
      const std::string field = Child(at, key);
      if (key == "metric") {
        series.metric = String(value, field);
        if (!IsMetricName(series.metric))
          throw Bad{field, Quote(series.metric) + " is not a Prometheus metric name ([a-zA-Z_:][a-zA-Z0-9_:]*)"};
        has_metric = true;
      } else if (key == "direction") {
        std::string d = String(value, field);
        if (d != "rx" && d != "tx")
          throw Bad{field, Quote(d) + " is not rx (pauses the switch port received) or tx (pauses it sent)"};
        series.direction = d == "rx" ? PauseDirection::kRx : PauseDirection::kTx;
        has_direction = true;
      } else if (key == "priority") {
        series.priority = static_cast<int>(Integer(value, field, 0, 7));
      } else {
        throw Bad{field, "unknown key (a series has metric, direction and priority)"};
      }
    }
    if (!has_metric) throw Bad{at, "no \"metric\""};
    if (!has_direction) throw Bad{at, "no \"direction\" (rx or tx)"};
    if (!seen.insert({series.metric + "/" + std::string(DirectionName(series.direction)), series.priority}).second)
      throw Bad{at, Quote(series.metric) + " is listed twice"};
    out.push_back(std::move(series));
  }
  return out;
}

CounterProfile ReadProfile(const json& v, const std::string& path, const std::vector<CounterProfile>& builtin) {
  const json& o = Object(v, path);
  CounterProfile p;
  if (const json* ext = Member(o, path, "extends")) {
    const std::string name = String(*ext, Child(path, "extends"));
    auto it = std::find_if(builtin.begin(), builtin.end(), [&](const CounterProfile& b) { return b.name == name; });
    if (it == builtin.end()) {
      std::string names;
      for (const auto& b : builtin) names += (names.empty() ? "" : ", ") + b.name;
      throw Bad{Child(path, "extends"), Quote(name) + " is not a built-in profile (" + names + ")"};
    }
    p = *it;
  }
  bool has_name = false;
  for (const auto& [key, value] : o.items()) {
    const std::string field = Child(path, key);
    if (key == "extends") continue;
    if (key == "name") {
      p.name = String(value, field);
      if (p.name.empty() || p.name.size() > 100) throw Bad{field, "a name of 1 to 100 characters"};
      has_name = true;
    } else if (key == "description") {
      p.description = String(value, field);
    } else if (key == "switch_label") {
      p.switch_label = LabelName(value, field);
    } else if (key == "port_label") {
      p.port_label = LabelName(value, field);
    } else if (key == "priority_label") {
      p.priority_label = LabelName(value, field);
    } else if (key == "series") {
      p.series = ReadSeries(value, field);
    } else {
      throw Bad{field, "unknown key (a profile has name, extends, description, switch_label, port_label, "
                       "priority_label and series)"};
    }
  }
  if (!has_name) throw Bad{path, "no \"name\""};
  if (p.series.empty()) throw Bad{path, "no \"series\""};
  if (p.switch_label.empty()) throw Bad{path, "no \"switch_label\" (the label whose value is the switch's LLDP System Name)"};
  if (p.port_label.empty()) throw Bad{path, "no \"port_label\" (the label whose value is the port's LLDP Port ID)"};
  if (p.switch_label == p.port_label) throw Bad{Child(path, "port_label"), "the same label as switch_label"};
  if (p.priority_label.empty())
    for (const auto& s : p.series)
      if (!s.priority)
        throw Bad{path, "no \"priority_label\", and series " + Quote(s.metric) + " states no \"priority\""};
  return p;
}

}  // namespace

std::string_view DirectionName(PauseDirection d) { return d == PauseDirection::kRx ? "rx" : "tx"; }

Result<std::vector<CounterProfile>> ParseCounterProfiles(std::string_view text, const std::string& source) {
  auto parsed = ParseBoundedJson(text, source, kMaxCounterProfilesBytes, kMaxCounterProfilesDepth,
                                 "counter profiles", "counter profiles nest 4");
  if (!parsed) return parsed.error();
  const json& root = *parsed;
  try {
    const json& o = Object(root, "");
    for (const auto& [key, value] : o.items())
      if (key != "profiles") throw Bad{Child("", key), "unknown key (the file has \"profiles\")"};
    const json* list = Member(o, "", "profiles");
    if (list == nullptr) throw Bad{"", "no \"profiles\""};
    if (!list->is_array()) throw Bad{"/profiles", "expected an array, found " + std::string(KindOf(*list))};
    if (list->size() > kMaxCounterProfiles)
      throw Bad{"/profiles", std::to_string(list->size()) + " profiles, above the limit of " +
                                 std::to_string(kMaxCounterProfiles)};
    std::vector<CounterProfile> out;
    std::set<std::string, std::less<>> names;
    const std::vector<CounterProfile> builtin =
        source == "built-in" ? std::vector<CounterProfile>{} : BuiltinCounterProfiles();
    for (std::size_t i = 0; i < list->size(); ++i) {
      const std::string at = "/profiles/" + std::to_string(i);
      CounterProfile p = ReadProfile((*list)[i], at, builtin);
      if (!names.insert(p.name).second) throw Bad{Child(at, "name"), Quote(p.name) + " names two profiles"};
      out.push_back(std::move(p));
    }
    return out;
  } catch (const Bad& bad) {
    return Error{source + ": " + (bad.path.empty() ? "/" : escape::TerminalText(bad.path)) + ": " + bad.what};
  } catch (const json::exception& e) {
    return Error{source + ": unexpected JSON shape: " + e.what()};
  }
}

Result<std::vector<CounterProfile>> ReadCounterProfilesFile(const std::string& path) {
  auto text = ReadFileCapped(path, kMaxCounterProfilesBytes);
  if (!text) return text.error();
  return ParseCounterProfiles(*text, path);
}

std::vector<CounterProfile> MergeProfiles(const std::vector<CounterProfile>& builtin,
                                          const std::vector<CounterProfile>& added) {
  std::vector<CounterProfile> out = builtin;
  for (const auto& p : added) {
    auto it = std::find_if(out.begin(), out.end(), [&](const CounterProfile& q) { return q.name == p.name; });
    if (it != out.end()) {
      *it = p;
    } else {
      out.push_back(p);
    }
  }
  return out;
}

}  // namespace rocewatch::lint::switch_config
