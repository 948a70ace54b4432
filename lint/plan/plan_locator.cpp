#include "lint/plan/plan_locator.h"

namespace rocewatch::lint::plan {

DocumentPlace PlanLocator::Locate(std::string_view pointer, bool at_key) const {
  const TextPosition at = at_key ? KeyPositionOf(source_, pointer) : PositionOf(source_, pointer);
  return {at_key ? KeyLocationOf(source_, pointer) : LocationOf(source_, pointer), at.line,
          at.column};
}

std::string PlanLocator::Where(std::string_view pointer) const {
  const TextPosition at = PositionOf(source_, pointer);
  if (at.line == 0) return std::string(pointer);
  return (source_.name.empty() ? std::string("plan") : source_.name) + ":" +
         std::to_string(at.line) + ":" + std::to_string(at.column);
}

}  // namespace rocewatch::lint::plan
