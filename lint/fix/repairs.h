#pragma once

// The repairs of `roce-lint fix --only-findings`: for each check whose finding a script step can
// repair, the function that brings the NIC's target to the setting the finding is about. Each is
// registered with its check (lint/checks/specs.h) and receives the finding's typed values
// (Finding::setting) instead of reading its text. False: nothing to set.

#include "lint/finding.h"
#include "lint/fix/target.h"

namespace rocewatch::lint::fix {

// The profile's value of the setting the check compares (`profile` is TargetFromProfile's).
bool RepairTrust(const Finding& finding, const NicTarget& profile, NicTarget& out);
bool RepairPfc(const Finding& finding, const NicTarget& profile, NicTarget& out);
bool RepairDscpPriority(const Finding& finding, const NicTarget& profile, NicTarget& out);
bool RepairEcnNp(const Finding& finding, const NicTarget& profile, NicTarget& out);
bool RepairEcnRp(const Finding& finding, const NicTarget& profile, NicTarget& out);
bool RepairDcqcnParameter(const Finding& finding, const NicTarget& profile, NicTarget& out);
bool RepairCmRoceMode(const Finding& finding, const NicTarget& profile, NicTarget& out);
bool RepairCmTos(const Finding& finding, const NicTarget& profile, NicTarget& out);
bool RepairMtu(const Finding& finding, const NicTarget& profile, NicTarget& out);
bool RepairGlobalPause(const Finding& finding, const NicTarget& profile, NicTarget& out);
// drift.setting: the majority's value (the finding's typed `expected`) where a script step sets
// that key.
bool RepairDrift(const Finding& finding, const NicTarget& profile, NicTarget& out);

}  // namespace rocewatch::lint::fix
