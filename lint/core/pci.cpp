#include "lint/core/pci.h"

#include <regex>

namespace rocewatch::lint {

bool IsPciAddress(std::string_view text) {
  static const std::regex kAddress("[0-9a-f]{4,8}:[0-9a-f]{2}:[0-1][0-9a-f]\\.[0-7]");
  return std::regex_match(text.begin(), text.end(), kAddress);
}

}  // namespace rocewatch::lint
