#include "exporter/lldp/neighbors_json.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "exporter/lldp/dcbx.h"

namespace rocewatch::lldp {
namespace {

using json = nlohmann::json;

// `text` cut to at most kMaxValueBytes without splitting a UTF-8 sequence.
std::string Bounded(std::string text) {
  if (text.size() <= kMaxValueBytes) return text;
  std::size_t end = kMaxValueBytes;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  text.resize(end);
  return text;
}

// json0 wraps every object in an array; `-f json` does not. Accept both for one object.
const json* First(const json& parent, const char* key) {
  auto it = parent.find(key);
  if (it == parent.end()) return nullptr;
  if (it->is_array()) return it->empty() ? nullptr : &it->front();
  return &*it;
}

// The text of a json0 leaf: {"value": "..."} (or, in -f json, the string itself).
Result<std::string> Leaf(const json& parent, const char* key, const std::string& where,
                         const char* field = "value") {
  const json* v = First(parent, key);
  if (v == nullptr) return std::string();
  if (v->is_object()) {
    auto it = v->find(field);
    if (it == v->end()) return std::string();
    v = &*it;
  }
  if (v->is_string()) return Bounded(v->get<std::string>());
  if (v->is_number_unsigned() || v->is_number_integer()) return std::to_string(v->get<long long>());
  return Error{where + "." + key + ": expected a string"};
}

Result<std::optional<double>> Seconds(const std::string& text, const std::string& where) {
  if (text.empty()) return std::optional<double>();
  unsigned long long n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || n > 65535)
    return Error{where + ": expected 0-65535 seconds, found \"" + text + "\""};
  return std::optional<double>(static_cast<double>(n));
}

// One {"oui": "00,80,C2", "subtype": "11", "len": "2", "value": "08,08"} as lldpcli prints
// it; an entry that is not that form is skipped and said in n.unknown_tlv_errors.
void DecodeUnknownTlv(const json& tlv, const std::string& where, Neighbor& n) {
  auto text = [&tlv](const char* key) -> std::optional<std::string> {
    auto it = tlv.find(key);
    if (it == tlv.end() || !it->is_string()) return std::nullopt;
    return it->get<std::string>();
  };
  const auto oui = text("oui"), subtype = text("subtype"), len = text("len"), value = text("value");
  if (!tlv.is_object() || !oui || !subtype) {
    n.unknown_tlv_errors.push_back(where + ": expected an object with oui and subtype strings");
    return;
  }
  LldpUnknownTlv t;
  const auto oui_bytes = ParseLldpHex(*oui, 3);
  if (!oui_bytes || oui_bytes->size() != 3) {
    n.unknown_tlv_errors.push_back(where + ".oui: expected three hex bytes like 00,80,C2");
    return;
  }
  std::copy(oui_bytes->begin(), oui_bytes->end(), t.oui.begin());
  unsigned sub = 0;
  auto [end, ec] = std::from_chars(subtype->data(), subtype->data() + subtype->size(), sub);
  if (ec != std::errc() || end != subtype->data() + subtype->size() || sub > 255) {
    n.unknown_tlv_errors.push_back(where + ".subtype: expected 0-255");
    return;
  }
  t.subtype = static_cast<std::uint8_t>(sub);
  const auto info = ParseLldpHex(value.value_or(""), kMaxTlvInfoBytes);
  if (!info) {
    n.unknown_tlv_errors.push_back(where + ".value: expected at most " +
                                   std::to_string(kMaxTlvInfoBytes) + " hex bytes like 08,08");
    return;
  }
  if (len && *len != std::to_string(info->size())) {
    n.unknown_tlv_errors.push_back(where + ": len " + *len + " but " +
                                   std::to_string(info->size()) + " bytes of value");
    return;
  }
  t.info = std::move(*info);
  n.unknown_tlvs.push_back(std::move(t));
}

// "unknown-tlvs": [{"unknown-tlv": [ ... ]}] (json0), or {"unknown-tlv": {...} or [...]} (json).
std::optional<Error> DecodeUnknownTlvs(const json& node, const std::string& where,
                                       Neighbor& n) {
  const json* holder = node.is_array() ? (node.empty() ? nullptr : &node.front()) : &node;
  if (holder == nullptr) return std::nullopt;
  if (!holder->is_object()) return Error{where + ": expected an object"};
  auto it = holder->find("unknown-tlv");
  if (it == holder->end()) return std::nullopt;
  const json list = it->is_array() ? *it : json::array({*it});
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (n.unknown_tlvs.size() >= kMaxUnknownTlvs) {
      n.unknown_tlv_errors.push_back(where + ": more than " + std::to_string(kMaxUnknownTlvs) +
                                     " unknown TLVs, the rest skipped");
      break;
    }
    DecodeUnknownTlv(list[i], where + ".unknown-tlv[" + std::to_string(i) + "]", n);
  }
  return std::nullopt;
}

Result<Neighbor> DecodeInterface(const json& iface, const std::string& where) {
  if (!iface.is_object()) return Error{where + ": expected an object"};
  Neighbor n;
  auto name = Leaf(iface, "name", where);
  if (!name) return name.error();
  n.netdev = *name;
  if (n.netdev.empty()) return Error{where + ": no interface name"};
  auto via = Leaf(iface, "via", where);
  if (!via) return via.error();
  n.protocol = *via;
  auto age = Leaf(iface, "age", where);
  if (!age) return age.error();
  if (!age->empty()) n.age_seconds = ParseAge(*age);

  if (const json* chassis = First(iface, "chassis")) {
    if (!chassis->is_object()) return Error{where + ".chassis: expected an object"};
    const std::string cw = where + ".chassis";
    auto type = Leaf(*chassis, "id", cw, "type");
    auto id = Leaf(*chassis, "id", cw, "value");
    auto sysname = Leaf(*chassis, "name", cw);
    auto descr = Leaf(*chassis, "descr", cw);
    auto mgmt = Leaf(*chassis, "mgmt-ip", cw);
    for (auto* r : {&type, &id, &sysname, &descr, &mgmt})
      if (!*r) return r->error();
    n.chassis_id_subtype = *type;
    n.chassis_id = *id;
    n.system_name = *sysname;
    n.system_description = *descr;
    n.management_address = *mgmt;
  }
  if (const json* port = First(iface, "port")) {
    if (!port->is_object()) return Error{where + ".port: expected an object"};
    const std::string pw = where + ".port";
    auto type = Leaf(*port, "id", pw, "type");
    auto id = Leaf(*port, "id", pw, "value");
    auto descr = Leaf(*port, "descr", pw);
    auto ttl = Leaf(*port, "ttl", pw);
    for (auto* r : {&type, &id, &descr, &ttl})
      if (!*r) return r->error();
    n.port_id_subtype = *type;
    n.port_id = *id;
    n.port_description = *descr;
    auto seconds = Seconds(*ttl, pw + ".ttl");
    if (!seconds) return seconds.error();
    n.ttl_seconds = *seconds;
  }
  if (auto it = iface.find("unknown-tlvs"); it != iface.end()) {
    if (auto error = DecodeUnknownTlvs(*it, where + ".unknown-tlvs", n)) return *error;
  }
  return n;
}

void Put(json& parent, const char* key, const std::string& value) {
  if (!value.empty()) parent[key] = json::array({{{"value", value}}});
}

}  // namespace

std::optional<double> ParseAge(std::string_view text) {
  unsigned days = 0, h = 0, m = 0, s = 0;
  char unit[5] = {};
  const std::string copy(text.substr(0, 64));
  int consumed = 0;
  if (std::sscanf(copy.c_str(), "%u %4[days], %2u:%2u:%2u%n", &days, unit, &h, &m, &s,
                  &consumed) != 5 ||
      static_cast<std::size_t>(consumed) != copy.size() || copy.size() != text.size())
    return std::nullopt;
  const std::string_view u(unit);
  if ((u != "day" && u != "days") || h > 23 || m > 59 || s > 59 || days > 1000000)
    return std::nullopt;
  return static_cast<double>(days) * 86400 + h * 3600 + m * 60 + s;
}

std::string FormatAge(double seconds) {
  const long long age = seconds < 0 ? 0 : static_cast<long long>(seconds);
  const long long days = age / 86400;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%lld day%s, %02lld:%02lld:%02lld", days, days > 1 ? "s" : "",
                (age / 3600) % 24, (age / 60) % 60, age % 60);
  return buf;
}

Result<std::vector<Neighbor>> DecodeNeighborsJson(std::string_view text) {
  if (text.size() > kMaxAnswerBytes)
    return Error{"lldp neighbours: answer of " + std::to_string(text.size()) +
                 " bytes, more than the " + std::to_string(kMaxAnswerBytes) + " accepted"};
  json doc = json::parse(text.begin(), text.end(), nullptr, false);
  if (doc.is_discarded()) return Error{"lldp neighbours: not JSON (or not UTF-8)"};
  if (!doc.is_object()) return Error{"lldp neighbours: expected an object at the top"};
  std::vector<Neighbor> out;
  const json* lldp = First(doc, "lldp");
  if (lldp == nullptr) return Error{"lldp neighbours: no \"lldp\" key"};
  if (!lldp->is_object()) return Error{"lldp neighbours: \"lldp\" is not an object"};
  auto it = lldp->find("interface");
  if (it == lldp->end()) return out;
  if (!it->is_array()) return Error{"lldp neighbours: \"interface\" is not a list"};
  for (std::size_t i = 0; i < it->size(); ++i) {
    if (out.size() >= kMaxNeighbors)
      return Error{"lldp neighbours: more than " + std::to_string(kMaxNeighbors)};
    auto n = DecodeInterface((*it)[i], "lldp.interface[" + std::to_string(i) + "]");
    if (!n) return n.error();
    out.push_back(std::move(*n));
  }
  return out;
}

std::string EncodeNeighborsJson(const std::vector<Neighbor>& neighbors) {
  json interfaces = json::array();
  for (const auto& n : neighbors) {
    json iface;
    iface["name"] = n.netdev;
    if (!n.protocol.empty()) iface["via"] = n.protocol;
    if (n.age_seconds) iface["age"] = FormatAge(*n.age_seconds);
    json chassis = json::object();
    if (!n.chassis_id.empty() || !n.chassis_id_subtype.empty())
      chassis["id"] = json::array({{{"type", n.chassis_id_subtype}, {"value", n.chassis_id}}});
    Put(chassis, "name", n.system_name);
    Put(chassis, "descr", n.system_description);
    Put(chassis, "mgmt-ip", n.management_address);
    json port = json::object();
    if (!n.port_id.empty() || !n.port_id_subtype.empty())
      port["id"] = json::array({{{"type", n.port_id_subtype}, {"value", n.port_id}}});
    Put(port, "descr", n.port_description);
    if (n.ttl_seconds) Put(port, "ttl", std::to_string(static_cast<long long>(*n.ttl_seconds)));
    iface["chassis"] = json::array({chassis});
    iface["port"] = json::array({port});
    if (!n.unknown_tlvs.empty()) {
      json tlvs = json::array();
      for (const auto& t : n.unknown_tlvs) {
        tlvs.push_back({{"oui", FormatLldpHex(t.oui)},
                        {"subtype", std::to_string(t.subtype)},
                        {"len", std::to_string(t.info.size())},
                        {"value", FormatLldpHex(t.info)}});
      }
      iface["unknown-tlvs"] = json::array({json{{"unknown-tlv", tlvs}}});
    }
    interfaces.push_back(std::move(iface));
  }
  json doc;
  doc["lldp"] = json::array({json{{"interface", interfaces}}});
  return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace rocewatch::lldp
