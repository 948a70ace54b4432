// What the gpudirect checks share: the GPUs a NIC serves, relation ranks.

#include <algorithm>

#include "lint/checks/gpudirect/group.h"
#include "lint/metric_contract.h"
#include "lint/plan/gpudirect_settings.h"

namespace rocewatch::lint::checks::gpudirect {

int RelationRank(std::string_view relation) {
  const auto& all = plan::GpuRelations();
  auto it = std::find(all.begin(), all.end(), relation);
  return it == all.end() ? 0 : static_cast<int>(it - all.begin()) + 1;
}

std::vector<GpuRelation> ServedGpus(const NicContext& c) {
  std::vector<GpuRelation> all;
  for (const auto& s : c.view.Select(metric::roce_gpu_nic_relation, {{label::device, c.nic.ib_dev}})) {
    GpuRelation r{std::string(s.Label(label::gpu)), std::string(s.Label(label::relation)), 0};
    r.rank = RelationRank(r.relation);
    if (r.rank != 0) all.push_back(std::move(r));
  }
  if (c.nic.gpu && *c.nic.gpu != "nearest") {
    std::vector<GpuRelation> planned;
    for (auto& r : all)
      if (r.gpu == *c.nic.gpu) planned.push_back(r);
    return planned;
  }
  if (all.empty()) return all;
  const int best = std::min_element(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.rank < b.rank; })->rank;
  std::vector<GpuRelation> nearest;
  for (auto& r : all)
    if (r.rank == best) nearest.push_back(std::move(r));
  return nearest;
}

}  // namespace rocewatch::lint::checks::gpudirect
