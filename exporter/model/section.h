#pragma once

// Snapshot sections. Each collector owns one section of the NodeSnapshot: a
// struct holding its part (a vector of per-object structs, or one optional)
// with an Append that moves another pass's part into it. NodeSnapshot derives
// from every registered collector's section (collectors/all.h), so adding a
// collector changes neither the snapshot, nor the merge, nor the renderers.

#include <iterator>
#include <optional>
#include <utility>
#include <vector>

namespace rocewatch {

// Moves `part` to the end of `whole` (parts arrive one source at a time).
template <class T>
void AppendSection(std::vector<T>& whole, std::vector<T>& part) {
  if (whole.empty()) {
    whole = std::move(part);
  } else {
    whole.insert(whole.end(), std::make_move_iterator(part.begin()),
                 std::make_move_iterator(part.end()));
  }
  part.clear();
}

// A section that is one value: the part that has it replaces the whole's.
template <class T>
void AppendSection(std::optional<T>& whole, std::optional<T>& part) {
  if (part) whole = std::move(part);
}

// A list of collector descriptors (collectors/all.h): types with a `Section`
// and a static `Info()` (exporter/collectors/registry.h).
template <class... Collectors>
struct CollectorList {};

template <class List>
struct SectionsOf;

// Every listed collector's section as one struct, with one Append for all.
template <class... Collectors>
struct SectionsOf<CollectorList<Collectors...>> : Collectors::Section... {
  void AppendSections(SectionsOf&& part) {
    (static_cast<typename Collectors::Section&>(*this).Append(
         static_cast<typename Collectors::Section&&>(part)),
     ...);
  }
};

}  // namespace rocewatch
