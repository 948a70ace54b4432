// SONiC CONFIG_DB (sonic_config_db.h).

#include "lint/switch/sonic_config_db.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "rocewatch/strings.h"

namespace rocewatch::lint::switch_config {
namespace {

constexpr std::string_view kTables[] = {"DEVICE_METADATA", "PORT", "PORT_QOS_MAP", "DSCP_TO_TC_MAP",
                                        "TC_TO_PRIORITY_GROUP_MAP", "MAP_PFC_PRIORITY_TO_QUEUE",
                                        "QUEUE", "WRED_PROFILE"};
constexpr std::int64_t kMaxTc = 15;  // SONiC has TCs 0-15 (DSCP_TO_TC_MAP's YANG)

// One table's entries by key, and the JSON path of each for errors: nested files give
// "/PORT/Ethernet0", redis dumps "/PORT|Ethernet0".
struct Entry {
  const json* value;
  std::string path;
};
using Table = std::map<std::string, Entry, std::less<>>;

std::map<std::string, Table, std::less<>> Tables(const json& root) {
  std::map<std::string, Table, std::less<>> out;
  for (const auto& [key, value] : root.items()) {
    const std::string at = Child("", key);
    if (auto bar = key.find('|'); bar != std::string::npos) {
      std::string table = key.substr(0, bar);
      if (std::find(std::begin(kTables), std::end(kTables), table) == std::end(kTables)) continue;
      out[table][key.substr(bar + 1)] = {&value, at};
      continue;
    }
    if (std::find(std::begin(kTables), std::end(kTables), key) == std::end(kTables)) continue;
    for (const auto& [entry, v] : Object(value, at).items()) out[key][entry] = {&v, Child(at, entry)};
  }
  return out;
}

// "AZURE" or "[DSCP_TO_TC_MAP|AZURE]" → "AZURE".
std::string Reference(std::string text) {
  if (text.size() > 2 && text.front() == '[' && text.back() == ']') {
    text = text.substr(1, text.size() - 2);
    if (auto bar = text.find('|'); bar != std::string::npos) text = text.substr(bar + 1);
  }
  return text;
}

std::string Field(const Entry& e, std::string_view key) {
  const json* v = Member(*e.value, e.path, key);
  return v == nullptr ? std::string() : Text(*v, Child(e.path, key));
}
bool HasField(const Entry& e, std::string_view key) { return Member(*e.value, e.path, key) != nullptr; }

// A map of small integers ({"26": "3"}), keys in [0, key_max], values in [0, value_max].
std::map<std::int64_t, std::int64_t> NumberMap(const Entry& e, std::int64_t key_max, std::int64_t value_max) {
  std::map<std::int64_t, std::int64_t> out;
  for (const auto& [k, v] : IntegerKeys(*e.value, e.path, 0, key_max))
    out[k] = Integer(*v, Child(e.path, std::to_string(k)), 0, value_max);
  return out;
}

// "3,4" → {3, 4}; "" → {}.
std::vector<std::int64_t> PriorityList(const std::string& text, const std::string& path) {
  std::array<bool, 8> on{};
  if (!Trim(text).empty()) {
    std::string_view rest = text;  // item by item: a list of millions is never held as pieces
    while (true) {
      const std::size_t comma = rest.find(',');
      on[static_cast<std::size_t>(IntegerText(rest.substr(0, comma), path, 0, 7))] = true;
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }
  std::vector<std::int64_t> out;
  for (std::int64_t p = 0; p < 8; ++p)
    if (on[static_cast<std::size_t>(p)]) out.push_back(p);
  return out;
}

// "Ethernet0", "Ethernet0,Ethernet4": the ports a PORT_QOS_MAP key names.
std::vector<std::string> PortList(std::string_view key, const std::string& path) {
  std::vector<std::string> out;
  while (true) {
    const std::size_t comma = key.find(',');
    if (std::string_view p = Trim(key.substr(0, comma)); !p.empty()) {
      if (out.size() >= kMaxSwitchPorts) throw TooManyPorts(path);
      out.emplace_back(p);
    }
    if (comma == std::string_view::npos) break;
    key.remove_prefix(comma + 1);
  }
  return out;
}

// A QUEUE key: "Ethernet0|3", "Ethernet0,Ethernet4|3-4", or a VOQ chassis' "host|Asic0|Ethernet0|3":
// the ports and the queues.
std::pair<std::vector<std::string>, std::vector<std::int64_t>> QueueKey(std::string_view key, const std::string& path) {
  const std::size_t last = key.rfind('|');
  if (last == std::string_view::npos) throw Bad{path, "QUEUE key " + Quote(key) + " is not PORT|QUEUE"};
  std::string_view queues = key.substr(last + 1);
  std::string_view ports = key.substr(0, last);
  if (const std::size_t before = ports.rfind('|'); before != std::string_view::npos) ports = ports.substr(before + 1);
  std::vector<std::int64_t> out;
  if (auto dash = queues.find('-'); dash != std::string_view::npos) {
    std::int64_t from = IntegerText(queues.substr(0, dash), path, 0, kMaxTc);
    std::int64_t to = IntegerText(queues.substr(dash + 1), path, from, kMaxTc);
    for (std::int64_t q = from; q <= to; ++q) out.push_back(q);
  } else {
    out.push_back(IntegerText(queues, path, 0, kMaxTc));
  }
  return {PortList(ports, path), out};
}

bool EcnOn(const std::string& mode, const std::string& path) {
  static const std::set<std::string, std::less<>> kOn = {"ecn_green", "ecn_yellow", "ecn_red", "ecn_green_yellow",
                                                         "ecn_green_red", "ecn_yellow_red", "ecn_all"};
  if (mode == "ecn_none") return false;
  if (kOn.count(mode)) return true;
  throw Bad{path, "ecn " + Quote(mode) + " is not one of ecn_none, ecn_green, ecn_yellow, ecn_red, "
                  "ecn_green_yellow, ecn_green_red, ecn_yellow_red, ecn_all"};
}

}  // namespace

bool LooksLikeSonic(const json& root) {
  if (!root.is_object()) return false;
  for (const auto& [key, value] : root.items()) {
    std::string_view table = std::string_view(key).substr(0, key.find('|'));
    if (std::find(std::begin(kTables), std::end(kTables), table) != std::end(kTables)) return true;
  }
  return false;
}

SwitchConfig ReadSonicConfigDb(const json& root) {
  Object(root, "");
  auto tables = Tables(root);
  SwitchConfig config;
  config.nos = Nos::kSonic;
  if (auto t = tables.find("DEVICE_METADATA"); t != tables.end())
    if (auto local = t->second.find("localhost"); local != t->second.end())
      config.hostname = Field(local->second, "hostname");

  std::map<std::string, std::array<std::int8_t, 64>, std::less<>> dscp_maps;
  for (const auto& [name, e] : tables["DSCP_TO_TC_MAP"]) {
    std::array<std::int8_t, 64> map;
    map.fill(-1);
    for (auto [dscp, tc] : NumberMap(e, 63, kMaxTc)) map[static_cast<std::size_t>(dscp)] = static_cast<std::int8_t>(tc);
    dscp_maps[name] = map;
  }
  for (const auto& [name, e] : tables["TC_TO_PRIORITY_GROUP_MAP"]) NumberMap(e, kMaxTc, 7);
  std::map<std::string, std::map<std::int64_t, std::int64_t>, std::less<>> queue_maps;
  for (const auto& [name, e] : tables["MAP_PFC_PRIORITY_TO_QUEUE"]) queue_maps[name] = NumberMap(e, 7, kMaxTc);
  std::map<std::string, bool, std::less<>> wred_ecn;
  for (const auto& [name, e] : tables["WRED_PROFILE"])
    if (HasField(e, "ecn")) wred_ecn[name] = EcnOn(Field(e, "ecn"), Child(e.path, "ecn"));

  std::map<std::string, PortQos, std::less<>> ports;
  auto port = [&](const std::string& name, const std::string& path) -> PortQos& {
    auto it = ports.find(name);
    if (it == ports.end()) {
      if (ports.size() >= kMaxSwitchPorts) throw TooManyPorts(path);
      it = ports.emplace(name, PortQos{}).first;
      it->second.name = name;
    }
    return it->second;
  };
  for (const auto& [name, e] : tables["PORT"]) {
    Object(*e.value, e.path);
    port(name, e.path).alias = Field(e, "alias");
  }

  // PORT_QOS_MAP: the global DSCP map first, then each port's.
  std::string global_dscp_map;
  std::map<std::string, std::string, std::less<>> pfc_queue_map_of;
  auto dscp_map = [&](const std::string& name, const std::string& path) -> const std::array<std::int8_t, 64>& {
    auto it = dscp_maps.find(name);
    if (it == dscp_maps.end()) throw Bad{path, "names DSCP_TO_TC_MAP " + Quote(name) + ", which the file does not have"};
    return it->second;
  };
  for (const auto& [key, e] : tables["PORT_QOS_MAP"]) {
    Object(*e.value, e.path);
    if (key == "global") {
      global_dscp_map = Reference(Field(e, "dscp_to_tc_map"));
      if (!global_dscp_map.empty()) dscp_map(global_dscp_map, Child(e.path, "dscp_to_tc_map"));
      continue;
    }
    // The entry's fields once, then each port it names: a key of N ports costs N, not N times
    // the fields (a pfc_enable re-parsed per port made a 79 KB file take seconds).
    std::optional<std::vector<std::int64_t>> pfc;
    if (HasField(e, "pfc_enable")) pfc = PriorityList(Field(e, "pfc_enable"), Child(e.path, "pfc_enable"));
    const std::string dscp_name = Reference(Field(e, "dscp_to_tc_map"));
    const std::array<std::int8_t, 64>* dscp = dscp_name.empty() ? nullptr : &dscp_map(dscp_name, Child(e.path, "dscp_to_tc_map"));
    const std::string queue_map = Reference(Field(e, "pfc_to_queue_map"));
    if (!queue_map.empty() && !queue_maps.count(queue_map))
      throw Bad{Child(e.path, "pfc_to_queue_map"),
                "names MAP_PFC_PRIORITY_TO_QUEUE " + Quote(queue_map) + ", which the file does not have"};
    for (const std::string& name : PortList(key, e.path)) {
      PortQos& p = port(name, e.path);
      if (pfc) p.pfc_priorities = pfc;
      if (dscp != nullptr) {
        p.dscp_priority = *dscp;
        p.dscp_map_name = dscp_name;
      }
      if (!queue_map.empty()) pfc_queue_map_of[name] = queue_map;
    }
  }
  if (!global_dscp_map.empty()) {
    for (auto& [name, p] : ports) {
      if (p.dscp_priority) continue;
      p.dscp_priority = dscp_maps[global_dscp_map];
      p.dscp_map_name = global_dscp_map;
    }
  }

  // QUEUE: which queues of which port mark ECN.
  auto queues = tables.find("QUEUE");
  if (queues != tables.end()) {
    std::map<std::string, std::set<std::int64_t>, std::less<>> ecn_queues;
    for (const auto& [key, e] : queues->second) {
      Object(*e.value, e.path);
      auto [names, qs] = QueueKey(key, e.path);
      std::string profile = Reference(Field(e, "wred_profile"));
      bool on = false;
      if (!profile.empty()) {
        auto w = wred_ecn.find(profile);
        if (w == wred_ecn.end() && !tables["WRED_PROFILE"].count(profile))
          throw Bad{Child(e.path, "wred_profile"), "names WRED_PROFILE " + Quote(profile) + ", which the file does not have"};
        on = w != wred_ecn.end() && w->second;
      }
      for (const std::string& name : names) {
        port(name, e.path);
        if (on) ecn_queues[name].insert(qs.begin(), qs.end());
      }
    }
    for (auto& [name, p] : ports) {
      std::vector<std::int64_t> on;
      const auto* qmap = pfc_queue_map_of.count(name) ? &queue_maps[pfc_queue_map_of[name]] : nullptr;
      for (std::int64_t prio = 0; prio < 8; ++prio) {
        std::int64_t queue = prio;
        if (qmap != nullptr)
          if (auto q = qmap->find(prio); q != qmap->end()) queue = q->second;
        if (ecn_queues[name].count(queue)) on.push_back(prio);
      }
      p.ecn_priorities = std::move(on);
    }
  }
  for (auto& [name, p] : ports) config.ports.push_back(std::move(p));
  return config;
}

}  // namespace rocewatch::lint::switch_config
