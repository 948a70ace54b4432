// inventory.roce-ip-missing: a planned RDMA device has no RoCE v2 GID for its planned RoCE IP.

#include "lint/checks/inventory/group.h"
#include "lint/checks/specs.h"
#include "lint/metric_contract.h"
#include "lint/plan/address.h"

namespace rocewatch::lint::checks::inventory {
namespace {

// The address of "address/prefix" as the exporter writes it (inet_ntop form), so
// "FD00:1:0::11/64" in the plan matches "fd00:1::11" in roce_gid_info.
std::string IpOf(const std::string& cidr) {
  std::string ip = cidr.substr(0, cidr.find('/'));
  auto parsed = plan::ParseIpAddress(ip);
  return parsed ? parsed->ToString() : ip;
}

}  // namespace

void RoceIpMissing(const NodeContext& c, FindingSink& sink) {
  const auto& view = c.view;
  const plan::Node& node = c.node;
  if (!view.reachable()) return;
  for (const auto& nic : node.nics) {
    if (!HasDevice(view, nic) || nic.roce_ip.empty()) continue;
    std::string ip = IpOf(nic.roce_ip);
    bool found = false;
    std::string v2_ips;
    for (const auto& g : view.Select(metric::roce_gid_info, {{label::device, nic.ib_dev}})) {
      if (g.Label(label::type) != "RoCE v2") continue;
      std::string gip(g.Label(label::ip));
      if (gip.rfind("fe80:", 0) == 0) continue;
      v2_ips += (v2_ips.empty() ? "" : " ") + gip;
      if (gip == ip) found = true;
    }
    if (!found && !view.Select(metric::roce_gid_info, {{label::device, nic.ib_dev}}).empty()) {
      sink.Node(kRoceIpMissing, node.name, nic.ib_dev, nic.netdev, ip,
                v2_ips.empty() ? i18n::Phrase::Of("check.inventory.roce_ip_missing.found_none", {})
                               : i18n::Phrase(v2_ips),
                i18n::Phrase::Of("check.inventory.roce_ip_missing.message", {{"device", nic.ib_dev}, {"ip", ip}}),
                FixText("ip addr add " + nic.roce_ip + " dev " + nic.netdev));
    }
  }
}

}  // namespace rocewatch::lint::checks::inventory
