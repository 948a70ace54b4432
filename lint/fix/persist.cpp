#include "lint/fix/persist.h"

#include <cstdio>
#include <sstream>

#include "lint/fix/script.h"
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

PersistFiles RenderPersistFiles(const plan::Node& node, const std::vector<NicTarget>& nics,
                                const std::string& cluster) {
  std::vector<std::string> devices, netdevs, device_units;
  for (const auto& t : nics) {
    devices.push_back(escape::UdevMatchValue(t.ib_dev));
    netdevs.push_back(escape::UdevMatchValue(t.netdev));
    device_units.push_back(SystemdDeviceUnit("/sys/subsystem/net/devices/" + t.netdev));
  }
  PersistFiles files;

  std::ostringstream unit;
  const std::string unit_node = escape::SystemdValue(node.name);
  unit << "# RoCE settings of node " << unit_node << " (cluster " << escape::SystemdValue(cluster)
       << "), from `roce-lint fix --persist`.\n"
       << "# Runs " << kInstalledScriptPath << " once at boot, after the planned netdevs exist;\n"
       << "# " << kUdevRuleName << " restarts it when one of the planned devices is added again\n"
       << "# (driver reload, firmware reset), since those settings do not survive that.\n"
       << "# The script exits 1 when a setting could not be set and 3 when its precheck failed\n"
       << "# (nothing changed); either leaves this unit failed: systemctl status " << kUnitName
       << "\n"
       << "[Unit]\n"
       << "Description=RoCE NIC settings of node " << unit_node << " (rocewatch)\n"
       << "Wants=network-pre.target " << Join(device_units, " ") << "\n"
       << "After=network-pre.target systemd-modules-load.service openibd.service "
          "rdma-load-modules@rdma.service\n"
       << "After=" << Join(device_units, " ") << "\n"
       << "Before=network-online.target\n"
       << "\n"
       << "[Service]\n"
       << "Type=oneshot\n"
       << "RemainAfterExit=yes\n"
       << "ExecStart=" << kInstalledScriptPath << "\n"
       << "\n"
       << "[Install]\n"
       << "WantedBy=multi-user.target\n";
  files.unit = unit.str();

  std::ostringstream rule;
  const std::string run =
      "RUN+=\"/bin/systemctl --no-block restart " + std::string(kUnitName) + "\"";
  rule << "# Re-applies the RoCE settings of node " << escape::UdevMatchValue(node.name) << " (" << kUnitName
       << ") when a planned\n"
       << "# RDMA device or netdev is added again: a driver reload, a firmware reset or a PCI "
          "rescan\n"
       << "# recreates them with the driver's defaults. From `roce-lint fix --persist`.\n"
       << "ACTION==\"add\", SUBSYSTEM==\"infiniband\", KERNEL==\"" << Join(devices, "|") << "\", "
       << run << "\n"
       << "ACTION==\"add\", SUBSYSTEM==\"net\", NAME==\"" << Join(netdevs, "|") << "\", " << run
       << "\n";
  files.udev_rule = rule.str();

  std::ostringstream install;
  install << "#!/bin/sh\n"
          << "# Installs the RoCE settings of node " << escape::ShComment(node.name) << " (cluster "
          << escape::ShComment(cluster)
          << "), from `roce-lint fix --persist`:\n"
          << "#   " << kScriptFileName << " -> " << kInstalledScriptPath << "\n"
          << "#   " << kUnitName << " -> /etc/systemd/system/ (enabled: runs at boot)\n"
          << "#   " << kUdevRuleName
          << " -> /etc/udev/rules.d/ (re-applies after a driver reload)\n"
          << "# Run it as root on " << escape::ShComment(node.name) << " from the directory roce-lint wrote:\n"
          << "#   sh install.sh         install and enable\n"
          << "#   sh install.sh --now   and apply the settings now\n"
          << "# DESTDIR=/staging sh install.sh installs under a staging root and leaves systemd "
             "and udev alone.\n"
          << "set -eu\n"
          << "\n"
          << "here=$(cd \"$(dirname \"$0\")\" && pwd)\n"
          << "DESTDIR=${DESTDIR:-}\n"
          << "NOW=0\n"
          << "case ${1-} in\n"
          << "  '') ;;\n"
          << "  --now) NOW=1 ;;\n"
          << "  *)\n"
          << "    echo 'usage: install.sh [--now]' >&2\n"
          << "    exit 2\n"
          << "    ;;\n"
          << "esac\n"
          << "\n";
  // Each file it replaces is kept, and what it installed is listed, for --rollback
  // (lint/fix/templates/rollback.sh reads persist.state).
  install << "# Each file it replaces is kept under $STATE_DIR/replaced, and "
             "$STATE_DIR/persist.state\n"
          << "# lists what it installed: " << kScriptFileName
          << " --rollback disables the unit and\n"
          << "# removes them (or puts back what they replaced). An earlier install's line is "
             "kept.\n"
          << "STATE_DIR=${ROCEWATCH_STATE:-$DESTDIR/var/lib/rocewatch}\n"
          << "keep() {\n"
          << "  if grep -q \"^installed\t$1\t\" \"$STATE_DIR/persist.state\" 2>/dev/null; then\n"
          << "    return 0\n"
          << "  fi\n"
          << "  saved=-\n"
          << "  if [ -e \"$DESTDIR$1\" ]; then\n"
          << "    mkdir -p \"$STATE_DIR/replaced\"\n"
          << "    saved=$STATE_DIR/replaced/${1##*/}\n"
          << "    cp -p \"$DESTDIR$1\" \"$saved\"\n"
          << "  fi\n"
          << "  mkdir -p \"$STATE_DIR\"\n"
          << "  printf 'installed\\t%s\\t%s\\n' \"$1\" \"$saved\" >>\"$STATE_DIR/persist.state\"\n"
          << "}\n"
          << "keep " << kInstalledScriptPath << "\n"
          << "keep /etc/systemd/system/" << kUnitName << "\n"
          << "keep /etc/udev/rules.d/" << kUdevRuleName << "\n"
          << "\n";
  install << "install -D -m 0755 \"$here/" << kScriptFileName << "\" \"$DESTDIR"
          << kInstalledScriptPath << "\"\n"
          << "install -D -m 0644 \"$here/" << kUnitName << "\" \"$DESTDIR/etc/systemd/system/"
          << kUnitName << "\"\n"
          << "install -D -m 0644 \"$here/" << kUdevRuleName << "\" \"$DESTDIR/etc/udev/rules.d/"
          << kUdevRuleName << "\"\n"
          << "echo \"installed $DESTDIR" << kInstalledScriptPath << ", $DESTDIR/etc/systemd/system/"
          << kUnitName << ", $DESTDIR/etc/udev/rules.d/" << kUdevRuleName << "\"\n"
          << "if [ -n \"$DESTDIR\" ]; then\n"
          << "  echo 'DESTDIR is set: systemd and udev left alone'\n"
          << "  exit 0\n"
          << "fi\n"
          << "\n"
          << "if ! " << kInstalledScriptPath << " --precheck; then\n"
          << "  echo 'warning: the precheck fails on this host: the unit will fail at boot until "
             "it passes' >&2\n"
          << "fi\n"
          << "systemctl daemon-reload\n"
          << "systemctl enable " << kUnitName << "\n"
          << "udevadm control --reload\n"
          << "if [ \"$NOW\" = 1 ]; then\n"
          << "  if ! systemctl restart " << kUnitName << "; then\n"
          << "    systemctl --no-pager status " << kUnitName << " >&2 || true\n"
          << "    exit 1\n"
          << "  fi\n"
          << "  journalctl --no-pager -o cat -n 200 -u " << kUnitName << " | tail -n 20\n"
          << "fi\n";
  files.install_script = install.str();
  return files;
}

}  // namespace rocewatch::lint::fix
