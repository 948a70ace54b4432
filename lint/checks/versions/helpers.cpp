// What the versions.* checks share (group.h).

#include <algorithm>

#include "lint/checks/versions/group.h"

namespace rocewatch::lint::checks::versions {

std::string OneOf(const std::vector<std::string>& accepted) {
  std::string out;
  for (const auto& a : accepted) out += (out.empty() ? "" : " or ") + a;
  return out;
}

bool Accepts(const std::vector<std::string>& accepted, const std::string& found) {
  return std::find(accepted.begin(), accepted.end(), found) != accepted.end();
}

}  // namespace rocewatch::lint::checks::versions
