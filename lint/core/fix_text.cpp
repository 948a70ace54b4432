#include "lint/core/fix_text.h"

#include <algorithm>
#include <utility>

namespace rocewatch::lint {

FixText::FixText(std::string text) {
  if (!text.empty()) parts_.push_back({std::move(text), {}});
}
FixText::FixText(const char* text) : FixText(std::string(text)) {}
FixText::FixText(SettingChange change) { parts_.push_back({{}, std::move(change)}); }

FixText& FixText::operator+=(FixText other) {
  for (FixPart& part : other.parts_) parts_.push_back(std::move(part));
  return *this;
}

bool FixText::HasChanges() const {
  return std::any_of(parts_.begin(), parts_.end(), [](const FixPart& p) { return !p.change.key.empty(); });
}

std::string FixText::Render(const std::function<std::string(const SettingChange&)>& render) const {
  std::string out;
  for (const FixPart& part : parts_) out += part.change.key.empty() ? part.text : render(part.change);
  return out;
}

}  // namespace rocewatch::lint
