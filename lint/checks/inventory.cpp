// Inventory: can we see the node, and does it have the NICs the plan says,
// wired to the planned netdevs and carrying the planned RoCE addresses?

#include <set>

#include "lint/checks/check.h"
#include "lint/checks/specs.h"
#include "lint/plan/address.h"

namespace rocewatch::lint::checks {
namespace {

// The address of "address/prefix" as the exporter writes it (inet_ntop form), so
// "FD00:1:0::11/64" in the plan matches "fd00:1::11" in roce_gid_info.
std::string IpOf(const std::string& cidr) {
  std::string ip = cidr.substr(0, cidr.find('/'));
  auto parsed = plan::ParseIpAddress(ip);
  return parsed ? parsed->ToString() : ip;
}

}  // namespace

void CheckInventory(const plan::Plan& plan, const plan::Node& node, const observe::NodeView& view,
                    FindingSink& sink) {
  (void)plan;
  if (!view.reachable()) {
    sink.Node(kExporterUnreachable, node, "", "", "metrics from " + view.source(), view.error(),
              "Cannot read the node's metrics: " + view.error() + ".",
              "systemctl status roce_exporter on " + node.name + "; check that " + node.exporter +
                  " is reachable from here");
    return;
  }
  for (const auto& s : view.Select("roce_exporter_collector_success")) {
    if (s.value() != 0) continue;
    std::string collector(s.Label("collector"));
    sink.Node(kCollectorFailing, node, "", "", "collector " + collector + " succeeding",
              "collector " + collector + " failing",
              "The exporter's " + collector +
                  " collector failed in the last scrape, so the checks that need it see less.",
              "journalctl -u roce_exporter on " + node.name + " for the collector's error");
  }

  std::set<std::string> planned;
  for (const auto& nic : node.nics) {
    planned.insert(nic.ib_dev);
    auto infos = view.Select("roce_device_info", {{"device", nic.ib_dev}});
    if (infos.empty()) {
      std::string present;
      for (const auto& d : view.Select("roce_device_info"))
        present += (present.empty() ? "" : " ") + std::string(d.Label("device"));
      sink.Node(kDeviceMissing, node, nic.ib_dev, nic.netdev, nic.ib_dev + " present",
                present.empty() ? "no RDMA devices" : "present: " + present,
                nic.ib_dev + " is not in /sys/class/infiniband on " + node.name +
                    (present.empty() ? "; the node has no RDMA devices." : "; present: " + present + "."),
                "check the NIC is seated and the driver loaded: lspci -d 15b3: ; "
                "modprobe mlx5_ib; dmesg | grep mlx5");
      continue;
    }
    auto ports = view.Select("roce_port_info", {{"device", nic.ib_dev}});
    std::string netdev = ports.empty() ? "" : std::string(ports.front().Label("netdev"));
    if (!ports.empty() && netdev != nic.netdev) {
      sink.Node(kNetdevMismatch, node, nic.ib_dev, nic.netdev, nic.netdev,
                netdev.empty() ? "no netdev" : netdev,
                nic.ib_dev + " maps to " + (netdev.empty() ? "no netdev" : netdev) +
                    ", the plan says " + nic.netdev + ".",
                "fix the plan or the interface naming (udev rules / biosdevname); rdma link show " +
                    nic.ib_dev);
    }
    if (!nic.roce_ip.empty()) {
      std::string ip = IpOf(nic.roce_ip);
      bool found = false;
      std::string v2_ips;
      for (const auto& g : view.Select("roce_gid_info", {{"device", nic.ib_dev}})) {
        if (g.Label("type") != "RoCE v2") continue;
        std::string gip(g.Label("ip"));
        if (gip.rfind("fe80:", 0) == 0) continue;
        v2_ips += (v2_ips.empty() ? "" : " ") + gip;
        if (gip == ip) found = true;
      }
      if (!found && !view.Select("roce_gid_info", {{"device", nic.ib_dev}}).empty()) {
        sink.Node(kRoceIpMissing, node, nic.ib_dev, nic.netdev, ip,
                  v2_ips.empty() ? "no RoCE v2 address" : v2_ips,
                  nic.ib_dev + " has no RoCE v2 GID for " + ip + " (RoCE IP of the plan).",
                  "ip addr add " + nic.roce_ip + " dev " + nic.netdev);
      }
    }
  }
  for (const auto& d : view.Select("roce_device_info")) {
    std::string device(d.Label("device"));
    if (planned.count(device)) continue;
    sink.Node(kUnplannedDevice, node, device, "", "not present (not in the plan)", device,
              device + " is present on " + node.name + " but not in the plan.",
              "add " + device + " to the node's nics in the plan, or exclude it with "
              "--device-exclude on the exporter");
  }
}

}  // namespace rocewatch::lint::checks
