#pragma once

// `roce-lint fix --persist`: what makes a node's settings survive a reboot and a driver reload.
//   rocewatch-roce-config.service   systemd oneshot that runs the installed script at boot
//   99-rocewatch-roce-config.rules  udev rule: re-runs the unit when a planned RDMA device or
//                                   netdev is added again (driver reload, firmware reset, rescan)
//   install.sh                      copies the three into place and enables the unit
// docs/fix.md says why a udev rule rather than a NetworkManager dispatcher script. The three
// are templates (lint/fix/templates/persist_*), which write the names and paths below out;
// fix_test checks that they agree.

#include <string>
#include <vector>

#include "lint/fix/target.h"
#include "lint/plan/model.h"
#include "rocewatch/result.h"

namespace rocewatch::lint::fix {

inline constexpr const char* kUnitName = "rocewatch-roce-config.service";
inline constexpr const char* kUdevRuleName = "99-rocewatch-roce-config.rules";
inline constexpr const char* kInstallScriptName = "install.sh";
inline constexpr const char* kInstalledScriptPath = "/usr/local/sbin/rocewatch-roce-config";

struct PersistFiles {
  std::string unit;
  std::string udev_rule;
  std::string install_script;
};

// An Error only when a template and this renderer disagree on a placeholder.
Result<PersistFiles> RenderPersistFiles(const plan::Node& node, const std::vector<NicTarget>& nics,
                                        const std::string& cluster);

// The name systemd gives the device unit of a path ("/sys/subsystem/net/devices/ens1f0np0" →
// "sys-subsystem-net-devices-ens1f0np0.device"), escaped as systemd-escape --path does.
std::string SystemdDeviceUnit(const std::string& path);

}  // namespace rocewatch::lint::fix
