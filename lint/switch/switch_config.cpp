// Reading a --switch-config file and finding a NIC's switch port in it (switch_config.h).

#include "lint/switch/switch_config.h"

#include "lint/switch/json_walk.h"
#include "lint/switch/nvue_config.h"
#include "lint/switch/sonic_config_db.h"
#include "rocewatch/escape.h"
#include "rocewatch/read_file.h"

namespace rocewatch::lint::switch_config {
namespace {

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

}  // namespace

std::string_view NosName(Nos nos) { return nos == Nos::kSonic ? "SONiC" : "Cumulus Linux (NVUE)"; }

void SwitchConfig::IndexPorts() {
  port_index_.clear();
  for (std::size_t i = 0; i < ports.size(); ++i) {
    port_index_.emplace(ports[i].name, i);
    if (!ports[i].alias.empty()) port_index_.emplace(ports[i].alias, i);
  }
}

const PortQos* SwitchConfig::FindPort(std::string_view port_id) const {
  if (port_id.empty()) return nullptr;
  if (!port_index_.empty()) {
    // The first port named or aliased so, as the walk below finds it.
    if (auto it = port_index_.find(port_id); it != port_index_.end() && it->second < ports.size())
      return &ports[it->second];
  } else {
    for (const PortQos& p : ports)
      if (p.name == port_id || (!p.alias.empty() && p.alias == port_id)) return &p;
  }
  return every_port ? &*every_port : nullptr;
}

SwitchConfigs::Match SwitchConfigs::Find(std::string_view system_name, std::string_view port_id) const {
  for (const SwitchConfig& c : configs_) {
    if (c.hostname.empty() || !EqualsIgnoreCase(c.hostname, system_name)) continue;
    if (const PortQos* p = c.FindPort(port_id)) return {&c, p};
  }
  return {};
}

Result<SwitchConfig> ParseSwitchConfig(std::string_view text, const std::string& source) {
  auto parsed = ParseBoundedJson(text, source, kMaxSwitchConfigBytes, kMaxSwitchConfigDepth,
                                 "a switch configuration",
                                 "neither SONiC's config_db.json nor NVUE's JSON nests that deep");
  if (!parsed) return parsed.error();
  const json& root = *parsed;
  try {
    SwitchConfig config;
    std::string path;
    if (const json* set = NvueSetObject(root, path)) {
      config = ReadNvueConfig(*set, path);
    } else if (LooksLikeSonic(root)) {
      config = ReadSonicConfigDb(root);
    } else {
      return Error{source + ": neither SONiC's config_db.json (no PORT, PORT_QOS_MAP, DSCP_TO_TC_MAP, "
                            "QUEUE … table) nor NVUE's `nv config show -o json` (no \"set\" or \"qos\")"};
    }
    config.source = source;
    config.IndexPorts();
    return config;
  } catch (const Bad& bad) {
    // The path holds the file's keys: shown as TerminalText, as every text of the file is.
    return Error{source + ": " + (bad.path.empty() ? "/" : escape::TerminalText(bad.path)) + ": " + bad.what};
  } catch (const json::exception& e) {  // a shape the walk did not foresee: still the file's fault
    return Error{source + ": unexpected JSON shape: " + e.what()};
  }
}

Result<SwitchConfig> ReadSwitchConfigFile(const std::string& path) {
  auto text = ReadFileCapped(path, kMaxSwitchConfigBytes);
  if (!text) return text.error();
  return ParseSwitchConfig(*text, path);
}

}  // namespace rocewatch::lint::switch_config
