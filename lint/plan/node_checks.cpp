// Plan checks on nodes and NICs: duplicates, addresses, profile references.

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "lint/plan/address.h"
#include "lint/plan/checks_internal.h"
#include "lint/plan/plan_checks.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::plan::internal {
namespace {

std::string NodePointer(std::size_t i) { return "/nodes/" + std::to_string(i); }
std::string NicPointer(std::size_t i, std::size_t k) {
  return NodePointer(i) + "/nics/" + std::to_string(k);
}

// "node "gpu-01"", or "nodes[3]" when the node has no name.
std::string NodeLabel(const Plan& plan, std::size_t i) {
  const Node& node = plan.nodes[i];
  return node.name.empty() ? "nodes[" + std::to_string(i) + "]" : "node " + Quote(node.name);
}

// "mlx5_0 of node "gpu-01"", or "nics[1] of node "gpu-01"" when the NIC has no ib_dev.
std::string NicLabel(const Plan& plan, std::size_t i, std::size_t k) {
  const Nic& nic = plan.nodes[i].nics[k];
  std::string name = nic.ib_dev.empty() ? "nics[" + std::to_string(k) + "]" : nic.ib_dev;
  return name + " of " + NodeLabel(plan, i);
}

Finding ForNode(Finding f, const Node& node) {
  f.node = node.name;
  return f;
}

Finding ForNic(Finding f, const Node& node, const Nic& nic) {
  f.node = node.name;
  f.device = nic.ib_dev;
  f.netdev = nic.netdev;
  return f;
}

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// Exporter addresses compared with IP hosts in canonical form and names lowercased.
std::string ExporterKey(const HostPort& hp) {
  auto ip = ParseIpAddress(hp.host);
  return (ip.ok() ? ip->ToString() : Lower(hp.host)) + "#" + std::to_string(hp.port);
}

void CheckNodeList(const Plan& plan, FindingSink& sink) {
  if (plan.nodes.empty()) {
    sink.Add(MakeFinding(kPlanNoNodes, "the plan lists no nodes, so nothing will be checked",
                         "at least one node", "none", "add the cluster's nodes under \"nodes\""),
             "/nodes");
  }
  for (std::size_t i = 0; i < plan.nodes.size(); ++i) {
    const Node& node = plan.nodes[i];
    if (node.nics.empty()) {
      sink.Add(ForNode(MakeFinding(kPlanNodeWithoutNics,
                                   NodeLabel(plan, i) + " lists no NICs, so nothing on it will be "
                                                        "checked",
                                   "at least one NIC", "none", "add its RoCE NICs under \"nics\""),
                       node),
               NodePointer(i) + "/nics");
    }
  }
}

void CheckNodeNames(const Plan& plan, FindingSink& sink) {
  std::map<std::string, std::size_t> seen;
  for (std::size_t i = 0; i < plan.nodes.size(); ++i) {
    const Node& node = plan.nodes[i];
    if (node.name.empty()) continue;  // missing: reported by the loader
    auto [it, inserted] = seen.emplace(node.name, i);
    if (inserted) continue;
    sink.Add(ForNode(MakeFinding(kPlanDuplicateNodeName,
                                 "node name " + Quote(node.name) + " is also used by nodes[" +
                                     std::to_string(it->second) + "] at " +
                                     sink.Where(NodePointer(it->second) + "/name"),
                                 "a unique node name", node.name, "rename one of the two nodes"),
                     node),
             NodePointer(i) + "/name");
  }
}

void CheckManagementIps(const Plan& plan, FindingSink& sink) {
  std::map<std::string, std::size_t> seen;  // canonical address -> node index
  for (std::size_t i = 0; i < plan.nodes.size(); ++i) {
    const Node& node = plan.nodes[i];
    if (node.management_ip.empty()) continue;
    std::string pointer = NodePointer(i) + "/management_ip";
    auto ip = ParseIpAddress(node.management_ip);
    if (!ip.ok()) {
      sink.Add(
          ForNode(MakeFinding(kPlanInvalidIp,
                              "management_ip of " + NodeLabel(plan, i) + ": " + ip.error().message,
                              "an IPv4 or IPv6 address", node.management_ip,
                              "write the node's management address, e.g. 10.0.0.11"),
                  node),
          pointer);
      continue;
    }
    auto [it, inserted] = seen.emplace(ip->ToString(), i);
    if (inserted) continue;
    sink.Add(ForNode(MakeFinding(kPlanDuplicateManagementIp,
                                 "management IP " + ip->ToString() + " of " + NodeLabel(plan, i) +
                                     " is also used by " + NodeLabel(plan, it->second) + " at " +
                                     sink.Where(NodePointer(it->second) + "/management_ip"),
                                 "a unique management IP", ip->ToString(),
                                 "correct the management_ip of one of the two nodes"),
                     node),
             pointer);
  }
}

void CheckExporters(const Plan& plan, FindingSink& sink) {
  std::map<std::string, std::size_t> seen;  // ExporterKey -> node index
  for (std::size_t i = 0; i < plan.nodes.size(); ++i) {
    const Node& node = plan.nodes[i];
    if (node.exporter.empty()) continue;
    std::string pointer = NodePointer(i) + (node.exporter_given ? "/exporter" : "/management_ip");
    auto hp = ParseHostPort(node.exporter);
    if (!hp.ok()) {
      // A derived address is only invalid when management_ip is, which is reported already.
      if (node.exporter_given) {
        sink.Add(
            ForNode(MakeFinding(kPlanInvalidExporter,
                                "exporter of " + NodeLabel(plan, i) + ": " + hp.error().message,
                                "host:port", node.exporter,
                                "write the exporter address as host:port, e.g. "
                                "10.0.0.11:9879"),
                    node),
            pointer);
      }
      continue;
    }
    auto [it, inserted] = seen.emplace(ExporterKey(*hp), i);
    if (inserted) continue;
    const Node& first = plan.nodes[it->second];
    // Two derived addresses collide only when the management IPs do, which is reported already.
    if (!node.exporter_given && !first.exporter_given) continue;
    sink.Add(ForNode(MakeFinding(kPlanDuplicateExporter,
                                 "exporter " + node.exporter + " of " + NodeLabel(plan, i) +
                                     " is also the exporter of " + NodeLabel(plan, it->second) +
                                     ", so one node's metrics would be read for both",
                                 "a unique exporter address", node.exporter,
                                 "correct the exporter of one of the two nodes"),
                     node),
             pointer);
  }
}

void CheckRoceIps(const Plan& plan, FindingSink& sink) {
  std::map<std::string, std::pair<std::size_t, std::size_t>> seen;  // address -> (node, nic)
  for (std::size_t i = 0; i < plan.nodes.size(); ++i) {
    const Node& node = plan.nodes[i];
    for (std::size_t k = 0; k < node.nics.size(); ++k) {
      const Nic& nic = node.nics[k];
      if (nic.roce_ip.empty()) continue;
      std::string pointer = NicPointer(i, k) + "/roce_ip";
      auto prefix = ParseIpPrefix(nic.roce_ip);
      if (!prefix.ok()) {
        sink.Add(
            ForNic(MakeFinding(kPlanInvalidIp,
                               "roce_ip of " + NicLabel(plan, i, k) + ": " + prefix.error().message,
                               "address/prefix", nic.roce_ip,
                               "write the RoCE address with its prefix length, e.g. "
                               "10.1.0.11/24"),
                   node, nic),
            pointer);
        continue;
      }
      const int bits = prefix->address.v6 ? 128 : 32;
      if (prefix->length <= bits - 2 &&
          (prefix->IsNetworkAddress() || prefix->IsBroadcastAddress())) {
        std::string what = prefix->IsNetworkAddress() ? "network" : "broadcast";
        sink.Add(
            ForNic(MakeFinding(kPlanRoceIpNotHost,
                               "roce_ip " + nic.roce_ip + " of " + NicLabel(plan, i, k) +
                                   " is the " + what + " address of its subnet, not a host address",
                               "a host address inside the subnet", nic.roce_ip,
                               "pick an address between the network and broadcast addresses"),
                   node, nic),
            pointer);
      }
      std::string address = prefix->address.ToString();
      auto [it, inserted] = seen.emplace(address, std::pair(i, k));
      if (inserted) continue;
      auto [fi, fk] = it->second;
      sink.Add(ForNic(MakeFinding(kPlanDuplicateRoceIp,
                                  "RoCE IP " + address + " of " + NicLabel(plan, i, k) +
                                      " is also used by " + NicLabel(plan, fi, fk) + " at " +
                                      sink.Where(NicPointer(fi, fk) + "/roce_ip"),
                                  "a unique RoCE IP", address,
                                  "correct the roce_ip of one of the two NICs"),
                      node, nic),
               pointer);
    }
  }
}

// ib_dev, netdev and rail must each be unique within one node.
void CheckNicUniqueness(const Plan& plan, FindingSink& sink) {
  for (std::size_t i = 0; i < plan.nodes.size(); ++i) {
    const Node& node = plan.nodes[i];
    std::map<std::string, std::size_t> ib_devs, netdevs;
    std::map<std::int64_t, std::size_t> rails;
    for (std::size_t k = 0; k < node.nics.size(); ++k) {
      const Nic& nic = node.nics[k];
      auto first_at = [&](std::size_t first, std::string_view key) {
        return "nics[" + std::to_string(first) + "] at " +
               sink.Where(NicPointer(i, first) + "/" + std::string(key));
      };
      if (!nic.ib_dev.empty()) {
        auto [it, inserted] = ib_devs.emplace(nic.ib_dev, k);
        if (!inserted) {
          sink.Add(ForNic(MakeFinding(kPlanDuplicateIbDev,
                                      "ib_dev " + Quote(nic.ib_dev) + " appears twice in " +
                                          NodeLabel(plan, i) + ": nics[" + std::to_string(k) +
                                          "] and " + first_at(it->second, "ib_dev"),
                                      "a unique ib_dev per node", nic.ib_dev,
                                      "correct the ib_dev of one of the two NICs (see "
                                      "`rdma link` on the node)"),
                          node, nic),
                   NicPointer(i, k) + "/ib_dev");
        }
      }
      if (!nic.netdev.empty()) {
        auto [it, inserted] = netdevs.emplace(nic.netdev, k);
        if (!inserted) {
          sink.Add(ForNic(MakeFinding(kPlanDuplicateNetdev,
                                      "netdev " + Quote(nic.netdev) + " appears twice in " +
                                          NodeLabel(plan, i) + ": nics[" + std::to_string(k) +
                                          "] and " + first_at(it->second, "netdev"),
                                      "a unique netdev per node", nic.netdev,
                                      "correct the netdev of one of the two NICs (see "
                                      "`rdma link` on the node)"),
                          node, nic),
                   NicPointer(i, k) + "/netdev");
        }
      }
      if (nic.rail) {
        auto [it, inserted] = rails.emplace(*nic.rail, k);
        if (!inserted) {
          sink.Add(
              ForNic(MakeFinding(kPlanDuplicateRail,
                                 "rail " + std::to_string(*nic.rail) + " is given to two NICs of " +
                                     NodeLabel(plan, i) + ": nics[" + std::to_string(k) + "] and " +
                                     first_at(it->second, "rail"),
                                 "one NIC per rail on each node", std::to_string(*nic.rail),
                                 "correct the rail of one of the two NICs"),
                     node, nic),
              NicPointer(i, k) + "/rail");
        }
      }
    }
  }
}

void CheckProfileReferences(const Plan& plan, FindingSink& sink) {
  std::vector<std::string> names;
  for (const auto& [name, profile] : plan.profiles) names.push_back(name);
  std::set<std::string> used;
  for (std::size_t i = 0; i < plan.nodes.size(); ++i) {
    const Node& node = plan.nodes[i];
    for (std::size_t k = 0; k < node.nics.size(); ++k) {
      const Nic& nic = node.nics[k];
      if (nic.profile.empty()) continue;
      used.insert(nic.profile);
      if (plan.FindProfile(nic.profile) != nullptr) continue;
      std::string message = NicLabel(plan, i, k) + " refers to profile " + Quote(nic.profile) +
                            ", which the plan does not define";
      std::string fix = "define profile " + Quote(nic.profile) + " under \"profiles\"";
      if (auto suggestion = DidYouMean(nic.profile, names)) {
        message += "; did you mean \"" + *suggestion + "\"?";
        fix = "set profile to \"" + *suggestion + "\"";
      }
      sink.Add(ForNic(MakeFinding(kPlanUnknownProfile, std::move(message), "a defined profile",
                                  nic.profile, std::move(fix)),
                      node, nic),
               NicPointer(i, k) + "/profile");
    }
  }
  for (const auto& name : names) {
    if (used.count(name) != 0) continue;
    sink.Add(
        MakeFinding(kPlanUnusedProfile, "profile " + Quote(name) + " is not used by any NIC", "",
                    "", "remove the profile or assign it to NICs"),
        ProfilePointer(name), /*at_key=*/true);
  }
}

}  // namespace

void CheckNodes(const Plan& plan, FindingSink& sink) {
  CheckNodeList(plan, sink);
  CheckNodeNames(plan, sink);
  CheckManagementIps(plan, sink);
  CheckExporters(plan, sink);
  CheckRoceIps(plan, sink);
  CheckNicUniqueness(plan, sink);
  CheckProfileReferences(plan, sink);
}

}  // namespace rocewatch::lint::plan::internal
