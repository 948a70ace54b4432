#include "lint/fix/persist.h"

#include <cstdio>

#include "lint/fix/templates.h"
#include "rocewatch/escape.h"

namespace rocewatch::lint::fix {
namespace {

std::string Join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

}  // namespace

std::string SystemdDeviceUnit(const std::string& path) {
  std::string trimmed = path;
  while (!trimmed.empty() && trimmed.front() == '/') trimmed.erase(trimmed.begin());
  while (!trimmed.empty() && trimmed.back() == '/') trimmed.pop_back();
  std::string out;
  for (std::size_t i = 0; i < trimmed.size(); ++i) {
    char c = trimmed[i];
    bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                c == ':' || c == '_' || (c == '.' && i != 0);
    if (c == '/') {
      out += '-';
    } else if (keep) {
      out += c;
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
      out += buf;
    }
  }
  return out + ".device";
}

Result<PersistFiles> RenderPersistFiles(const plan::Node& node, const std::vector<NicTarget>& nics,
                                        const std::string& cluster) {
  std::vector<std::string> devices, netdevs, device_units;
  for (const auto& t : nics) {
    devices.push_back(escape::UdevMatchValue(t.ib_dev));
    netdevs.push_back(escape::UdevMatchValue(t.netdev));
    device_units.push_back(SystemdDeviceUnit("/sys/subsystem/net/devices/" + t.netdev));
  }
  // Each file's values through the escaping function of its kind: systemd values in the unit,
  // udev match values in the rule, shell comments in install.sh.
  auto unit = templates::FillTemplate(
      templates::kPersistUnit, {{"NODE_VALUE", escape::SystemdValue(node.name)},
                                {"CLUSTER_VALUE", escape::SystemdValue(cluster)},
                                {"DEVICE_UNITS", Join(device_units, " ")}});
  if (!unit) return unit.error();
  auto rule = templates::FillTemplate(templates::kPersistUdev,
                                      {{"NODE_MATCH", escape::UdevMatchValue(node.name)},
                                       {"DEVICES_MATCH", Join(devices, "|")},
                                       {"NETDEVS_MATCH", Join(netdevs, "|")}});
  if (!rule) return rule.error();
  auto install = templates::FillTemplate(templates::kPersistInstall,
                                         {{"NODE_COMMENT", escape::ShComment(node.name)},
                                          {"CLUSTER_COMMENT", escape::ShComment(cluster)}});
  if (!install) return install.error();
  return PersistFiles{.unit = std::move(*unit),
                      .udev_rule = std::move(*rule),
                      .install_script = std::move(*install)};
}

}  // namespace rocewatch::lint::fix
