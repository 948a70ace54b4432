// gpudirect.gpu-distance: the NIC is farther from the GPU it serves than the profile allows
// (NCCL stages the traffic through host memory beyond NCCL_NET_GDR_LEVEL), or the planned GPU
// is not on the node.

#include "lint/checks/gpudirect/group.h"
#include "lint/checks/specs.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::gpudirect {

void GpuDistance(const NicContext& c, FindingSink& sink) {
  if (c.profile == nullptr || !c.profile->gpudirect || !c.profile->gpudirect->max_relation) return;
  const std::string& allowed = *c.profile->gpudirect->max_relation;
  if (c.view.Select(metric::roce_gpu_nic_relation, {{label::device, c.nic.ib_dev}}).empty()) return;
  const auto served = ServedGpus(c);
  const std::string gpu = c.nic.gpu.value_or("nearest");
  if (served.empty()) {  // a planned address the node has no GPU at
    const i18n::StoredArgs args = {{"device", c.nic.ib_dev}, {"gpu", gpu}};
    sink.Nic(kGpuDirectGpuDistance, c, i18n::Phrase::Of("check.gpudirect.gpu_distance.expected", {{"relation", allowed}}),
             i18n::Phrase::Of("check.gpudirect.gpu_distance.no_gpu", args),
             i18n::Phrase::Of("check.gpudirect.gpu_distance.no_gpu_message", args),
             i18n::Phrase::Of("check.gpudirect.gpu_distance.no_gpu_fix", args));
    return;
  }
  const GpuRelation& r = served.front();
  if (r.rank <= RelationRank(allowed)) return;
  const i18n::StoredArgs args = {{"device", c.nic.ib_dev}, {"gpu", r.gpu},      {"relation", r.relation},
                                 {"allowed", allowed},      {"planned", gpu}};
  sink.Nic(kGpuDirectGpuDistance, c, i18n::Phrase::Of("check.gpudirect.gpu_distance.expected", {{"relation", allowed}}),
           i18n::Phrase::Of("check.gpudirect.gpu_distance.found", args),
           i18n::Phrase::Of("check.gpudirect.gpu_distance.message", args),
           i18n::Phrase::Of("check.gpudirect.gpu_distance.fix", args));
}

}  // namespace rocewatch::lint::checks::gpudirect
