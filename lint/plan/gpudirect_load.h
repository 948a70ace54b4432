#pragma once

// Reading a profile's `gpudirect` object and a NIC's `gpu` (lint/plan/gpudirect_settings.h,
// docs/plan.md#gpudirect), for LoadPlan.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lint/i18n/catalogue.h"
#include "lint/plan/json_reader.h"
#include "lint/plan/model.h"

namespace rocewatch::lint::plan {

const std::vector<std::string>& GpuDirectKeys();
// The profile's `gpudirect` member, when there is one (findings for what is wrong in it).
std::optional<GpuDirectSettings> LoadGpuDirect(JsonReader& l, const nlohmann::json& profile,
                                               const std::string& pointer, const i18n::Phrase& what);
// A NIC's `gpu`: "nearest" or a PCI address (DDDD:BB:DD.F, lower-case hex).
std::optional<std::string> LoadNicGpu(JsonReader& l, const nlohmann::json& nic, const std::string& pointer);

}  // namespace rocewatch::lint::plan
