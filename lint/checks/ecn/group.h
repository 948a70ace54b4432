#pragma once

// ECN/DCQCN (ecn.*): congestion notification on the planned priorities at both ends, with the
// planned DCQCN parameters. One file per check; each is registered in lint/checks/specs.h.

#include <optional>
#include <vector>

#include "lint/checks/check.h"

namespace rocewatch::lint::checks::ecn {

void NpPriorities(const NicContext& c, FindingSink& sink);
void RpPriorities(const NicContext& c, FindingSink& sink);
void Dcqcn(const NicContext& c, FindingSink& sink);

// ECN at one point ("np" or "rp") against the profile's priorities for it, as check `spec`.
void PointPriorities(const NicContext& c, FindingSink& sink, const CheckSpec& spec,
                     const char* point, const std::optional<std::vector<std::int64_t>>& planned);

}  // namespace rocewatch::lint::checks::ecn
