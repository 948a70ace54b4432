#pragma once

// Finds English prose in text that should be Chinese: runs of two or more English words in a
// row. What stays as written in every language is not a word here: `code spans`, "quoted values",
// identifiers and names (anything with a digit, '.', '_', '/', '-', '=', ':', '|', braces or
// brackets: ens1f0np0, mlx5_0, qos.pfc-priorities, roce_pfc_enabled{…}, Gb/s, --lang),
// acronyms and brand names (PFC, ECN, DCQCN, RoCE, SONiC: an upper-case letter after the first),
// and the `allowed` words (single units and names a test passes, such as "exporter").

#include <cctype>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace rocewatch::testing {

inline bool IsEnglishWord(std::string_view token, const std::set<std::string>& allowed) {
  if (token.size() < 2 || allowed.count(std::string(token))) return false;
  for (std::size_t i = 0; i < token.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(token[i]);
    if (!std::isalpha(c)) return false;               // digits, punctuation: an identifier
    if (i > 0 && std::isupper(c)) return false;       // PFC, RoCE, SONiC: a name
  }
  return true;
}

// The runs of two or more English words, each as it appears ("has PFC on none" gives "on none").
inline std::vector<std::string> EnglishRuns(std::string_view text,
                                            const std::set<std::string>& allowed = {}) {
  // Blank out `code spans` and "quoted values".
  std::string s(text);
  for (char quote : {'`', '"'}) {
    for (std::size_t open = s.find(quote); open != std::string::npos; open = s.find(quote, open + 1)) {
      std::size_t close = s.find(quote, open + 1);
      if (close == std::string::npos) break;
      for (std::size_t i = open; i <= close; ++i) s[i] = ' ';
      open = close;
    }
  }
  // Tokens are split at spaces; a token's trailing sentence punctuation (",", ";", ".", ")",
  // "?") and leading "(" are not part of it. Anything non-ASCII (Chinese) ends a run.
  std::vector<std::string> runs;
  std::vector<std::string> run;
  auto flush = [&] {
    if (run.size() >= 2) {
      std::string joined;
      for (const auto& w : run) joined += (joined.empty() ? "" : " ") + w;
      runs.push_back(joined);
    }
    run.clear();
  };
  std::size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == ' ' || c == '\n' || c == '\t') {
      if (c == '\n') flush();
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < s.size() && s[end] != ' ' && s[end] != '\n' && s[end] != '\t' &&
           static_cast<unsigned char>(s[end]) < 0x80)
      ++end;
    if (end == i) {  // a non-ASCII character: Chinese text or punctuation ends the run
      flush();
      ++i;
      while (i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) ++i;
      continue;
    }
    std::string_view token(s.data() + i, end - i);
    bool ends_clause = false;
    while (!token.empty() && std::string_view(",;:.)?!").find(token.back()) != std::string_view::npos) {
      token.remove_suffix(1);
      ends_clause = true;
    }
    while (!token.empty() && token.front() == '(') token.remove_prefix(1);
    bool glued = end < s.size() && static_cast<unsigned char>(s[end]) >= 0x80;  // "word中文"
    if (IsEnglishWord(token, allowed)) {
      run.emplace_back(token);
      if (ends_clause || glued) flush();
    } else {
      flush();
    }
    i = end;
  }
  flush();
  return runs;
}

}  // namespace rocewatch::testing
