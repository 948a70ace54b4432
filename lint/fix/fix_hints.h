#pragma once

// The commands in findings' fixes. A check states the settings to change (FixText with
// SettingChange parts, lint/core/fix_text.h); this renders them with the upstream tools and the
// real roots, from the same command functions as `roce-lint fix`'s scripts (lint/fix/commands.h).
// Whatever runs the checks calls RenderFixes before it reports.

#include <string>
#include <vector>

#include "lint/core/finding.h"

namespace rocewatch::lint::fix {

// The command that makes `change` on the finding's NIC (its netdev, device and port).
std::string RenderChange(const SettingChange& change, const Finding& finding);

// Writes each finding's fix_steps, rendered, into its fix (findings without steps keep theirs).
void RenderFixes(std::vector<Finding>& findings);

}  // namespace rocewatch::lint::fix
