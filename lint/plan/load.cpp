#include "lint/plan/load.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "lint/plan/gpudirect_load.h"
#include "lint/plan/json_reader.h"
#include "rocewatch/json_depth.h"
#include "rocewatch/read_file.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::plan {
namespace {

using i18n::Phrase;

// "ecn of profile \"a\"": a member object of `what`, named in each language.
Phrase MemberOf(std::string key, const Phrase& what) {
  i18n::StoredArgs args = {{"key", std::move(key)}};
  AddPhraseArg(args, "what", what);
  return Phrase::Of("plan.schema.member_of", std::move(args));
}

const std::vector<std::string> kPlanKeys = {"$schema", "cluster", "defaults", "profiles", "nodes"};
const std::vector<std::string> kPlanRequired = {"cluster", "profiles", "nodes"};
const std::vector<std::string> kDefaultsKeys = {"exporter_port"};
const std::vector<std::string> kProfileKeys = {
    "link_speed_gbps", "netdev_mtu",    "roce_mode",      "roce_mtu",     "trust", "pfc_priorities",
    "roce_dscp",       "roce_priority", "cnp_dscp",       "cnp_priority", "ecn",   "dcqcn",
    "firmware",        "driver",        "driver_version", "pcie",         "optics",
    "fec",             "verify",        "optional_counters", "gpudirect"};
const std::vector<std::string> kFecKeys = {"mode", "max_pre_fec_ber", "max_uncorrectable_blocks"};
const std::vector<std::string> kFecModes = {"rs", "baser", "llrs", "off"};
const std::vector<std::string> kVerifyKeys = {
    "min_bandwidth_fraction", "max_latency_us", "max_pause_duration_fraction",
    "max_retransmissions_per_second", "max_discards", "queue_pairs", "message_bytes"};
const std::vector<std::string> kEcnKeys = {"np_priorities", "rp_priorities"};
const std::vector<std::string> kDcqcnKeys = {"np", "rp"};
const std::vector<std::string> kPcieKeys = {"speed_gts", "width"};
const std::vector<std::string> kOpticsKeys = {
    "temperature_celsius_min", "temperature_celsius_max",  "voltage_volts_min",
    "voltage_volts_max",       "tx_bias_milliamperes_min", "tx_bias_milliamperes_max",
    "tx_power_dbm_min",        "tx_power_dbm_max",         "rx_power_dbm_min",
    "rx_power_dbm_max"};
const std::vector<std::string> kNodeKeys = {"name", "management_ip", "exporter", "labels", "nics"};
const std::vector<std::string> kNodeRequired = {"name", "management_ip", "nics"};
const std::vector<std::string> kNicKeys = {"ib_dev",  "netdev", "profile",
                                           "roce_ip", "rail",   "switch_port", "gpu"};
const std::vector<std::string> kNicRequired = {"ib_dev", "netdev", "profile", "roce_ip"};
const std::vector<std::string> kNone = {};

const std::vector<std::string> kDcqcnNp = {"min_time_between_cnps", "cnp_dscp", "cnp_802p_prio"};
const std::vector<std::string> kDcqcnRp = {"rpg_ai_rate",
                                           "rpg_hai_rate",
                                           "rpg_min_rate",
                                           "rpg_max_rate",
                                           "rpg_time_reset",
                                           "rpg_byte_reset",
                                           "rpg_threshold",
                                           "rpg_gd",
                                           "rpg_min_dec_fac",
                                           "rate_reduce_monitor_period",
                                           "initial_alpha_value",
                                           "dce_tcp_g",
                                           "dce_tcp_rtt",
                                           "clamp_tgt_rate",
                                           "clamp_tgt_rate_after_time_inc",
                                           "rate_to_set_on_first_cnp"};

const std::vector<std::string> kRoceModes = {"v2"};
const std::vector<std::string> kTrustModes = {"dscp", "pcp"};

// An example value for each required key, for the "add …" fix of a missing key.
std::string ExampleFor(std::string_view key) {
  static const std::vector<std::pair<std::string_view, std::string_view>> kExamples = {
      {"cluster", "\"gpu-cluster-a\""},
      {"profiles", "{}"},
      {"nodes", "[]"},
      {"name", "\"gpu-01\""},
      {"management_ip", "\"10.0.0.11\""},
      {"nics", "[]"},
      {"ib_dev", "\"mlx5_0\""},
      {"netdev", "\"ens1f0np0\""},
      {"profile", "\"roce-400g\""},
      {"roce_ip", "\"10.1.0.11/24\""}};
  for (const auto& [k, v] : kExamples) {
    if (k == key) return std::string(v);
  }
  return "…";
}

void LoadDcqcnPoint(JsonReader& l, const json& v, const std::string& pointer,
                    std::string_view point, const std::vector<std::string>& names,
                    std::map<std::string, std::int64_t>& out) {
  if (!l.Object(v, pointer, names, kNone,
                Phrase::Of("plan.schema.dcqcn_point", {{"point", std::string(point)}}))) {
    return;
  }
  for (const auto& [name, value] : v.items()) {
    if (std::find(names.begin(), names.end(), name) == names.end()) continue;  // reported above
    if (auto n = l.IntegerValue(value, JsonReader::Child(pointer, name), 0)) out[name] = *n;
  }
}

Profile LoadProfile(JsonReader& l, const json& v, const std::string& pointer,
                    const std::string& name) {
  Profile p;
  p.name = name;
  const Phrase what = Phrase::Of("plan.label.profile", {{"name", Quote(name)}});
  if (!l.Object(v, pointer, kProfileKeys, kNone, what)) return p;
  p.link_speed_gbps = l.Integer(v, pointer, "link_speed_gbps");
  p.netdev_mtu = l.Integer(v, pointer, "netdev_mtu");
  p.roce_mode = l.Enum(v, pointer, "roce_mode", kRoceModes);
  p.roce_mtu = l.Integer(v, pointer, "roce_mtu");
  p.trust = l.Enum(v, pointer, "trust", kTrustModes);
  p.pfc_priorities = l.IntegerArray(v, pointer, "pfc_priorities");
  p.roce_dscp = l.Integer(v, pointer, "roce_dscp");
  p.roce_priority = l.Integer(v, pointer, "roce_priority");
  p.cnp_dscp = l.Integer(v, pointer, "cnp_dscp");
  p.cnp_priority = l.Integer(v, pointer, "cnp_priority");
  if (const json* ecn = JsonReader::Member(v, "ecn")) {
    std::string ep = JsonReader::Child(pointer, "ecn");
    if (l.Object(*ecn, ep, kEcnKeys, kNone, MemberOf("ecn", what))) {
      p.ecn.np_priorities = l.IntegerArray(*ecn, ep, "np_priorities");
      p.ecn.rp_priorities = l.IntegerArray(*ecn, ep, "rp_priorities");
    }
  }
  if (const json* dcqcn = JsonReader::Member(v, "dcqcn")) {
    std::string dp = JsonReader::Child(pointer, "dcqcn");
    if (l.Object(*dcqcn, dp, kDcqcnKeys, kNone, MemberOf("dcqcn", what))) {
      DcqcnSettings d;
      if (const json* np = JsonReader::Member(*dcqcn, "np")) {
        LoadDcqcnPoint(l, *np, JsonReader::Child(dp, "np"), "np", kDcqcnNp, d.np);
      }
      if (const json* rp = JsonReader::Member(*dcqcn, "rp")) {
        LoadDcqcnPoint(l, *rp, JsonReader::Child(dp, "rp"), "rp", kDcqcnRp, d.rp);
      }
      p.dcqcn = std::move(d);
    }
  }
  p.firmware = l.StringOrStrings(v, pointer, "firmware");
  p.optional_counters = l.StringOrStrings(v, pointer, "optional_counters");
  // A kernel counter name (struct rdma_stat_desc): what the schema's pattern allows.
  for (std::size_t i = 0; i < p.optional_counters.size(); ++i) {
    const std::string& counter = p.optional_counters[i];
    const bool ok = counter.size() <= 63 && std::all_of(counter.begin(), counter.end(), [](char ch) {
      return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_';
    });
    if (!ok) {
      const json* list = JsonReader::Member(v, "optional_counters");
      const std::string at = JsonReader::Child(pointer, "optional_counters");
      l.TypeError(list->is_array() ? at + "/" + std::to_string(i) : at,
                  list->is_array() ? (*list)[i] : *list,
                  Phrase::Of("plan.schema.kind.counter_name", {}));
      p.optional_counters.clear();
      break;
    }
  }
  p.driver = l.String(v, pointer, "driver");
  p.driver_version = l.StringOrStrings(v, pointer, "driver_version");
  if (const json* pcie = JsonReader::Member(v, "pcie")) {
    std::string pp = JsonReader::Child(pointer, "pcie");
    if (l.Object(*pcie, pp, kPcieKeys, kNone, MemberOf("pcie", what))) {
      PcieSettings s;
      s.speed_gts = l.Number(*pcie, pp, "speed_gts");
      s.width = l.Integer(*pcie, pp, "width");
      p.pcie = s;
    }
  }
  if (const json* optics = JsonReader::Member(v, "optics")) {
    std::string op = JsonReader::Child(pointer, "optics");
    if (l.Object(*optics, op, kOpticsKeys, kNone, MemberOf("optics", what))) {
      OpticsLimits o;
      o.temperature_celsius_min = l.Number(*optics, op, "temperature_celsius_min");
      o.temperature_celsius_max = l.Number(*optics, op, "temperature_celsius_max");
      o.voltage_volts_min = l.Number(*optics, op, "voltage_volts_min");
      o.voltage_volts_max = l.Number(*optics, op, "voltage_volts_max");
      o.tx_bias_milliamperes_min = l.Number(*optics, op, "tx_bias_milliamperes_min");
      o.tx_bias_milliamperes_max = l.Number(*optics, op, "tx_bias_milliamperes_max");
      o.tx_power_dbm_min = l.Number(*optics, op, "tx_power_dbm_min");
      o.tx_power_dbm_max = l.Number(*optics, op, "tx_power_dbm_max");
      o.rx_power_dbm_min = l.Number(*optics, op, "rx_power_dbm_min");
      o.rx_power_dbm_max = l.Number(*optics, op, "rx_power_dbm_max");
      p.optics = o;
    }
  }
  if (const json* fec = JsonReader::Member(v, "fec")) {
    std::string fp = JsonReader::Child(pointer, "fec");
    if (l.Object(*fec, fp, kFecKeys, kNone, MemberOf("fec", what))) {
      FecSettings f;
      f.mode = l.Enum(*fec, fp, "mode", kFecModes);
      f.max_pre_fec_ber = l.Number(*fec, fp, "max_pre_fec_ber");
      f.max_uncorrectable_blocks = l.Integer(*fec, fp, "max_uncorrectable_blocks");
      p.fec = f;
    }
  }
  if (const json* verify = JsonReader::Member(v, "verify")) {
    std::string vp = JsonReader::Child(pointer, "verify");
    if (l.Object(*verify, vp, kVerifyKeys, kNone, MemberOf("verify", what))) {
      VerifySettings& s = p.verify;
      s.min_bandwidth_fraction = l.Number(*verify, vp, "min_bandwidth_fraction");
      s.max_latency_us = l.Number(*verify, vp, "max_latency_us");
      s.max_pause_duration_fraction = l.Number(*verify, vp, "max_pause_duration_fraction");
      s.max_retransmissions_per_second = l.Number(*verify, vp, "max_retransmissions_per_second");
      s.max_discards = l.Integer(*verify, vp, "max_discards");
      s.queue_pairs = l.Integer(*verify, vp, "queue_pairs");
      s.message_bytes = l.Integer(*verify, vp, "message_bytes");
    }
  }
  p.gpudirect = LoadGpuDirect(l, v, pointer, what);
  return p;
}

Nic LoadNic(JsonReader& l, const json& v, const std::string& pointer, const Phrase& what) {
  Nic nic;
  if (!l.Object(v, pointer, kNicKeys, kNicRequired, what)) return nic;
  nic.ib_dev = l.String(v, pointer, "ib_dev").value_or("");
  nic.netdev = l.String(v, pointer, "netdev").value_or("");
  nic.profile = l.String(v, pointer, "profile").value_or("");
  nic.roce_ip = l.String(v, pointer, "roce_ip").value_or("");
  nic.rail = l.Integer(v, pointer, "rail", 0);
  nic.switch_port = l.String(v, pointer, "switch_port");
  nic.gpu = LoadNicGpu(l, v, pointer);
  return nic;
}

Node LoadNode(JsonReader& l, const json& v, const std::string& pointer, std::size_t index,
              std::uint16_t exporter_port) {
  Node node;
  Phrase what = "nodes[" + std::to_string(index) + "]";
  if (v.is_object()) {
    // Name first, so that every finding of this node carries it.
    auto name_it = v.find("name");
    if (name_it != v.end() && name_it->is_string() &&
        !name_it->get_ref<const std::string&>().empty()) {
      node.name = name_it->get<std::string>();
      what = Phrase::Of("plan.label.node", {{"name", Quote(node.name)}});
      l.set_node(node.name);
    }
  }
  if (!l.Object(v, pointer, kNodeKeys, kNodeRequired, what)) return node;
  l.String(v, pointer, "name");  // reports a wrong type or an empty name
  node.management_ip = l.String(v, pointer, "management_ip").value_or("");
  if (auto exporter = l.String(v, pointer, "exporter")) {
    node.exporter = *exporter;
    node.exporter_given = true;
  } else if (!node.management_ip.empty()) {
    bool v6 = node.management_ip.find(':') != std::string::npos;
    node.exporter = (v6 ? "[" + node.management_ip + "]" : node.management_ip) + ":" +
                    std::to_string(exporter_port);
  }
  if (const json* labels = JsonReader::Member(v, "labels")) {
    std::string lp = JsonReader::Child(pointer, "labels");
    if (!labels->is_object()) {
      l.TypeError(lp, *labels, Phrase::Of("plan.schema.kind.string_object", {}));
    } else {
      for (const auto& [key, value] : labels->items()) {
        if (!value.is_string()) {
          l.TypeError(JsonReader::Child(lp, key), value, Phrase::Of("plan.schema.kind.string", {}));
          continue;
        }
        node.labels[key] = value.get<std::string>();
      }
    }
  }
  if (const json* nics = JsonReader::Member(v, "nics")) {
    std::string np = JsonReader::Child(pointer, "nics");
    if (!nics->is_array()) {
      l.TypeError(np, *nics, Phrase::Of("plan.schema.kind.array", {}));
    } else {
      for (std::size_t i = 0; i < nics->size(); ++i) {
        i18n::StoredArgs args = {{"nic", "nics[" + std::to_string(i) + "]"}};
        AddPhraseArg(args, "node", what);
        node.nics.push_back(LoadNic(l, (*nics)[i], np + "/" + std::to_string(i),
                                    Phrase::Of("plan.label.nic", std::move(args))));
      }
    }
  }
  l.set_node("");
  return node;
}

}  // namespace

Result<LoadedPlan> LoadPlanText(std::string_view text, std::string_view source_name) {
  std::string name(source_name);
  if (text.size() > kMaxPlanBytes) {
    return Error{name + ": plan is " + std::to_string(text.size()) + " bytes, above the limit of " +
                 std::to_string(kMaxPlanBytes) + " bytes"};
  }
  if (JsonNestsDeeperThan(text, kMaxJsonDepth)) {
    return Error{name + ": invalid plan: JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                 " levels"};
  }
  json root;
  try {
    root = json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    std::string detail = e.what();
    // "[json.exception.parse_error.101] parse error at line 3, column 3: <detail>"
    if (auto colon = detail.find(": "); colon != std::string::npos)
      detail = detail.substr(colon + 2);
    std::size_t offset = e.byte > 0 ? e.byte - 1 : 0;
    TextPosition at = PositionOfOffset(text, offset);
    return Error{name + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) +
                 ": invalid JSON: " + detail};
  } catch (const json::exception& e) {
    return Error{name + ": invalid JSON: " + e.what()};
  }

  LoadedPlan out;
  out.plan.source.name = name;
  out.plan.source.positions = IndexJsonPositions(text);
  JsonReader l(out.plan.source, ExampleFor);

  for (const auto& dup : out.plan.source.positions.duplicate_keys) {
    l.Report("plan.schema.duplicate-key", dup.pointer,
             Phrase::Of("plan.schema.duplicate_key.message",
                        {{"key", Quote(DisplayName(dup.pointer).english)},
                         {"line", std::to_string(dup.first.line)},
                         {"column", std::to_string(dup.first.column)}}),
             "", "", Phrase::Of("plan.schema.duplicate_key.fix", {}), /*at_key=*/true);
  }

  if (!l.Object(root, "", kPlanKeys, kPlanRequired, Phrase::Of("plan.schema.the_plan", {}))) {
    out.findings = l.Finish();
    return out;
  }
  if (auto schema = JsonReader::Member(root, "$schema"); schema && !schema->is_string()) {
    l.TypeError("/$schema", *schema, Phrase::Of("plan.schema.kind.string", {}));
  }
  out.plan.cluster = l.String(root, "", "cluster").value_or("");
  if (const json* defaults = JsonReader::Member(root, "defaults")) {
    if (l.Object(*defaults, "/defaults", kDefaultsKeys, kNone, "defaults")) {
      if (auto port = l.Integer(*defaults, "/defaults", "exporter_port", 1, 65535)) {
        out.plan.exporter_port = static_cast<std::uint16_t>(*port);
      }
    }
  }
  if (const json* profiles = JsonReader::Member(root, "profiles")) {
    if (!profiles->is_object()) {
      l.TypeError("/profiles", *profiles, Phrase::Of("plan.schema.kind.profiles", {}));
    } else {
      for (const auto& [pname, value] : profiles->items()) {
        std::string pointer = JsonReader::Child("/profiles", pname);
        if (pname.empty()) {
          l.Report("plan.schema.type", pointer, Phrase::Of("plan.schema.empty_profile_name.message", {}),
                   Phrase::Of("plan.schema.kind.name", {}), "\"\"",
                   Phrase::Of("plan.schema.empty_profile_name.fix", {}), /*at_key=*/true);
          continue;
        }
        out.plan.profiles.emplace(pname, LoadProfile(l, value, pointer, pname));
      }
    }
  }
  if (const json* nodes = JsonReader::Member(root, "nodes")) {
    if (!nodes->is_array()) {
      l.TypeError("/nodes", *nodes, Phrase::Of("plan.schema.kind.array", {}));
    } else {
      for (std::size_t i = 0; i < nodes->size(); ++i) {
        out.plan.nodes.push_back(
            LoadNode(l, (*nodes)[i], "/nodes/" + std::to_string(i), i, out.plan.exporter_port));
      }
    }
  }
  out.findings = l.Finish();
  return out;
}

Result<LoadedPlan> LoadPlan(const std::string& path) {
  auto text = ReadFileCapped(path, kMaxPlanBytes);
  if (!text.ok()) return text.error();
  return LoadPlanText(*text, path);
}

const std::vector<std::string>& AllowedKeys(PlanObject object) {
  switch (object) {
    case PlanObject::kPlan:
      return kPlanKeys;
    case PlanObject::kDefaults:
      return kDefaultsKeys;
    case PlanObject::kProfile:
      return kProfileKeys;
    case PlanObject::kEcn:
      return kEcnKeys;
    case PlanObject::kDcqcn:
      return kDcqcnKeys;
    case PlanObject::kPcie:
      return kPcieKeys;
    case PlanObject::kOptics:
      return kOpticsKeys;
    case PlanObject::kFec:
      return kFecKeys;
    case PlanObject::kNode:
      return kNodeKeys;
    case PlanObject::kNic:
      return kNicKeys;
  }
  return kNone;
}

const std::vector<std::string>& RequiredKeys(PlanObject object) {
  switch (object) {
    case PlanObject::kPlan:
      return kPlanRequired;
    case PlanObject::kNode:
      return kNodeRequired;
    case PlanObject::kNic:
      return kNicRequired;
    default:
      return kNone;
  }
}

const std::vector<std::string>& DcqcnNpParameters() { return kDcqcnNp; }
const std::vector<std::string>& DcqcnRpParameters() { return kDcqcnRp; }

}  // namespace rocewatch::lint::plan
