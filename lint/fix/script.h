#pragma once

// The per-node configuration script of `roce-lint fix`: a POSIX sh script that first runs a
// precheck (devices, netdevs, driver, versions, tools) and then brings every planned NIC to its
// target, reading each setting first and changing only what differs. docs/fix.md describes its
// output and exit codes; lint/fix/commands.h supplies every command that changes a setting.

#include <string>
#include <vector>

#include "lint/fix/commands.h"
#include "lint/fix/target.h"
#include "lint/plan/model.h"
#include "rocewatch/result.h"

namespace rocewatch::lint::fix {

// The script's exit codes (also what the batch runner and systemd see).
inline constexpr int kScriptOk = 0;              // every setting as planned (or would be)
inline constexpr int kScriptFailedSettings = 1;  // a setting could not be read or changed
inline constexpr int kScriptUsage = 2;           // bad arguments
inline constexpr int kScriptPrecheckFailed = 3;  // precheck failed: nothing was changed
inline constexpr int kScriptOtherPlanBackup = 4;  // another plan's unrestored backup: nothing changed

// The name the script is written and installed under.
inline constexpr const char* kScriptFileName = "rocewatch-roce-config.sh";

struct ScriptOptions {
  Toolset tools = Toolset::kUpstream;
  std::string plan_name;       // the plan file as given, for the header
  std::string cluster;         // plan.cluster
  bool only_findings = false;  // the targets hold only what the checks found wrong
};

// The script for `node`, one target per NIC to configure (plan order). An Error when a name
// cannot be used safely in a script (a node, device or netdev with spaces, quotes, '/').
Result<std::string> RenderScript(const plan::Node& node, const std::vector<NicTarget>& nics,
                                 const ScriptOptions& options);

}  // namespace rocewatch::lint::fix
