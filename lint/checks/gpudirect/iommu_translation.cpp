// gpudirect.iommu-translation: the profile wants the IOMMU in passthrough for the NIC, and its
// group translates DMA (type DMA or DMA-FQ): every GPUDirect transfer then pays an IOMMU
// lookup and, without ATS, the root complex cannot route it peer to peer.

#include "lint/checks/gpudirect/group.h"
#include "lint/checks/specs.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::gpudirect {

void IommuTranslation(const NicContext& c, FindingSink& sink) {
  if (c.profile == nullptr || !c.profile->gpudirect || !c.profile->gpudirect->iommu_passthrough) return;
  for (const auto& s : c.view.Select(metric::roce_pcie_iommu_group_info, {{label::device, c.nic.ib_dev}})) {
    const std::string type(s.Label(label::type));
    if (type == "identity" || type == "none") continue;
    const i18n::StoredArgs args = {{"device", c.nic.ib_dev}, {"type", type}};
    sink.Nic(kGpuDirectIommuTranslation, c, i18n::Phrase::Of("check.gpudirect.iommu_translation.expected", {}),
             i18n::Phrase::Of("check.gpudirect.iommu_translation.found", args),
             i18n::Phrase::Of("check.gpudirect.iommu_translation.message", args),
             i18n::Phrase::Of("check.gpudirect.iommu_translation.fix", args));
  }
}

}  // namespace rocewatch::lint::checks::gpudirect
