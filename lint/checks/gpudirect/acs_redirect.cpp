// gpudirect.acs-redirect: a bridge between the NIC and the GPU it serves has ACS P2P request or
// completion redirect on, so every peer-to-peer transfer goes up to the root complex and back.
// The fix clears exactly the two redirect bits on those bridges (setpci with a mask), says how
// to keep it over a reboot (pci=disable_acs_redir=) and how to set them back.

#include <set>

#include "lint/checks/gpudirect/group.h"
#include "lint/checks/observed.h"
#include "lint/checks/specs.h"
#include "lint/metric_contract.h"
#include "rocewatch/escape.h"

namespace rocewatch::lint::checks::gpudirect {

void AcsRedirect(const NicContext& c, FindingSink& sink) {
  if (c.profile == nullptr || !c.profile->gpudirect) return;
  for (const GpuRelation& r : ServedGpus(c)) {
    const auto count = c.view.Value(metric::roce_gpu_nic_acs_redirect_bridges, {{label::device, c.nic.ib_dev}, {label::gpu, r.gpu}});
    if (!count || *count <= 0) continue;
    std::set<std::string> redirecting;  // sorted: the commands are stable
    for (const auto& b : c.view.Select(metric::roce_gpu_nic_path_bridge, {{label::device, c.nic.ib_dev}, {label::gpu, r.gpu}})) {
      const std::string bridge(b.Label(label::bridge));
      if (!IsPciAddress(bridge)) continue;  // never into a command
      for (std::string_view bit : {"req_redir", "cmplt_redir"})
        if (c.view.Value(metric::roce_pcie_bridge_acs_control, {{label::bridge, bridge}, {label::bit, bit}}).value_or(0) > 0)
          redirecting.insert(bridge);
    }
    std::string off, on, boot;
    for (const auto& bridge : redirecting) {
      const std::string word = escape::ShWord(bridge);
      off += (off.empty() ? "" : "; ") + std::string("setpci -s ") + word + " ECAP_ACS+6.w=0000:000c";
      on += (on.empty() ? "" : "; ") + std::string("setpci -s ") + word + " ECAP_ACS+6.w=000c:000c";
      boot += (boot.empty() ? "" : ";") + bridge;
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
             i18n::Phrase::Of("check.gpudirect.acs_redirect.fix", args));
  }
}

}  // namespace rocewatch::lint::checks::gpudirect
