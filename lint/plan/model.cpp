#include "lint/plan/model.h"

namespace rocewatch::lint::plan {
namespace {

std::string Format(const PlanSource& source, TextPosition at, std::string_view pointer) {
  std::string out = source.name.empty() ? std::string("plan") : source.name;
  if (at.line > 0) out += ':' + std::to_string(at.line) + ':' + std::to_string(at.column);
  out += ' ';
  out += pointer.empty() ? std::string_view("/") : pointer;
  return out;
}

}  // namespace

TextPosition PositionOf(const PlanSource& source, std::string_view pointer) {
  const auto& index = source.positions.values;
  std::string p(pointer);
  while (true) {
    if (auto at = index.Find(p)) return *at;
    std::size_t slash = p.rfind('/');
    if (p.empty() || slash == std::string::npos) return {};
    p.resize(slash);
  }
}

TextPosition KeyPositionOf(const PlanSource& source, std::string_view pointer) {
  if (auto at = source.positions.keys.Find(pointer)) return *at;
  return PositionOf(source, pointer);
}

std::string LocationOf(const PlanSource& source, std::string_view pointer) {
  return Format(source, PositionOf(source, pointer), pointer);
}

std::string KeyLocationOf(const PlanSource& source, std::string_view pointer) {
  return Format(source, KeyPositionOf(source, pointer), pointer);
}

}  // namespace rocewatch::lint::plan
