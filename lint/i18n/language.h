#pragma once

// The languages roce-lint writes its reports in (`--lang`): English, the catalogue's reference,
// and Chinese. Each has one message table (en.h, zh.h); catalogue.h renders a message.

#include <optional>
#include <string_view>

namespace rocewatch::lint::i18n {

enum class Language { kEnglish, kChinese };

// "en", "zh"; nullopt for anything else.
std::optional<Language> ParseLanguage(std::string_view code);
// The accepted codes, for --help and errors: "en, zh".
std::string_view LanguageCodes();

}  // namespace rocewatch::lint::i18n
