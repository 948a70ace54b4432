#include "lint/plan/finding_sink.h"

#include <algorithm>

namespace rocewatch::lint::plan {

std::vector<Finding> FindingSink::Finish() {
  std::stable_sort(entries_.begin(), entries_.end(), [](const auto& a, const auto& b) {
    return std::pair(a.first.line, a.first.column) < std::pair(b.first.line, b.first.column);
  });
  std::vector<Finding> out;
  out.reserve(entries_.size());
  for (auto& e : entries_) out.push_back(std::move(e.second));
  entries_.clear();
  return out;
}

}  // namespace rocewatch::lint::plan
