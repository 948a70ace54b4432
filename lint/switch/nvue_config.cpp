// NVIDIA Cumulus NVUE (nvue_config.h).

#include "lint/switch/nvue_config.h"

#include <array>
#include <map>
#include <set>

#include "rocewatch/strings.h"

namespace rocewatch::lint::switch_config {
namespace {

constexpr const char* kDefaultProfile = "default-global";

bool Switch(const json& v, const std::string& path) {
  if (v.is_boolean()) return v.get<bool>();
  const std::string t = Text(v, path);
  if (t == "enable" || t == "enabled" || t == "on" || t == "true") return true;
  if (t == "disable" || t == "disabled" || t == "off" || t == "false") return false;
  throw Bad{path, Quote(t) + " is not enable/disable (on/off)"};
}

struct Profiles {
  const json* pfc = nullptr;         // qos.pfc
  const json* mapping = nullptr;     // qos.mapping
  const json* queues = nullptr;      // qos.egress-queue-mapping
  const json* congestion = nullptr;  // qos.congestion-control
  std::string path;                  // qos's path
};

// The profile `name` of a qos table; nullptr for an absent default-global, Bad for another name
// the file does not define.
const json* Profile(const json* table, const std::string& table_path, const std::string& name) {
  const json* p = table == nullptr ? nullptr : Member(*table, table_path, name);
  if (p == nullptr && name != kDefaultProfile)
    throw Bad{Child(table_path, name), "a port names profile " + Quote(name) + ", which the file does not define"};
  return p;
}

// One port's QoS from its profiles' names, over RoCE mode's defaults.
PortQos Resolve(const Profiles& q, const PortQos& roce, const std::string& pfc_name, const std::string& map_name,
                const std::string& queue_name, const std::string& cc_name) {
  PortQos p = roce;
  const std::string pfc_path = Child(q.path, "pfc"), map_path = Child(q.path, "mapping");
  const std::string queue_path = Child(q.path, "egress-queue-mapping"), cc_path = Child(q.path, "congestion-control");
  if (const json* pfc = Profile(q.pfc, pfc_path, pfc_name)) {
    const std::string at = Child(pfc_path, pfc_name);
    if (const json* prios = Member(*pfc, at, "switch-priority")) {
      std::set<std::int64_t> on;
      for (const auto& [prio, v] : IntegerKeys(*prios, Child(at, "switch-priority"), 0, 7)) on.insert(prio);
      p.pfc_priorities = std::vector<std::int64_t>(on.begin(), on.end());
    }
  }
  if (const json* map = Profile(q.mapping, map_path, map_name)) {
    const std::string at = Child(Child(map_path, map_name), "dscp");
    if (const json* dscps = Member(*map, Child(map_path, map_name), "dscp")) {
      std::array<std::int8_t, 64> m;
      if (p.dscp_priority) {
        m = *p.dscp_priority;
      } else {
        m.fill(-1);
      }
      for (const auto& [dscp, v] : IntegerKeys(*dscps, at, 0, 63)) {
        const std::string d_at = Child(at, std::to_string(dscp));
        if (const json* sp = Member(*v, d_at, "switch-priority"))
          m[static_cast<std::size_t>(dscp)] = static_cast<std::int8_t>(Integer(*sp, Child(d_at, "switch-priority"), 0, 7));
      }
      p.dscp_priority = m;
      p.dscp_map_name = map_name;
    }
  }
  std::array<std::int64_t, 8> tc_of = {0, 1, 2, 3, 4, 5, 6, 7};
  if (const json* queues = Profile(q.queues, queue_path, queue_name)) {
    const std::string at = Child(Child(queue_path, queue_name), "switch-priority");
    if (const json* sps = Member(*queues, Child(queue_path, queue_name), "switch-priority")) {
      for (const auto& [sp, v] : IntegerKeys(*sps, at, 0, 7)) {
        const std::string sp_at = Child(at, std::to_string(sp));
        if (const json* tc = Member(*v, sp_at, "traffic-class"))
          tc_of[static_cast<std::size_t>(sp)] = Integer(*tc, Child(sp_at, "traffic-class"), 0, 15);
      }
    }
  }
  if (const json* cc = Profile(q.congestion, cc_path, cc_name)) {
    const std::string at = Child(Child(cc_path, cc_name), "traffic-class");
    if (const json* tcs = Member(*cc, Child(cc_path, cc_name), "traffic-class")) {
      std::set<std::int64_t> ecn_tcs;
      if (p.ecn_priorities)
        for (std::int64_t prio : *p.ecn_priorities) ecn_tcs.insert(tc_of[static_cast<std::size_t>(prio)]);
      for (const auto& [tc, v] : IntegerKeys(*tcs, at, 0, 15)) {
        const std::string tc_at = Child(at, std::to_string(tc));
        if (const json* ecn = Member(*v, tc_at, "ecn")) {
          if (Switch(*ecn, Child(tc_at, "ecn"))) {
            ecn_tcs.insert(tc);
          } else {
            ecn_tcs.erase(tc);
          }
        }
      }
      std::vector<std::int64_t> on;
      for (std::int64_t prio = 0; prio < 8; ++prio)
        if (ecn_tcs.count(tc_of[static_cast<std::size_t>(prio)])) on.push_back(prio);
      p.ecn_priorities = std::move(on);
    }
  }
  return p;
}

std::string ProfileName(const json& port_qos, const std::string& path, std::string_view what) {
  const json* part = Member(port_qos, path, what);
  if (part == nullptr) return kDefaultProfile;
  const json* profile = Member(*part, Child(path, what), "profile");
  return profile == nullptr ? kDefaultProfile : Text(*profile, Child(Child(path, what), "profile"));
}

}  // namespace

const json* NvueSetObject(const json& root, std::string& path) {
  if (root.is_array()) {
    for (std::size_t i = 0; i < root.size(); ++i) {
      const json& part = root[i];
      if (part.is_object() && part.contains("set")) {
        path = "/" + std::to_string(i) + "/set";
        return &part["set"];
      }
    }
    return nullptr;
  }
  if (!root.is_object()) return nullptr;
  if (root.contains("set")) {
    path = "/set";
    return &root["set"];
  }
  path.clear();
  if (root.contains("qos") || (root.contains("system") && root.contains("interface"))) return &root;
  return nullptr;
}

SwitchConfig ReadNvueConfig(const json& set, const std::string& path) {
  SwitchConfig config;
  config.nos = Nos::kCumulus;
  if (const json* system = Member(set, path, "system"))
    if (const json* host = Member(*system, Child(path, "system"), "hostname"))
      config.hostname = Text(*host, Child(Child(path, "system"), "hostname"));

  Profiles q;
  q.path = Child(path, "qos");
  PortQos roce;
  if (const json* qos = Member(set, path, "qos")) {
    Object(*qos, q.path);
    q.pfc = Member(*qos, q.path, "pfc");
    q.mapping = Member(*qos, q.path, "mapping");
    q.queues = Member(*qos, q.path, "egress-queue-mapping");
    q.congestion = Member(*qos, q.path, "congestion-control");
    if (const json* r = Member(*qos, q.path, "roce")) {
      const std::string at = Child(q.path, "roce");
      const json* enable = Member(*r, at, "enable");
      bool on = enable == nullptr || Switch(*enable, Child(at, "enable"));  // `nv set qos roce` enables it
      std::string mode = "lossless";  // NVUE's default mode
      if (const json* m = Member(*r, at, "mode")) mode = Text(*m, Child(at, "mode"));
      if (mode != "lossless" && mode != "lossy") throw Bad{Child(at, "mode"), Quote(mode) + " is not lossless or lossy"};
      if (on) {
        roce.pfc_priorities = mode == "lossless" ? std::vector<std::int64_t>{3} : std::vector<std::int64_t>{};
        std::array<std::int8_t, 64> m;
        m.fill(-1);
        m[26] = 3;
        m[48] = 6;
        roce.dscp_priority = m;
        roce.dscp_map_name = "RoCE " + mode;
        roce.ecn_priorities = std::vector<std::int64_t>{3};
      }
    }
  }
  config.every_port = Resolve(q, roce, kDefaultProfile, kDefaultProfile, kDefaultProfile, kDefaultProfile);
  if (const json* interfaces = Member(set, path, "interface")) {
    const std::string at = Child(path, "interface");
    // Each combination of profiles is resolved once, however many interfaces name it.
    std::map<std::array<std::string, 4>, PortQos> resolved;
    for (const auto& [name, v] : Object(*interfaces, at).items()) {
      const std::string i_at = Child(at, name);
      if (config.ports.size() >= kMaxSwitchPorts) throw TooManyPorts(i_at);
      const json* qos = Member(v, i_at, "qos");
      PortQos p = *config.every_port;
      if (qos != nullptr) {
        const std::string qos_at = Child(i_at, "qos");
        Object(*qos, qos_at);
        std::array<std::string, 4> names = {ProfileName(*qos, qos_at, "pfc"), ProfileName(*qos, qos_at, "mapping"),
                                            ProfileName(*qos, qos_at, "egress-queue-mapping"),
                                            ProfileName(*qos, qos_at, "congestion-control")};
        auto it = resolved.find(names);
        if (it == resolved.end())
          it = resolved.emplace(names, Resolve(q, roce, names[0], names[1], names[2], names[3])).first;
        p = it->second;
      }
      p.name = name;
      config.ports.push_back(std::move(p));
    }
  }
  return config;
}

}  // namespace rocewatch::lint::switch_config
