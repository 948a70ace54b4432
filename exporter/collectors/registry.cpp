#include "exporter/collectors/registry.h"

#include "exporter/collectors/all.h"

namespace rocewatch {
namespace collectors {
namespace {

template <class... Collectors>
std::vector<CollectorInfo> InfosOf(CollectorList<Collectors...>) {
  return {Collectors::Info()...};
}

}  // namespace

const std::vector<CollectorInfo>& AllCollectors() {
  static const std::vector<CollectorInfo> kAll = InfosOf(All{});
  return kAll;
}

const CollectorInfo* FindCollector(std::string_view name) {
  for (const auto& s : AllCollectors())
    if (s.name == name) return &s;
  return nullptr;
}

}  // namespace collectors
}  // namespace rocewatch
