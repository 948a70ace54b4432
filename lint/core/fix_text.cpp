#include "lint/core/fix_text.h"

#include <algorithm>
#include <optional>
#include <utility>

namespace rocewatch::lint {

FixText::FixText(std::string text) {
  if (!text.empty()) parts_.push_back({std::move(text), {}});
}
FixText::FixText(const char* text) : FixText(std::string(text)) {}
FixText::FixText(i18n::Phrase text) {
  if (!text.english.empty() || !text.message.id.empty()) parts_.push_back({std::move(text), {}});
}
FixText::FixText(SettingChange change) { parts_.push_back({i18n::Phrase(""), std::move(change)}); }

FixText FixText::In(i18n::Phrase wrapper, SettingChange change) {
  FixText out;
  out.parts_.push_back({std::move(wrapper), std::move(change)});
  return out;
}

namespace {

// A change's part: its command, inside its wrapper's message when it has one.
i18n::Phrase ChangePhrase(const FixPart& part, const std::string& command) {
  if (part.text.message.id.empty()) return i18n::Phrase(command);
  i18n::Phrase out("");
  out.message = part.text.message;
  out.message.args.emplace_back("command", command);
  out.english = i18n::RenderOr(i18n::Language::kEnglish, out.message, command);
  return out;
}

}  // namespace

FixText& FixText::operator+=(FixText other) {
  for (FixPart& part : other.parts_) parts_.push_back(std::move(part));
  return *this;
}

bool FixText::HasChanges() const {
  return std::any_of(parts_.begin(), parts_.end(), [](const FixPart& p) { return !p.change.key.empty(); });
}

std::string FixText::Render(const std::function<std::string(const SettingChange&)>& render) const {
  std::string out;
  for (const FixPart& part : parts_)
    out += part.change.key.empty() ? part.text.english : ChangePhrase(part, render(part.change)).english;
  return out;
}

i18n::Phrase FixText::ToPhrase(const std::function<std::string(const SettingChange&)>& render) const {
  std::optional<i18n::Phrase> out;
  for (const FixPart& part : parts_) {
    i18n::Phrase next = part.change.key.empty() ? part.text : ChangePhrase(part, render(part.change));
    if (!out) {
      out = std::move(next);
      continue;
    }
    i18n::StoredArgs args;
    i18n::AddPhraseArg(args, "a", *out);
    i18n::AddPhraseArg(args, "b", next);
    out = i18n::Phrase::Of("fix.concat", std::move(args));
  }
  return out ? *out : i18n::Phrase("");
}

}  // namespace rocewatch::lint
