#include "sources/registry.h"

#include "collectors/all.h"

namespace rocewatch {
namespace sources {
namespace {

template <class... Collectors>
std::vector<SourceInfo> InfosOf(CollectorList<Collectors...>) {
  return {Collectors::Info()...};
}

}  // namespace

const std::vector<SourceInfo>& AllSources() {
  static const std::vector<SourceInfo> kSources = InfosOf(collectors::All{});
  return kSources;
}

const SourceInfo* FindSource(std::string_view name) {
  for (const auto& s : AllSources())
    if (s.name == name) return &s;
  return nullptr;
}

}  // namespace sources
}  // namespace rocewatch
