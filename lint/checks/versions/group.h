#pragma once

// Versions (versions.*): firmware and driver as the profile accepts. One file per check; each is
// registered in lint/checks/specs.h.

#include <string>
#include <vector>

#include "lint/checks/check.h"

namespace rocewatch::lint::checks::versions {

void Firmware(const NicContext& c, FindingSink& sink);
void Driver(const NicContext& c, FindingSink& sink);
void DriverVersion(const NicContext& c, FindingSink& sink);

// Argument "accepted": "a or b or c" in every language (check.versions.or).
void AddOneOfArg(i18n::StoredArgs& args, const std::vector<std::string>& accepted);
bool Accepts(const std::vector<std::string>& accepted, const std::string& found);

}  // namespace rocewatch::lint::checks::versions
