#include "lint/checks/settings.h"

#include <algorithm>
#include <charconv>

#include "lint/checks/observed.h"
#include "lint/core/setting_table.h"
#include "lint/metric_contract.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::checks {

std::uint32_t SettingsPool::Intern(std::string_view text) {
  std::uint32_t id = table_.Find(text);
  if (id != observe::NameTable::kNotFound) return id;
  return table_.Intern(texts_.emplace_back(text));
}

std::uint32_t SettingsPool::InternSet(SettingIds settings) {
  auto [it, added] = set_ids_.try_emplace(std::move(settings), static_cast<std::uint32_t>(sets_.size()));
  if (added) sets_.push_back(&it->first);
  return it->second;
}

namespace {

class Builder {
 public:
  Builder(SettingsPool& pool, SettingIds& out) : pool_(pool), out_(out) {}

  void Text(std::string_view key, std::string_view value) {
    out_.emplace_back(pool_.Intern(key), pool_.Intern(value));
  }
  void Number(std::string_view key, std::optional<double> v) {
    if (!v) return;
    char buf[32];
    std::string_view text;
    if (*v == static_cast<double>(static_cast<long long>(*v))) {
      auto r = std::to_chars(buf, buf + sizeof buf, static_cast<long long>(*v));
      text = std::string_view(buf, static_cast<std::size_t>(r.ptr - buf));
    } else {
      auto r = std::to_chars(buf, buf + sizeof buf, *v);
      text = std::string_view(buf, static_cast<std::size_t>(r.ptr - buf));
    }
    Text(key, text);
  }
  // "prefix" + suffix as a key, without allocating for the common short case.
  void Composite(std::string_view prefix, std::string_view suffix, std::string_view value) {
    key_.assign(prefix);
    key_.append(suffix);
    Text(key_, value);
  }

 private:
  SettingsPool& pool_;
  SettingIds& out_;
  std::string key_;
};

}  // namespace

SettingIds ExtractSettings(const observe::NodeView& view, std::string_view device,
                           std::string_view port, std::string_view netdev, SettingsPool& pool) {
  SettingIds out;
  out.reserve(128);
  Builder b(pool, out);
  b.Number(setting::kNetdevMtu.key, view.Value(metric::roce_netdev_mtu_bytes, {{label::netdev, netdev}}));
  b.Number(setting::kRoceActiveMtu.key, view.Value(metric::roce_port_active_mtu_bytes, {{label::device, device}, {label::port, port}}));
  // A port that is down reports a fallback rate (link.port-down says what matters): the settings
  // compared only while the port is up are left out.
  auto state = view.Value(metric::roce_port_state, {{label::device, device}, {label::port, port}});
  const bool port_down = state && *state != 4;
  if (!(port_down && setting::kPortRate.port_up_only))
    b.Number(setting::kPortRate.key, view.Value(metric::roce_port_rate_bytes_per_second, {{label::device, device}, {label::port, port}}));
  b.Number(setting::kPcieSpeed.key, view.Value(metric::roce_pcie_link_speed_transfers_per_second, {{label::device, device}, {label::kind, "current"}}));
  b.Number(setting::kPcieWidth.key, view.Value(metric::roce_pcie_link_width, {{label::device, device}, {label::kind, "current"}}));
  if (auto pfc = EnabledPriorities(view, metric::roce_pfc_enabled, netdev)) b.Text(setting::kPfc.key, FormatPriorities(*pfc));
  if (auto trust = TrustMode(view, netdev)) b.Text(setting::kTrust.key, *trust);
  char num[24];
  for (const auto& s : view.Select(metric::roce_dscp_priority, {{label::netdev, netdev}})) {
    auto r = std::to_chars(num, num + sizeof num, static_cast<long long>(s.value()));
    b.Composite(setting::kDscp.key, s.Label(label::dscp), std::string_view(num, static_cast<std::size_t>(r.ptr - num)));
  }
  for (auto [point, ecn_key] : {std::pair{"np", setting::kEcnNp.key}, std::pair{"rp", setting::kEcnRp.key}}) {
    if (auto ecn = EnabledPriorities(view, metric::roce_ecn_enabled, netdev, point))
      b.Text(ecn_key, FormatPriorities(*ecn));
    const std::string prefix = std::string(setting::kDcqcn.key) + point + ".";
    for (const auto& p : DcqcnParameters(view, netdev, point)) b.Composite(prefix, p.name, FormatNumber(p.value));
  }
  for (const auto& m : view.Select(metric::roce_cm_default_roce_mode_info, {{label::device, device}, {label::port, port}}))
    b.Text(setting::kCmRoceMode.key, m.Label(label::mode));
  b.Number(setting::kCmTos.key, view.Value(metric::roce_cm_default_tos, {{label::device, device}, {label::port, port}}));
  for (const auto& d : view.Select(metric::roce_device_info, {{label::device, device}})) {
    b.Text(setting::kFirmware.key, d.Label(label::fw_version));
    b.Text(setting::kDriver.key, d.Label(label::driver));
  }
  for (const auto& d : view.Select(metric::roce_ethtool_driver_info, {{label::netdev, netdev}}))
    b.Text(setting::kDriverVersion.key, d.Label(label::version));
  b.Number(setting::kPauseRx.key, view.Value(metric::roce_pause_rx_enabled, {{label::netdev, netdev}}));
  b.Number(setting::kPauseTx.key, view.Value(metric::roce_pause_tx_enabled, {{label::netdev, netdev}}));
  // The tables the exporter serves as digests by default (dscp_map, app, ets, buffer, dcbx):
  // equal digests, equal tables.
  for (const auto& t : view.Select(metric::roce_dcb_table_entries, {{label::netdev, netdev}}))
    b.Composite(setting::kDcbTable.key, t.Label(label::table), t.Label(label::digest));
  for (const auto& t : view.Select(metric::roce_ets_priority_traffic_class, {{label::netdev, netdev}})) {
    auto r = std::to_chars(num, num + sizeof num, static_cast<long long>(t.value()));
    b.Composite(setting::kEtsTc.key, t.Label(label::priority), std::string_view(num, static_cast<std::size_t>(r.ptr - num)));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end(),
                        [](const auto& x, const auto& y) { return x.first == y.first; }),
            out.end());
  return out;
}

SettingValue TypedSetting(std::string_view key, std::string_view text) {
  const setting::Spec* spec = setting::Find(key);
  if (spec != nullptr && spec->type == setting::ValueType::kPriorities) {
    std::vector<std::int64_t> prios;
    if (Trim(text) == "none") return prios;
    for (auto part : Split(text, ',')) {
      auto p = ParseI64(part);
      if (!p || *p < 0 || *p > 7) return std::string(text);
      prios.push_back(*p);
    }
    std::sort(prios.begin(), prios.end());
    return prios;
  }
  if (auto number = ParseI64(text)) return *number;
  return std::string(text);
}

}  // namespace rocewatch::lint::checks
