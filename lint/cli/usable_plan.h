#pragma once

// The plan a command acts on (check, fix, apply, verify, targets): loaded and validated, and
// refused, with its errors listed, when it has any. One place, so that every command says the
// same and escapes what it prints (a node name becomes a directory, a script, a label).

#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "lint/i18n/language.h"
#include "lint/plan/load.h"

namespace rocewatch::lint::cli {

// The loaded plan; nullopt when it cannot be read or has an error of its own (`roce-lint plan`
// findings at severity error), after "roce-lint COMMAND: …" and each error went to `err`, in
// `lang`.
std::optional<plan::LoadedPlan> LoadUsablePlan(std::string_view command, const std::string& path,
                                               std::ostream& err,
                                               i18n::Language lang = i18n::Language::kEnglish);

}  // namespace rocewatch::lint::cli
