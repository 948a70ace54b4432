#pragma once

// roce-lint's message catalogue: every human sentence a report writes is one entry of a
// language's table (en.h, zh.h), found by a stable ID and rendered by Render() with named
// arguments. A third language is a third table (and one line in catalogue.cpp's list).
//
//   Render(lang, "report.fix", {{"fix", command}})   →  "fix: …" or "修复：…"
//
// An ID written in the code must be in the English table or the code does not compile
// (MessageId is consteval); every table has the English table's IDs and placeholders or
// catalogue.cpp does not compile. Argument values are inserted as they are, never re-read
// for placeholders (a metric's "{direction=\"rx\"}" stays as written).

#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lint/i18n/en.h"
#include "lint/i18n/language.h"
#include "lint/i18n/message.h"

namespace rocewatch::lint::i18n {

constexpr bool IsMessageId(std::string_view id) {
  for (const Message& m : kEnglishMessages)
    if (m.id == id) return true;
  return false;
}

// A message ID in the code. Implicit from a string literal, checked when it compiles.
class MessageId {
 public:
  consteval MessageId(const char* id) : id_(id) {  // NOLINT(google-explicit-constructor)
    if (!IsMessageId(id_)) throw "no such message ID in lint/i18n/en.h";
  }
  constexpr std::string_view view() const { return id_; }

 private:
  std::string_view id_;
};

struct Arg {
  std::string_view name;
  std::string value;
};
// Arguments kept with a message rendered later (a finding's): name → value. A value that has
// words of its own gives each language's form as "name:code" ("node:zh"), used before "name"
// when rendering in that language.
using StoredArgs = std::vector<std::pair<std::string, std::string>>;

// A message rendered later, in the report's language: a catalogue ID and its arguments, kept
// with a finding or a verdict next to its English text. An empty ID: no catalogue form.
struct StoredMessage {
  std::string id;
  StoredArgs args;

  bool operator==(const StoredMessage&) const = default;
};
// `id` with `args`, as kept; MessageId checks the ID when it compiles.
StoredMessage Store(MessageId id, StoredArgs args);
// `message` in `lang`; `fallback` (the English as it was written) when it has no ID.
std::string RenderOr(Language lang, const StoredMessage& message, const std::string& fallback);

// A text of a finding: its English as written and, when roce-lint wrote it from the catalogue,
// that message. A value (an address, a command, a name) converts implicitly and has no message:
// it is the same in every language.
struct Phrase {
  std::string english;
  StoredMessage message;

  Phrase(std::string value) : english(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  Phrase(const char* value) : english(value) {}             // NOLINT(google-explicit-constructor)
  static Phrase Of(MessageId id, StoredArgs args);

  bool operator==(const Phrase&) const = default;
};

// Adds argument `name` whose value is itself a message: "name" in English and "name:code" in
// every other language ("node" = node "gpu-01", "node:zh" = 节点 "gpu-01").
void AddMessageArg(StoredArgs& args, std::string name, MessageId id, const StoredArgs& inner);
// The same for a message kept earlier (an address parser's reason); an empty ID adds `fallback`.
void AddMessageArg(StoredArgs& args, std::string name, const StoredMessage& inner,
                   const std::string& fallback);
// Adds argument `name` whose value is `phrase`: a value as it is, a message in every language.
void AddPhraseArg(StoredArgs& args, std::string name, const Phrase& phrase);
// Adds argument `name` whose value is `items` joined by `joiner`, a message with {a} and {b}
// ("{a} or {b}"), in every language: "x or y or z", "x 或 y 或 z". No items: an empty value.
void AddListArg(StoredArgs& args, std::string name, const std::vector<Phrase>& items, MessageId joiner);

// The code of a language: "en", "zh".
std::string_view LanguageCode(Language lang);

// The table of a language.
std::span<const Message> Messages(Language lang);

std::string Render(Language lang, MessageId id, std::initializer_list<Arg> args = {});
// A message whose ID was chosen at run time; nullopt when no table has `id`.
std::optional<std::string> RenderStored(Language lang, std::string_view id, const StoredArgs& args);

// The placeholder names of a text, in order: "{a} of {b}" → {"a", "b"}.
std::vector<std::string_view> Placeholders(std::string_view text);

// Where a translation departs from the English table (an ID missing, out of order, or a
// placeholder not the same), as "zh: entry 12 ("report.fix"): …"; empty when it does not.
std::string TableMismatch(std::span<const Message> english, std::span<const Message> other,
                          std::string_view code);

}  // namespace rocewatch::lint::i18n
