#include "lint/i18n/catalogue.h"

#include <algorithm>
#include <array>

#include "lint/i18n/zh.h"

namespace rocewatch::lint::i18n {
namespace {

struct Table {
  Language lang;
  std::string_view code;
  std::span<const Message> messages;
};
// One line per language: a third is a table (like zh.h) and one line here.
constexpr std::array kTables = {
    Table{Language::kEnglish, "en", kEnglishMessages},
    Table{Language::kChinese, "zh", kChineseMessages},
};

// Every "{name}" of `a` is in `b`.
constexpr bool PlaceholdersIn(std::string_view a, std::string_view b) {
  for (std::size_t i = a.find('{'); i != std::string_view::npos; i = a.find('{', i + 1)) {
    std::size_t end = a.find('}', i);
    if (end == std::string_view::npos) return false;
    if (b.find(a.substr(i, end - i + 1)) == std::string_view::npos) return false;
  }
  return true;
}

constexpr bool SameShape(std::span<const Message> english, std::span<const Message> other) {
  if (english.size() != other.size()) return false;
  for (std::size_t i = 0; i < english.size(); ++i) {
    if (english[i].id != other[i].id) return false;
    if (!PlaceholdersIn(english[i].text, other[i].text) ||
        !PlaceholdersIn(other[i].text, english[i].text))
      return false;
  }
  return true;
}

// No ID twice: the IDs sorted, then neighbours compared. Comparing every pair ran past the steps
// clang allows a constant evaluation once the tables had some 300 messages.
template <std::size_t N>
constexpr bool UniqueIds(const Message (&messages)[N]) {
  std::array<std::string_view, N> ids{};
  for (std::size_t i = 0; i < N; ++i) ids[i] = messages[i].id;
  std::sort(ids.begin(), ids.end());
  for (std::size_t i = 1; i < N; ++i)
    if (ids[i - 1] == ids[i]) return false;
  return true;
}

// A message missing from a translation, or one whose placeholders differ, fails the build here
// (lint_i18n_test names the entry).
static_assert(UniqueIds(kEnglishMessages), "duplicate ID in lint/i18n/en.h");
static_assert(SameShape(kEnglishMessages, kChineseMessages),
              "lint/i18n/zh.h must have en.h's IDs, in its order, with its placeholders");

std::size_t IndexOf(std::string_view id) {
  for (std::size_t i = 0; i < std::size(kEnglishMessages); ++i)
    if (kEnglishMessages[i].id == id) return i;
  return std::size(kEnglishMessages);
}

template <typename Lookup>
std::string Substitute(std::string_view text, Lookup lookup) {
  std::string out;
  out.reserve(text.size() + 32);
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t open = text.find('{', i);
    std::size_t close = open == std::string_view::npos ? open : text.find('}', open);
    if (close == std::string_view::npos) break;
    out.append(text.substr(i, open - i));
    std::string_view name = text.substr(open + 1, close - open - 1);
    if (const std::string* value = lookup(name))
      out += *value;
    else
      out.append(text.substr(open, close - open + 1));
    i = close + 1;
  }
  if (i < text.size()) out.append(text.substr(i));
  return out;
}

}  // namespace

std::optional<Language> ParseLanguage(std::string_view code) {
  for (const Table& t : kTables)
    if (t.code == code) return t.lang;
  return std::nullopt;
}

std::string_view LanguageCodes() { return "en, zh"; }

std::span<const Message> Messages(Language lang) {
  for (const Table& t : kTables)
    if (t.lang == lang) return t.messages;
  return kEnglishMessages;
}

std::string Render(Language lang, MessageId id, std::initializer_list<Arg> args) {
  std::size_t index = IndexOf(id.view());  // a MessageId is always in the table
  return Substitute(Messages(lang)[index].text, [&](std::string_view name) -> const std::string* {
    for (const Arg& a : args)
      if (a.name == name) return &a.value;
    return nullptr;
  });
}

std::optional<std::string> RenderStored(Language lang, std::string_view id, const StoredArgs& args) {
  std::size_t index = IndexOf(id);
  if (index == std::size(kEnglishMessages)) return std::nullopt;
  const std::string_view code = LanguageCode(lang);
  return Substitute(Messages(lang)[index].text, [&](std::string_view name) -> const std::string* {
    const std::string* plain = nullptr;
    for (const auto& [key, value] : args) {
      if (key == name) plain = &value;
      if (key.size() == name.size() + 1 + code.size() && key.compare(0, name.size(), name) == 0 &&
          key[name.size()] == ':' && key.compare(name.size() + 1, code.size(), code) == 0)
        return &value;
    }
    return plain;
  });
}

Phrase Phrase::Of(MessageId id, StoredArgs args) {
  Phrase p("");
  p.message = Store(id, std::move(args));
  p.english = RenderOr(Language::kEnglish, p.message, "");
  return p;
}

void AddMessageArg(StoredArgs& args, std::string name, MessageId id, const StoredArgs& inner) {
  for (const Table& t : kTables) {
    std::string value = *RenderStored(t.lang, id.view(), inner);
    args.emplace_back(t.lang == Language::kEnglish ? name : name + ":" + std::string(t.code), std::move(value));
  }
}

void AddMessageArg(StoredArgs& args, std::string name, const StoredMessage& inner,
                   const std::string& fallback) {
  for (const Table& t : kTables) {
    std::string value = RenderOr(t.lang, inner, fallback);
    args.emplace_back(t.lang == Language::kEnglish ? name : name + ":" + std::string(t.code), std::move(value));
  }
}

void AddPhraseArg(StoredArgs& args, std::string name, const Phrase& phrase) {
  if (phrase.message.id.empty()) {
    args.emplace_back(std::move(name), phrase.english);
    return;
  }
  AddMessageArg(args, std::move(name), phrase.message, phrase.english);
}

void AddListArg(StoredArgs& args, std::string name, const std::vector<Phrase>& items, MessageId joiner) {
  for (const Table& t : kTables) {
    std::string joined;
    for (std::size_t i = 0; i < items.size(); ++i) {
      std::string item = RenderOr(t.lang, items[i].message, items[i].english);
      joined = i == 0 ? std::move(item)
                      : *RenderStored(t.lang, joiner.view(), {{"a", std::move(joined)}, {"b", std::move(item)}});
    }
    args.emplace_back(t.lang == Language::kEnglish ? name : name + ":" + std::string(t.code), std::move(joined));
  }
}

std::string_view LanguageCode(Language lang) {
  for (const Table& t : kTables)
    if (t.lang == lang) return t.code;
  return "en";
}

StoredMessage Store(MessageId id, StoredArgs args) {
  return StoredMessage{std::string(id.view()), std::move(args)};
}

std::string RenderOr(Language lang, const StoredMessage& message, const std::string& fallback) {
  if (message.id.empty()) return fallback;
  return RenderStored(lang, message.id, message.args).value_or(fallback);
}

std::vector<std::string_view> Placeholders(std::string_view text) {
  std::vector<std::string_view> out;
  for (std::size_t i = text.find('{'); i != std::string_view::npos; i = text.find('{', i + 1)) {
    std::size_t end = text.find('}', i);
    if (end == std::string_view::npos) break;
    out.push_back(text.substr(i + 1, end - i - 1));
  }
  return out;
}

std::string TableMismatch(std::span<const Message> english, std::span<const Message> other,
                          std::string_view code) {
  for (std::size_t i = 0; i < english.size(); ++i) {
    std::string where = std::string(code) + ": entry " + std::to_string(i) + " (\"" +
                        std::string(english[i].id) + "\"): ";
    if (i >= other.size()) return where + "missing";
    if (other[i].id != english[i].id) return where + "has \"" + std::string(other[i].id) + "\"";
    if (!PlaceholdersIn(english[i].text, other[i].text) ||
        !PlaceholdersIn(other[i].text, english[i].text))
      return where + "placeholders differ";
  }
  if (other.size() > english.size()) return std::string(code) + ": more entries than en";
  return "";
}

}  // namespace rocewatch::lint::i18n
