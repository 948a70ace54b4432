// Plan checks on nodes and NICs: duplicates, addresses, profile references.

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "lint/i18n/catalogue.h"
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

using i18n::Phrase;
using i18n::StoredArgs;

// {node}: "node "gpu-01"" (节点 "gpu-01", …), or "nodes[3]" when the node has no name.
StoredArgs NodeArg(const Plan& plan, std::size_t i, std::string name = "node") {
  const Node& node = plan.nodes[i];
  StoredArgs args;
  if (node.name.empty())
    args.emplace_back(std::move(name), "nodes[" + std::to_string(i) + "]");
  else
    i18n::AddMessageArg(args, std::move(name), "plan.label.node", {{"name", Quote(node.name)}});
  return args;
}

// {nic}: "mlx5_0 of node "gpu-01"", or "nics[1] of node "gpu-01"" when the NIC has no ib_dev.
StoredArgs NicArg(const Plan& plan, std::size_t i, std::size_t k, std::string name = "nic") {
  const Nic& nic = plan.nodes[i].nics[k];
  StoredArgs inner = NodeArg(plan, i);
  inner.emplace_back("nic", nic.ib_dev.empty() ? "nics[" + std::to_string(k) + "]" : nic.ib_dev);
  StoredArgs args;
  i18n::AddMessageArg(args, std::move(name), "plan.label.nic", inner);
  return args;
}

// {error}: an address parser's reason (lint/plan/address.h), in each language.
StoredArgs ErrorArg(const i18n::StoredMessage& reason, const std::string& english) {
  StoredArgs args;
  i18n::AddMessageArg(args, "error", reason, english);
  return args;
}

StoredArgs Join(StoredArgs a, const StoredArgs& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
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
    sink.Add(MakeFinding(kPlanNoNodes, Phrase::Of("plan.no_nodes.message", {}),
                         Phrase::Of("plan.no_nodes.expected", {}), Phrase::Of("plan.none", {}),
                         Phrase::Of("plan.no_nodes.fix", {})),
             "/nodes");
  }
  for (std::size_t i = 0; i < plan.nodes.size(); ++i) {
    const Node& node = plan.nodes[i];
    if (node.nics.empty()) {
      sink.Add(ForNode(MakeFinding(kPlanNodeWithoutNics,
                                   Phrase::Of("plan.node_without_nics.message", NodeArg(plan, i)),
                                   Phrase::Of("plan.node_without_nics.expected", {}),
                                   Phrase::Of("plan.none", {}),
                                   Phrase::Of("plan.node_without_nics.fix", {})),
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
                                 Phrase::Of("plan.duplicate_node_name.message",
                                            {{"name", Quote(node.name)},
                                             {"first", std::to_string(it->second)},
                                             {"where", sink.Where(NodePointer(it->second) + "/name")}}),
                                 Phrase::Of("plan.duplicate_node_name.expected", {}), node.name,
                                 Phrase::Of("plan.duplicate_node_name.fix", {})),
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
    i18n::StoredMessage reason;
    auto ip = ParseIpAddress(node.management_ip, &reason);
    if (!ip.ok()) {
      sink.Add(ForNode(MakeFinding(kPlanInvalidIp,
                                   Phrase::Of("plan.invalid_management_ip.message",
                                              Join(NodeArg(plan, i), ErrorArg(reason, ip.error().message))),
                                   Phrase::Of("plan.invalid_management_ip.expected", {}),
                                   node.management_ip,
                                   Phrase::Of("plan.invalid_management_ip.fix", {})),
                       node),
               pointer);
      continue;
    }
    auto [it, inserted] = seen.emplace(ip->ToString(), i);
    if (inserted) continue;
    sink.Add(ForNode(MakeFinding(kPlanDuplicateManagementIp,
                                 Phrase::Of("plan.duplicate_management_ip.message",
                                            Join(Join(NodeArg(plan, i), NodeArg(plan, it->second, "other")),
                                                 {{"ip", ip->ToString()},
                                                  {"where", sink.Where(NodePointer(it->second) +
                                                                       "/management_ip")}})),
                                 Phrase::Of("plan.duplicate_management_ip.expected", {}), ip->ToString(),
                                 Phrase::Of("plan.duplicate_management_ip.fix", {})),
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
    i18n::StoredMessage reason;
    auto hp = ParseHostPort(node.exporter, &reason);
    if (!hp.ok()) {
      // A derived address is only invalid when management_ip is, which is reported already.
      if (node.exporter_given) {
        sink.Add(ForNode(MakeFinding(kPlanInvalidExporter,
                                     Phrase::Of("plan.invalid_exporter.message",
                                                Join(NodeArg(plan, i), ErrorArg(reason, hp.error().message))),
                                     "host:port", node.exporter,
                                     Phrase::Of("plan.invalid_exporter.fix", {})),
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
                                 Phrase::Of("plan.duplicate_exporter.message",
                                            Join(Join(NodeArg(plan, i), NodeArg(plan, it->second, "other")),
                                                 {{"exporter", node.exporter}})),
                                 Phrase::Of("plan.duplicate_exporter.expected", {}), node.exporter,
                                 Phrase::Of("plan.duplicate_exporter.fix", {})),
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
      i18n::StoredMessage reason;
      auto prefix = ParseIpPrefix(nic.roce_ip, &reason);
      if (!prefix.ok()) {
        sink.Add(ForNic(MakeFinding(kPlanInvalidIp,
                                    Phrase::Of("plan.invalid_roce_ip.message",
                                               Join(NicArg(plan, i, k), ErrorArg(reason, prefix.error().message))),
                                    "address/prefix", nic.roce_ip,
                                    Phrase::Of("plan.invalid_roce_ip.fix", {})),
                        node, nic),
                 pointer);
        continue;
      }
      const int bits = prefix->address.v6 ? 128 : 32;
      if (prefix->length <= bits - 2 &&
          (prefix->IsNetworkAddress() || prefix->IsBroadcastAddress())) {
        StoredArgs args = Join(NicArg(plan, i, k), {{"ip", nic.roce_ip}});
        sink.Add(ForNic(MakeFinding(kPlanRoceIpNotHost,
                                    prefix->IsNetworkAddress()
                                        ? Phrase::Of("plan.roce_ip_network.message", std::move(args))
                                        : Phrase::Of("plan.roce_ip_broadcast.message", std::move(args)),
                                    Phrase::Of("plan.roce_ip_not_host.expected", {}), nic.roce_ip,
                                    Phrase::Of("plan.roce_ip_not_host.fix", {})),
                        node, nic),
                 pointer);
      }
      std::string address = prefix->address.ToString();
      auto [it, inserted] = seen.emplace(address, std::pair(i, k));
      if (inserted) continue;
      auto [fi, fk] = it->second;
      sink.Add(ForNic(MakeFinding(kPlanDuplicateRoceIp,
                                  Phrase::Of("plan.duplicate_roce_ip.message",
                                             Join(Join(NicArg(plan, i, k), NicArg(plan, fi, fk, "other")),
                                                  {{"ip", address},
                                                   {"where", sink.Where(NicPointer(fi, fk) + "/roce_ip")}})),
                                  Phrase::Of("plan.duplicate_roce_ip.expected", {}), address,
                                  Phrase::Of("plan.duplicate_roce_ip.fix", {})),
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
      auto twice = [&](std::size_t first, std::string_view key, StoredArgs more) {
        return Join(Join(NodeArg(plan, i), more),
                    {{"k", std::to_string(k)},
                     {"first", std::to_string(first)},
                     {"where", sink.Where(NicPointer(i, first) + "/" + std::string(key))}});
      };
      if (!nic.ib_dev.empty()) {
        auto [it, inserted] = ib_devs.emplace(nic.ib_dev, k);
        if (!inserted) {
          sink.Add(ForNic(MakeFinding(kPlanDuplicateIbDev,
                                      Phrase::Of("plan.duplicate_ib_dev.message",
                                                 twice(it->second, "ib_dev", {{"name", Quote(nic.ib_dev)}})),
                                      Phrase::Of("plan.duplicate_ib_dev.expected", {}), nic.ib_dev,
                                      Phrase::Of("plan.duplicate_ib_dev.fix", {})),
                          node, nic),
                   NicPointer(i, k) + "/ib_dev");
        }
      }
      if (!nic.netdev.empty()) {
        auto [it, inserted] = netdevs.emplace(nic.netdev, k);
        if (!inserted) {
          sink.Add(ForNic(MakeFinding(kPlanDuplicateNetdev,
                                      Phrase::Of("plan.duplicate_netdev.message",
                                                 twice(it->second, "netdev", {{"name", Quote(nic.netdev)}})),
                                      Phrase::Of("plan.duplicate_netdev.expected", {}), nic.netdev,
                                      Phrase::Of("plan.duplicate_netdev.fix", {})),
                          node, nic),
                   NicPointer(i, k) + "/netdev");
        }
      }
      if (nic.rail) {
        auto [it, inserted] = rails.emplace(*nic.rail, k);
        if (!inserted) {
          sink.Add(ForNic(MakeFinding(kPlanDuplicateRail,
                                      Phrase::Of("plan.duplicate_rail.message",
                                                 twice(it->second, "rail", {{"rail", std::to_string(*nic.rail)}})),
                                      Phrase::Of("plan.duplicate_rail.expected", {}), std::to_string(*nic.rail),
                                      Phrase::Of("plan.duplicate_rail.fix", {})),
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
      StoredArgs args = Join(NicArg(plan, i, k), {{"profile", Quote(nic.profile)}});
      Phrase message = Phrase::Of("plan.unknown_profile.message", args);
      Phrase fix = Phrase::Of("plan.unknown_profile.fix", args);
      if (auto suggestion = DidYouMean(nic.profile, names)) {
        args.emplace_back("suggestion", *suggestion);
        message = Phrase::Of("plan.unknown_profile.message_suggest", args);
        fix = Phrase::Of("plan.unknown_profile.fix_suggest", args);
      }
      sink.Add(ForNic(MakeFinding(kPlanUnknownProfile, std::move(message),
                                  Phrase::Of("plan.unknown_profile.expected", {}), nic.profile,
                                  std::move(fix)),
                      node, nic),
               NicPointer(i, k) + "/profile");
    }
  }
  for (const auto& name : names) {
    if (used.count(name) != 0) continue;
    sink.Add(MakeFinding(kPlanUnusedProfile,
                         Phrase::Of("plan.unused_profile.message", {{"profile", Quote(name)}}), "", "",
                         Phrase::Of("plan.unused_profile.fix", {})),
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
