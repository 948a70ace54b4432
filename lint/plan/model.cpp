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
    auto it = index.find(p);
    if (it != index.end()) return it->second;
    std::size_t slash = p.rfind('/');
    if (p.empty() || slash == std::string::npos) return {};
    p.resize(slash);
  }
}

TextPosition KeyPositionOf(const PlanSource& source, std::string_view pointer) {
  auto it = source.positions.keys.find(std::string(pointer));
  if (it != source.positions.keys.end()) return it->second;
  return PositionOf(source, pointer);
}

std::string LocationOf(const PlanSource& source, std::string_view pointer) {
  return Format(source, PositionOf(source, pointer), pointer);
}

std::string KeyLocationOf(const PlanSource& source, std::string_view pointer) {
  return Format(source, KeyPositionOf(source, pointer), pointer);
}

}  // namespace rocewatch::lint::plan
