#pragma once

// Drift (drift.*): every NIC's settings against the NICs of the same profile, once every node is
// in (CheckRunner keeps a DriftRecord per NIC). Registered in lint/checks/specs.h.

#include "lint/checks/check.h"

namespace rocewatch::lint::checks::drift {

void Setting(const FleetContext& c, FindingSink& sink);

}  // namespace rocewatch::lint::checks::drift
