#include "lint/fix/shell.h"

namespace rocewatch::lint::fix {
namespace {

bool IsWordChar(char c, std::string_view extra) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         extra.find(c) != std::string_view::npos;
}

}  // namespace

std::string ShQuote(std::string_view text) {
  bool plain = !text.empty();
  for (char c : text) plain = plain && IsWordChar(c, "_./:=@%+,-");
  if (plain) return std::string(text);
  std::string out = "'";
  for (char c : text) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

bool IsSafeName(std::string_view name) {
  if (name.empty() || name.size() > 64 || name == "." || name == "..") return false;
  for (char c : name)
    if (!IsWordChar(c, "_.:-")) return false;
  return name.front() != '-';
}

}  // namespace rocewatch::lint::fix
