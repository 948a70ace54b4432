#include "lint/fix/shell.h"

namespace rocewatch::lint::fix {

bool IsSafeName(std::string_view name) {
  if (name.empty() || name.size() > 64 || name == "." || name == "..") return false;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '.' || c == ':' || c == '-';
    if (!ok) return false;
  }
  return name.front() != '-';
}

}  // namespace rocewatch::lint::fix
