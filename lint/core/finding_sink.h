#pragma once

// FindingSink: where every check of roce-lint puts its findings, the plan checks
// (lint/plan/*_checks.cpp, which locate each finding in the plan's text) and the node checks
// (lint/checks/*.cpp, which name a node's NIC). One collector for both: findings come back in
// the order they were added, or, for a sink made over a document's locator, in document order.
// Part of lint's core: it knows neither the plan's model nor the checks' contexts.

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lint/core/finding.h"

namespace rocewatch::lint {

struct CheckSpec;

// Where a finding sits in a document (the plan): what Finding::location says and the place that
// orders it. A plan's locator (lint/plan/plan_locator.h) answers for JSON pointers.
struct DocumentPlace {
  std::string location;  // "plan.json:12:5 /nodes/3/nics/0/roce_ip"
  std::size_t line = 0, column = 0;  // 0: nowhere in the text
};
class FindingLocator {
 public:
  virtual ~FindingLocator() = default;
  // The value at `pointer`, or its member's key when `at_key`.
  virtual DocumentPlace Locate(std::string_view pointer, bool at_key) const = 0;
  // "plan.json:3:15", or the pointer when the document has no positions.
  virtual std::string Where(std::string_view pointer) const = 0;
};

// The node, NIC and port a node check's finding is about (empty: not about one). A check's
// context converts to it (lint/checks/check.h).
struct FindingSubject {
  std::string_view node, device, port, netdev;
};

class FindingSink {
 public:
  FindingSink() = default;
  // Plan findings: located by `locator` (which outlives the sink), returned by Finish() in
  // document order.
  explicit FindingSink(const FindingLocator& locator) : locator_(&locator) {}

  // A finding as it is; with a locator, at the end of the document order.
  void Add(Finding finding);
  // A plan finding at `pointer` (at the member's key when `at_key`): sets its location.
  void Add(Finding finding, std::string_view pointer, bool at_key = false);
  // "plan.json:3:15" (or the pointer when the plan has no positions), for "also used at …".
  std::string Where(std::string_view pointer) const;

  // A node check's finding about one planned NIC or port, or about a node (`device`/`netdev`
  // may be empty). `setting`: the typed values behind expected/found. Each text is a value or an
  // English string as written, or a catalogue message (i18n::Phrase::Of) the reports render in
  // their language. A `fix` with setting changes is kept as Finding::fix_steps for
  // fix::RenderFixes; words alone are the fix (a catalogue message: the words in every language).
  void Nic(const CheckSpec& spec, const FindingSubject& subject, i18n::Phrase expected,
           i18n::Phrase found, i18n::Phrase message, FixText fix, SettingDelta setting = {});
  void Node(const CheckSpec& spec, std::string_view node, std::string device, std::string netdev,
            i18n::Phrase expected, i18n::Phrase found, i18n::Phrase message, FixText fix);

  // The findings so far, in the order added.
  std::vector<Finding>& findings() { return findings_; }
  // The findings, in document order when the sink has a locator (stable: one position keeps
  // the order of Add); the sink is empty afterwards.
  std::vector<Finding> Finish();

 private:
  const FindingLocator* locator_ = nullptr;
  std::vector<Finding> findings_;
  std::vector<std::pair<std::size_t, std::size_t>> positions_;  // with a locator: one per finding
};

}  // namespace rocewatch::lint
