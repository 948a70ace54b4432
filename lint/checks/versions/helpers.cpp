// What the versions.* checks share (group.h).

#include <algorithm>

#include "lint/checks/versions/group.h"

namespace rocewatch::lint::checks::versions {

void AddOneOfArg(i18n::StoredArgs& args, const std::vector<std::string>& accepted) {
  i18n::AddListArg(args, "accepted", std::vector<i18n::Phrase>(accepted.begin(), accepted.end()), "check.versions.or");
}

bool Accepts(const std::vector<std::string>& accepted, const std::string& found) {
  return std::find(accepted.begin(), accepted.end(), found) != accepted.end();
}

}  // namespace rocewatch::lint::checks::versions
