#include "lint/switch/switch_pauses.h"

namespace rocewatch::lint::switch_config {
namespace {

std::string_view ShortName(std::string_view name) {
  // An IPv4 address has no short name: "10.0.0.1" is not "10".
  bool numeric = !name.empty();
  for (char c : name) numeric = numeric && ((c >= '0' && c <= '9') || c == '.');
  if (numeric) return name;
  return name.substr(0, name.find('.'));
}

}  // namespace

std::string NormaliseSwitchName(std::string_view name) {
  if (auto colon = name.rfind(':'); colon != std::string_view::npos && colon + 1 < name.size() &&
                                    name.find(':') == colon) {  // host:port, not an IPv6 address
    bool digits = true;
    for (char c : name.substr(colon + 1)) digits = digits && c >= '0' && c <= '9';
    if (digits) name = name.substr(0, colon);
  }
  std::string out(name);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

bool SwitchPauses::Add(std::string_view switch_value, std::string_view port, int priority, PauseDirection direction,
                       double growth, const std::string& profile) {
  if (priority < 0 || priority > 7) return true;
  std::pair<std::string, std::string> key{NormaliseSwitchName(switch_value), std::string(port)};
  auto it = ports_.find(key);
  if (it == ports_.end()) {
    if (ports_.size() >= kMaxSwitchPausePorts) return false;
    it = ports_.emplace(std::move(key), PortPauses{}).first;
  }
  PortPauses& p = it->second;
  if (p.profile.empty()) {
    p.profile = profile;
    p.switch_value = std::string(switch_value);
    p.port_value = std::string(port);
  }
  auto& slot = (direction == PauseDirection::kRx ? p.rx : p.tx)[static_cast<std::size_t>(priority)];
  slot = slot.value_or(0) + growth;
  return true;
}

const PortPauses* SwitchPauses::Find(std::string_view system_name, std::string_view port_id) const {
  if (system_name.empty() || port_id.empty()) return nullptr;
  const std::string name = NormaliseSwitchName(system_name);
  if (auto it = ports_.find({name, std::string(port_id)}); it != ports_.end()) return &it->second;
  // One side with a domain, the other without.
  for (const auto& [key, pauses] : ports_) {
    if (key.second != port_id) continue;
    const bool a_short = key.first.find('.') == std::string::npos, b_short = name.find('.') == std::string::npos;
    if (a_short == b_short) continue;
    if (ShortName(key.first) == ShortName(name)) return &pauses;
  }
  return nullptr;
}

}  // namespace rocewatch::lint::switch_config
