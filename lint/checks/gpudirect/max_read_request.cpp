// gpudirect.max-read-request: the NIC's PCIe Max_Read_Request_Size is below the profile's
// minimum: each DMA read of GPU memory is split into more, smaller requests.

#include <cstdio>

#include "lint/checks/gpudirect/group.h"
#include "lint/checks/observed.h"
#include "lint/checks/specs.h"
#include "lint/core/pci.h"
#include "lint/metric_contract.h"
#include "rocewatch/escape.h"

namespace rocewatch::lint::checks::gpudirect {

void MaxReadRequest(const NicContext& c, FindingSink& sink) {
  if (c.profile == nullptr || !c.profile->gpudirect || !c.profile->gpudirect->min_max_read_request_bytes) return;
  const std::int64_t want = *c.profile->gpudirect->min_max_read_request_bytes;
  const auto found = c.view.Value(metric::roce_pcie_max_read_request_bytes, {{label::device, c.nic.ib_dev}});
  if (!found || *found >= static_cast<double>(want)) return;
  // The Device Control field: log2(bytes / 128) in bits 12-14 (a power of two from 128 to 4096).
  int code = 0;
  while (code < 5 && (128LL << code) < want) ++code;
  const auto address = c.view.Select(metric::roce_pcie_info, {{label::device, c.nic.ib_dev}});
  std::string bdf = address.empty() ? std::string() : std::string(address.front().Label(label::pci_address));
  if (!IsPciAddress(bdf)) bdf = "<" + c.nic.ib_dev + " PCI address>";
  char field[16];
  std::snprintf(field, sizeof field, "%x000:7000", code);
  const i18n::StoredArgs args = {{"device", c.nic.ib_dev},
                                 {"found", FormatNumber(*found)},
                                 {"expected", std::to_string(want)},
                                 {"command", "setpci -s " + escape::ShWord(bdf) + " CAP_EXP+8.w=" + field}};
  sink.Nic(kGpuDirectMaxReadRequest, c, i18n::Phrase::Of("check.gpudirect.max_read_request.expected", args),
           i18n::Phrase::Of("check.gpudirect.max_read_request.found", args),
           i18n::Phrase::Of("check.gpudirect.max_read_request.message", args),
           i18n::Phrase::Of("check.gpudirect.max_read_request.fix", args));
}

}  // namespace rocewatch::lint::checks::gpudirect
