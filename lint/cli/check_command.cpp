// roce-lint check PLAN: every node against the plan and against its peers.

#include <fstream>

#include "lint/cli/commands.h"
#include "lint/cli/common_flags.h"
#include "lint/cli/exit_codes.h"
#include "lint/cli/usable_plan.h"
#include "lint/cli/observe_flags.h"
#include "lint/cli/switch_flags.h"
#include "lint/plan/load.h"
#include "lint/report/formats.h"
#include "lint/run/evaluate.h"
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
  if (switch_inputs->counters_added && (settings->mode != observe::ObserveSettings::Mode::kPrometheus ||
                                        settings->window_seconds <= 0)) {
    io.err << "roce-lint check: --switch-counters needs --prometheus (the switches' counters are read "
              "from the store)\n";
    return kExitUnusable;
  }
  const std::string& plan_path = parsed->positional.front();
  auto loaded = LoadUsablePlan("check", plan_path, io.err, *lang);
  if (!loaded) return kExitUnusable;
  auto evaluation =
      run::Evaluate(loaded->plan, *settings, {switch_inputs->configs, switch_inputs->profiles});
  if (!evaluation) {
    io.err << "roce-lint check: " << escape::TerminalText(evaluation.error().message) << "\n";
    return kExitUnusable;
  }
  if (settings->print_stats && evaluation->switch_counters_queried)
    io.err << "roce-lint check: switch counters: " << evaluation->switch_stats.queries << " queries, "
           << evaluation->switch_stats.series << " series of " << evaluation->switch_counter_ports
           << " switch ports, " << evaluation->switch_stats.skipped
           << " skipped (no port label or no priority 0-7)\n";
  const observe::ObservedInput& observed = evaluation->observed;
  if (settings->print_stats && !observed.stats.empty())
    io.err << "roce-lint check: " << observed.input << ": " << observed.stats << "\n";
  report::CheckRun run;
  run.plan = &loaded->plan;
  run.findings = std::move(evaluation->findings);
  run.input = observed.input;
  run.input_id = observed.input_id;
  run.input_args = observed.input_args;
  run.counters_checked = observed.counters;
  run.switch_side_unchecked = std::move(evaluation->switch_side_unchecked);
  run.switch_counters_unchecked = std::move(evaluation->switch_counters_unchecked);
  run.switch_counters_read = evaluation->switch_counters_read;
  run.counters_unobserved = std::move(evaluation->counters_unobserved);

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
