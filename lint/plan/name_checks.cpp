// Plan check plan.invalid-name: every name and free text of the plan within the character set of
// its field (lint/plan/name_rules.h, docs/plan.md "Names").

#include "lint/plan/checks_internal.h"
#include "lint/plan/plan_checks.h"
#include "lint/plan/name_rules.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::plan::internal {
namespace {

struct NameCheck {
  FindingSink& sink;

  // One finding when `value` breaks its rule: `what` names the field and where it is ("netdev of
  // nics[0] of nodes[3]"), `rule` says what the field takes.
  void Check(std::string_view value, std::string problem, const std::string& what,
             const std::string& rule, const std::string& pointer, const Node* node,
             bool at_key = false) {
    if (problem.empty()) return;
    Finding f = MakeFinding(kPlanInvalidName,
                            what + " " + Quote(value) + " is not valid: " + problem, rule,
                            Quote(value, 256), "rename it to " + rule);
    if (node) f.node = node->name;
    sink.Add(std::move(f), pointer, at_key);
  }
};

constexpr const char* kHostRule =
    "a host name (RFC 1123: letters, digits and '-' in dot-separated labels of 1-63, at most 253 "
    "in all)";
constexpr const char* kNetdevRule =
    "an interface name the kernel accepts (1-15 bytes, no '/', ':' or white space, not \".\" or "
    "\"..\", printable)";
constexpr const char* kRdmaRule =
    "an RDMA device name (1-63 bytes, no '/' or white space, not \".\" or \"..\", printable)";
constexpr const char* kTextRule =
    "printable text (at most 256 bytes of UTF-8 without control characters)";

std::string At(std::string pointer, std::string_view key) {
  AppendPointerToken(pointer, key);
  return pointer;
}

}  // namespace

void CheckNames(const Plan& plan, FindingSink& sink) {
  NameCheck c{sink};
  auto text = [&](std::string_view value, const std::string& what, const std::string& pointer,
                  const Node* node, bool at_key = false) {
    c.Check(value, PrintableProblem(value), what, kTextRule, pointer, node, at_key);
  };
  if (!plan.cluster.empty()) text(plan.cluster, "cluster", "/cluster", nullptr);
  for (const auto& [name, p] : plan.profiles) {
    const std::string pointer = ProfilePointer(name);
    text(name, "profile name", pointer, nullptr, /*at_key=*/true);
    const std::string of = " of profile " + Quote(name);
    if (p.driver) text(*p.driver, "driver" + of, pointer + "/driver", nullptr);
    for (auto [key, list] : {std::pair{"firmware", &p.firmware},
                             std::pair{"driver_version", &p.driver_version}}) {
      for (std::size_t k = 0; k < list->size(); ++k) {
        std::string at = pointer + "/" + key;
        if (list->size() > 1) at += "/" + std::to_string(k);
        text((*list)[k], std::string(key) + of, at, nullptr);
      }
    }
  }
  for (std::size_t i = 0; i < plan.nodes.size(); ++i) {
    const Node& node = plan.nodes[i];
    const std::string np = "/nodes/" + std::to_string(i);
    const std::string label = "nodes[" + std::to_string(i) + "]";
    if (!node.name.empty())
      c.Check(node.name, HostNameProblem(node.name), "node name of " + label, kHostRule,
              np + "/name", &node);
    for (const auto& [key, value] : node.labels) {
      text(key, "label name of " + label, At(np + "/labels", key), &node, /*at_key=*/true);
      text(value, "label " + Quote(key) + " of " + label, At(np + "/labels", key), &node);
    }
    for (std::size_t k = 0; k < node.nics.size(); ++k) {
      const Nic& nic = node.nics[k];
      const std::string kp = np + "/nics/" + std::to_string(k);
      const std::string of = " of nics[" + std::to_string(k) + "] of " + label;
      if (!nic.ib_dev.empty())
        c.Check(nic.ib_dev, RdmaDeviceNameProblem(nic.ib_dev), "ib_dev" + of, kRdmaRule,
                kp + "/ib_dev", &node);
      if (!nic.netdev.empty())
        c.Check(nic.netdev, NetdevNameProblem(nic.netdev), "netdev" + of, kNetdevRule,
                kp + "/netdev", &node);
      if (nic.switch_port) text(*nic.switch_port, "switch_port" + of, kp + "/switch_port", &node);
    }
  }
}

}  // namespace rocewatch::lint::plan::internal
