#pragma once

// Shared by the plan check files (node_checks.cpp, profile_checks.cpp); not a public header.

#include <string>
#include <string_view>

#include "lint/core/check_spec.h"
#include "lint/core/finding.h"
#include "lint/core/finding_sink.h"
#include "lint/i18n/catalogue.h"
#include "lint/plan/model.h"

namespace rocewatch::lint::plan::internal {

// A finding of plan check `spec` (lint/plan/plan_checks.h), with its ID and severity. Each text
// is English as written, or a catalogue message (lint/i18n/) kept for the report's language.
Finding MakeFinding(const lint::CheckSpec& spec, i18n::Phrase message, i18n::Phrase expected = "",
                    i18n::Phrase found = "", i18n::Phrase fix = "");

void CheckNodes(const Plan& plan, FindingSink& sink);
void CheckProfiles(const Plan& plan, FindingSink& sink);
void CheckNames(const Plan& plan, FindingSink& sink);

// "/profiles/<name>" with the name escaped.
std::string ProfilePointer(std::string_view name);

}  // namespace rocewatch::lint::plan::internal
