#pragma once

// The repairs of `roce-lint fix --only-findings`: for each setting a script step sets, the
// function that brings the NIC's target to what the finding about it wants. A check names the
// setting it compares (CheckSpec::setting); lint/fix knows settings, not checks, and each
// repair receives the finding's typed values (Finding::setting) instead of reading its text.

#include <string_view>
#include <vector>

#include "lint/core/finding.h"
#include "lint/fix/target.h"

namespace rocewatch::lint::fix {

// Brings `out` to what `profile` (the NIC's full target, TargetFromProfile) or the finding's
// typed setting wants; false when there is nothing to set.
using Repair = bool (*)(const Finding& finding, const NicTarget& profile, NicTarget& out);

struct RepairEntry {
  std::string_view setting;  // CheckSpec::setting: "pfc", "dscp", kSettingOfFinding, …
  Repair repair;
};

// Every repair, one per setting a script step sets.
const std::vector<RepairEntry>& Repairs();
// The repair of a setting (a check's CheckSpec::setting); nullptr when no step sets it.
const RepairEntry* RepairFor(std::string_view setting);

}  // namespace rocewatch::lint::fix
