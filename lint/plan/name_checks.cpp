// Plan check plan.invalid-name: every name and free text of the plan within the character set of
// its field (lint/plan/name_rules.h, docs/plan.md "Names").

#include "lint/plan/checks_internal.h"
#include "lint/plan/json_reader.h"
#include "lint/plan/plan_checks.h"
#include "lint/plan/name_rules.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::plan::internal {
namespace {

using i18n::Phrase;

// A name's problem (lint/plan/name_rules.h): its English and its catalogue message.
struct Problem {
  std::string english;
  i18n::StoredMessage reason;
};

struct NameCheck {
  FindingSink& sink;

  // One finding when `value` breaks its rule: `what` names the field and where it is ("netdev of
  // nics[0] of nodes[3]"), `rule` says what the field takes.
  void Check(std::string_view value, const Problem& problem, const Phrase& what, const Phrase& rule,
             const std::string& pointer, const Node* node, bool at_key = false) {
    if (problem.english.empty()) return;
    i18n::StoredArgs args = {{"value", Quote(value)}};
    AddPhraseArg(args, "what", what);
    AddPhraseArg(args, "rule", rule);
    i18n::AddMessageArg(args, "problem", problem.reason, problem.english);
    Finding f = MakeFinding(kPlanInvalidName, Phrase::Of("plan.invalid_name.message", args), rule,
                            Quote(value, 256), Phrase::Of("plan.invalid_name.fix", args));
    if (node) f.node = node->name;
    sink.Add(std::move(f), pointer, at_key);
  }
};

template <typename Rule>
Problem ProblemOf(Rule rule, std::string_view value) {
  Problem p;
  p.english = rule(value, &p.reason);
  return p;
}

const Phrase& HostRule() {
  static const Phrase kRule = Phrase::Of("plan.name_rule.host", {});
  return kRule;
}
const Phrase& NetdevRule() {
  static const Phrase kRule = Phrase::Of("plan.name_rule.netdev", {});
  return kRule;
}
const Phrase& RdmaRule() {
  static const Phrase kRule = Phrase::Of("plan.name_rule.rdma", {});
  return kRule;
}
const Phrase& TextRule() {
  static const Phrase kRule = Phrase::Of("plan.name_rule.text", {});
  return kRule;
}

// "driver of profile \"a\"", "netdev of nics[0] of nodes[3]": `key` of `what`.
Phrase Of(std::string key, const Phrase& what) {
  i18n::StoredArgs args = {{"key", std::move(key)}};
  AddPhraseArg(args, "what", what);
  return Phrase::Of("plan.schema.member_of", std::move(args));
}

Phrase Labelled(i18n::MessageId id, const std::string& node, i18n::StoredArgs args = {}) {
  args.emplace_back("node", node);
  return Phrase::Of(id, std::move(args));
}

std::string At(std::string pointer, std::string_view key) {
  AppendPointerToken(pointer, key);
  return pointer;
}

}  // namespace

void CheckNames(const Plan& plan, FindingSink& sink) {
  NameCheck c{sink};
  auto text = [&](std::string_view value, const Phrase& what, const std::string& pointer,
                  const Node* node, bool at_key = false) {
    c.Check(value, ProblemOf(PrintableProblem, value), what, TextRule(), pointer, node, at_key);
  };
  if (!plan.cluster.empty()) text(plan.cluster, "cluster", "/cluster", nullptr);
  for (const auto& [name, p] : plan.profiles) {
    const std::string pointer = ProfilePointer(name);
    text(name, Phrase::Of("plan.name_what.profile_name", {}), pointer, nullptr, /*at_key=*/true);
    const Phrase profile = Phrase::Of("plan.label.profile", {{"name", Quote(name)}});
    if (p.driver) text(*p.driver, Of("driver", profile), pointer + "/driver", nullptr);
    for (auto [key, list] : {std::pair{"firmware", &p.firmware},
                             std::pair{"driver_version", &p.driver_version}}) {
      for (std::size_t k = 0; k < list->size(); ++k) {
        std::string at = pointer + "/" + key;
        if (list->size() > 1) at += "/" + std::to_string(k);
        text((*list)[k], Of(key, profile), at, nullptr);
      }
    }
  }
  for (std::size_t i = 0; i < plan.nodes.size(); ++i) {
    const Node& node = plan.nodes[i];
    const std::string np = "/nodes/" + std::to_string(i);
    const std::string label = "nodes[" + std::to_string(i) + "]";
    if (!node.name.empty())
      c.Check(node.name, ProblemOf(HostNameProblem, node.name),
              Labelled("plan.name_what.node_name", label), HostRule(), np + "/name", &node);
    for (const auto& [key, value] : node.labels) {
      text(key, Labelled("plan.name_what.label_name", label), At(np + "/labels", key), &node,
           /*at_key=*/true);
      text(value, Labelled("plan.name_what.label", label, {{"key", Quote(key)}}),
           At(np + "/labels", key), &node);
    }
    for (std::size_t k = 0; k < node.nics.size(); ++k) {
      const Nic& nic = node.nics[k];
      const std::string kp = np + "/nics/" + std::to_string(k);
      const Phrase nic_label =
          Phrase::Of("plan.label.nic", {{"nic", "nics[" + std::to_string(k) + "]"}, {"node", label}});
      if (!nic.ib_dev.empty())
        c.Check(nic.ib_dev, ProblemOf(RdmaDeviceNameProblem, nic.ib_dev), Of("ib_dev", nic_label),
                RdmaRule(), kp + "/ib_dev", &node);
      if (!nic.netdev.empty())
        c.Check(nic.netdev, ProblemOf(NetdevNameProblem, nic.netdev), Of("netdev", nic_label),
                NetdevRule(), kp + "/netdev", &node);
      if (nic.switch_port) text(*nic.switch_port, Of("switch_port", nic_label), kp + "/switch_port", &node);
    }
  }
}

}  // namespace rocewatch::lint::plan::internal
