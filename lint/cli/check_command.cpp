// roce-lint check PLAN: every node against the plan and against its peers.

#include <algorithm>
#include <chrono>
#include <fstream>

#include "lint/checks/check.h"
#include "lint/checks/peer/group.h"
#include "lint/fix/fix_hints.h"
#include "lint/cli/commands.h"
#include "lint/cli/common_flags.h"
#include "lint/cli/exit_codes.h"
#include "lint/cli/usable_plan.h"
#include "lint/cli/observe_flags.h"
#include "lint/cli/switch_flags.h"
#include "lint/plan/load.h"
#include "lint/report/formats.h"
#include "lint/observe/switch_counter_query.h"
#include "lint/switch/counter_profiles.h"
#include "lint/switch/switch_config.h"
#include "rocewatch/escape.h"

namespace rocewatch::lint::cli {
namespace {

constexpr const char* kUsage =
    "usage: roce-lint check PLAN [flags]\n"
    "\n"
    "Compares every planned node's NICs with the plan and with the NICs of the same profile\n"
    "(drift), and reports each deviation with the command that fixes it (docs/checks.md).\n"
    "\n";

const std::vector<FlagSpec>& CommandSpecs() {
  static const std::vector<FlagSpec> kSpecs = [] {
    std::vector<FlagSpec> specs = {
        {"--format", "", true,
         "report format (default text: one line per node, then details;\n"
         "html: one self-contained page, the node grid and every finding)",
         report::CheckReportFormatNames("|")},
        {"--lang", "", true, "language of the text and html reports (default en)", "en|zh"},
        {"--output", "-o", true, "write the report there instead of standard output", "FILE"}};
    specs.insert(specs.end(), SwitchFlagSpecs().begin(), SwitchFlagSpecs().end());
    specs.push_back(kFailOnFlag);
    specs.push_back(kHelpFlag);
    return specs;
  }();
  return kSpecs;
}

}  // namespace

int RunCheckCommand(const std::vector<std::string>& args, CommandIo io) {
  std::vector<FlagSpec> specs = ObserveFlagSpecs();
  specs.insert(specs.end(), CommandSpecs().begin(), CommandSpecs().end());
  auto parsed = ParseArgs(args, specs);
  if (!parsed.ok()) {
    io.err << "roce-lint check: " << parsed.error().message << "\n";
    return kExitUnusable;
  }
  if (parsed->Has("--help")) {
    io.out << kUsage << FlagUsage(CommandSpecs()) << "\n" << ObserveFlagsHelp()
           << "\nExit codes: 0 clean, 1 findings at or above --fail-on, 2 unusable input.\n";
    return kExitClean;
  }
  if (parsed->positional.size() != 1) {
    io.err << "roce-lint check: expected one plan file, got " << parsed->positional.size()
           << " (see --help)\n";
    return kExitUnusable;
  }
  const std::string format_name =
      parsed->Value("--format").value_or(std::string(report::CheckReportFormats().front().name));
  const report::ReportFormat* format = report::FindCheckReportFormat(format_name);
  if (format == nullptr) {
    io.err << "roce-lint check: --format \"" << format_name
           << "\" is not one of: " << report::CheckReportFormatNames(", ") << "\n";
    return kExitUnusable;
  }
  auto lang = ParseLang(parsed->Value("--lang"));
  if (!lang) {
    io.err << "roce-lint check: " << lang.error().message << "\n";
    return kExitUnusable;
  }
  auto fail_on = ParseFailOn(parsed->Value("--fail-on"));
  if (!fail_on) {
    io.err << "roce-lint check: " << fail_on.error().message << "\n";
    return kExitUnusable;
  }
  auto settings = ObserveSettingsFromArgs(*parsed);
  if (!settings) {
    io.err << "roce-lint check: " << settings.error().message << "\n";
    return kExitUnusable;
  }
  auto switch_inputs = SwitchInputsFromArgs(*parsed);
  if (!switch_inputs) {
    io.err << "roce-lint check: " << switch_inputs.error().message << "\n";
    return kExitUnusable;
  }
  switch_config::SwitchConfigs& switches = switch_inputs->configs;
  // The switches' pause counters over the counter window, at the same time as the nodes'.
  if (settings->mode == observe::ObserveSettings::Mode::kPrometheus && settings->window_seconds > 0) {
    if (!settings->prometheus.at)
      settings->prometheus.at =
          std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    observe::SwitchQueryStats switch_stats;
    auto pauses =
        observe::QuerySwitchPauses(switch_inputs->profiles, settings->prometheus, settings->scrape, &switch_stats);
    if (!pauses) {
      io.err << "roce-lint check: " << escape::TerminalText(pauses.error().message) << "\n";
      return kExitUnusable;
    }
    if (settings->print_stats)
      io.err << "roce-lint check: switch counters: " << switch_stats.queries << " queries, " << switch_stats.series
             << " series of " << pauses->size() << " switch ports, " << switch_stats.skipped
             << " skipped (no port label or no priority 0-7)\n";
    switches.SetPauses(std::move(*pauses));
  } else if (switch_inputs->counters_added) {
    io.err << "roce-lint check: --switch-counters needs --prometheus (the switches' counters are read "
              "from the store)\n";
    return kExitUnusable;
  }
  const std::string& plan_path = parsed->positional.front();
  auto loaded = LoadUsablePlan("check", plan_path, io.err);
  if (!loaded) return kExitUnusable;
  // Each node is checked as soon as it is observed and its metrics dropped: at
  // 10,000 nodes only the interned settings that drift compares stay in memory.
  checks::CheckRunner runner(loaded->plan, &switches);
  std::vector<std::string> without_window;  // reachable, no counter increase
  std::vector<std::string> without_switch;  // "node netdev": no DCBX, no --switch-config
  std::vector<std::string> without_counters;  // "node netdev": no switch pause counters
  auto observed = ObserveEach(loaded->plan, *settings, [&](std::size_t i, observe::NodeView&& view) {
    if (view.reachable() && !view.has_increase()) without_window.push_back(view.node());
    for (const std::string& netdev : checks::peer::NicsWithoutSwitchSide(loaded->plan.nodes[i], view, &switches))
      without_switch.push_back(loaded->plan.nodes[i].name + " " + netdev);
    for (const std::string& netdev : checks::peer::NicsWithoutSwitchCounters(loaded->plan.nodes[i], view, &switches))
      without_counters.push_back(loaded->plan.nodes[i].name + " " + netdev);
    runner.AddNode(i, view);
  });
  if (!observed) {
    io.err << "roce-lint check: " << observed.error().message << "\n";
    return kExitUnusable;
  }

  if (settings->print_stats && !observed->stats.empty())
    io.err << "roce-lint check: " << observed->input << ": " << observed->stats << "\n";
  report::CheckRun run;
  run.plan = &loaded->plan;
  run.findings = runner.Finish();
  fix::RenderFixes(run.findings);
  run.input = observed->input;
  run.input_id = observed->input_id;
  run.input_args = observed->input_args;
  run.counters_checked = observed->counters;
  std::sort(without_switch.begin(), without_switch.end());
  run.switch_side_unchecked = std::move(without_switch);
  std::sort(without_counters.begin(), without_counters.end());
  run.switch_counters_unchecked = std::move(without_counters);
  run.switch_counters_read = switches.pauses().read();
  if (run.counters_checked) {
    std::sort(without_window.begin(), without_window.end());
    run.counters_unobserved = std::move(without_window);
  }

  std::ofstream file;
  std::ostream* out = &io.out;
  if (auto path = parsed->Value("--output")) {
    file.open(*path, std::ios::trunc);
    if (!file) {
      io.err << "roce-lint check: cannot write " << escape::TerminalText(*path) << "\n";
      return kExitUnusable;
    }
    out = &file;
  }
  format->write(*out, {run, plan_path,
                       *lang, *fail_on});
  return CountAtOrAbove(run.findings, *fail_on) > 0 ? kExitFindings : kExitClean;
}

}  // namespace rocewatch::lint::cli
