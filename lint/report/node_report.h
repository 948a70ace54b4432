#pragma once

// The report of `roce-lint check`: one line per node first (passed, or the list
// of what failed), then every finding with its fix. Text in English or Chinese,
// JUnit XML and SARIF for CI systems; JSON is json_report.h.

#include <ostream>
#include <string>
#include <vector>

#include "lint/core/finding.h"
#include "lint/i18n/catalogue.h"
#include "lint/i18n/language.h"
#include "lint/observe/node_view.h"
#include "lint/plan/model.h"
#include "lint/report/text_report.h"

namespace rocewatch::lint::report {

// Every human sentence of a report comes from the message catalogue (lint/i18n/catalogue.h).
using Language = i18n::Language;

struct CheckRun {
  const plan::Plan* plan = nullptr;
  std::vector<Finding> findings;                          // sorted by node
  std::string input;                                      // where the metrics came from
  std::string input_id;          // `input` as a catalogue message (ObservedInput::input_id)
  i18n::StoredArgs input_args;
  bool counters_checked = false;                          // a counter window was available
  // With a window: the reachable nodes whose counters have none, as they were not observed at
  // its start (they joined inside it; lint/observe/counter_window.h). Said once in the report.
  std::vector<std::string> counters_unobserved;
  // "node netdev" of the NICs whose switch port sends no DCBX and no --switch-config names
  // (lint/checks/peer/group.h): the peer.* checks could not run there. Said once in the report.
  std::vector<std::string> switch_side_unchecked;
  // "node netdev" of the NICs with an LLDP neighbour whose switch port has no pause counters
  // (peer.switch-pause-non-pfc, peer.pause-mismatch could not run there); `switch_counters_read`:
  // the run read switch counters at all (--prometheus with a --window). Said once.
  std::vector<std::string> switch_counters_unchecked;
  bool switch_counters_read = false;
};
// "Counter checks skipped on 2 nodes not observed at the window's start: a, b." (the first ten
// named), or empty when every node had its window.
std::string CountersUnobservedNote(const CheckRun& run, Language lang);
// "Switch-side checks (peer.…) could not run on 3 NICs …: gpu-01 ens1f0np0, …" (the first ten
// named), or empty when every NIC had a switch source.
std::string SwitchSideUncheckedNote(const CheckRun& run, Language lang);
// "Switch-counter checks (peer.switch-pause-non-pfc, peer.pause-mismatch) could not run on 2
// NICs …: gpu-01 ens1f0np0, …", or empty when every NIC with a neighbour had its counters.
std::string SwitchCountersUncheckedNote(const CheckRun& run, Language lang);

enum class NodeState { kPassed, kFailed, kUnreachable };
NodeState StateOf(const CheckRun& run, const plan::Node& node);

void WriteNodeReport(std::ostream& out, const CheckRun& run, Language lang);
// One self-contained HTML page (html_report.cpp).
void WriteHtmlReport(std::ostream& out, const CheckRun& run, Language lang);
void WriteJUnitReport(std::ostream& out, const CheckRun& run);
void WriteSarifReport(std::ostream& out, const CheckRun& run, const std::string& plan_path);

// The check's title in the report language (the finding's message stays English
// in JSON and SARIF, which tools read).
std::string CheckTitle(const std::string& check_id, Language lang);
// Where the metrics came from in the report language: `input`, or its catalogue message.
std::string InputText(const CheckRun& run, Language lang);

}  // namespace rocewatch::lint::report
