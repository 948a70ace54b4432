// gpudirect.acs-redirect: a bridge between the NIC and the GPU it serves has ACS P2P request or
// completion redirect on, so every peer-to-peer transfer goes up to the root complex and back.
// The fix clears exactly the two redirect bits on those bridges (setpci with a mask), says how
// to keep it over a reboot (pci=disable_acs_redir=) and how to set back exactly the bits that
// were on. The finding's setting (acs_redirect: the redirecting bridges) is what `roce-lint fix
// --only-findings` clears, saving each bridge's bits for its rollback.

#include <map>
#include <utility>

#include "lint/checks/gpudirect/group.h"
#include "lint/checks/observed.h"
#include "lint/checks/specs.h"
#include "lint/core/pci.h"
#include "lint/core/setting_table.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::gpudirect {

void AcsRedirect(const NicContext& c, FindingSink& sink) {
  if (c.profile == nullptr || !c.profile->gpudirect) return;
  for (const GpuRelation& r : ServedGpus(c)) {
    const auto count = c.view.Value(metric::roce_gpu_nic_acs_redirect_bridges, {{label::device, c.nic.ib_dev}, {label::gpu, r.gpu}});
    if (!count || *count <= 0) continue;
    std::map<std::string, unsigned> redirecting;  // bridge → its redirect bits; sorted: stable commands
    for (const auto& b : c.view.Select(metric::roce_gpu_nic_path_bridge, {{label::device, c.nic.ib_dev}, {label::gpu, r.gpu}})) {
      const std::string bridge(b.Label(label::bridge));
      if (!IsPciAddress(bridge)) continue;  // never into a command
      for (auto [bit, mask] : {std::pair{"req_redir", kAcsReqRedir}, std::pair{"cmplt_redir", kAcsCmpltRedir}})
        if (c.view.Value(metric::roce_pcie_bridge_acs_control, {{label::bridge, bridge}, {label::bit, bit}}).value_or(0) > 0)
          redirecting[bridge] |= mask;
    }
    std::string off, on, boot, list;
    for (const auto& [bridge, bits] : redirecting) {
      off += (off.empty() ? "" : "; ") + AcsRedirectCommand(bridge, 0);
      on += (on.empty() ? "" : "; ") + AcsRedirectCommand(bridge, bits);
      boot += (boot.empty() ? "" : ";") + bridge;
      list += (list.empty() ? "" : ",") + bridge;
    }
    const i18n::StoredArgs args = {{"device", c.nic.ib_dev},
                                   {"gpu", r.gpu},
                                   {"relation", r.relation},
                                   {"count", FormatNumber(*count)},
                                   {"bridges", boot.empty() ? std::string("?") : boot},
                                   {"off", off.empty() ? std::string("lspci -vvv | grep ACSCtl") : off},
                                   {"on", on.empty() ? std::string("-") : on},
                                   {"boot", "pci=disable_acs_redir=" + (boot.empty() ? std::string("<bridge>") : boot)}};
    sink.Nic(kGpuDirectAcsRedirect, c, i18n::Phrase::Of("check.gpudirect.acs_redirect.expected", {}),
             i18n::Phrase::Of("check.gpudirect.acs_redirect.found", args),
             i18n::Phrase::Of("check.gpudirect.acs_redirect.message", args),
             i18n::Phrase::Of("check.gpudirect.acs_redirect.fix", args),
             // None found redirecting (the count without the bits): nothing a script can clear.
             list.empty() ? SettingDelta{} : SettingDelta{std::string(setting::kAcsRedirect.key), std::string(), list});
  }
}

}  // namespace rocewatch::lint::checks::gpudirect
