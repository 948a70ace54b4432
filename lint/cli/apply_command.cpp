// roce-lint apply PLAN --scripts DIR: the batch runner for sites without a configuration
// management tool. Runs every node's rendered script over SSH (precheck first, then the script),
// `--concurrency` nodes at a time, and ends with a summary table (docs/fix.md).

#include <filesystem>
#include <iostream>

#include "lint/cli/commands.h"
#include "lint/cli/common_flags.h"
#include "lint/cli/exit_codes.h"
#include "lint/cli/usable_plan.h"
#include "lint/cli/transport_flags.h"
#include "lint/fix/batch.h"
#include "lint/plan/load.h"
#include "rocewatch/escape.h"
#include "rocewatch/duration.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::cli {
namespace {

constexpr const char* kUsage =
    "usage: roce-lint apply PLAN --scripts DIR [flags]\n"
    "\n"
    "Runs the scripts `roce-lint fix --output-dir DIR` rendered on their nodes: for each node,\n"
    "`ssh HOST sh -s -- --precheck < DIR/<node>/rocewatch-roce-config.sh`, then, when the "
    "precheck\n"
    "passed, the script itself; nodes whose precheck fails are skipped and nothing is changed on\n"
    "them. Ends with a table: node | host | result (passed, changed N settings, skipped: "
    "precheck:\n"
    "reason, failed: exit code and line, unreachable, no script). With --rollback each script\n"
    "restores what its backup on the node holds (rolled back N settings, no backup).\n"
    "\n";

constexpr const char* kExitCodes =
    "\n"
    "Exit codes: 0 every node passed, changed or had no script; 1 a node was skipped, failed or\n"
    "unreachable; 2 unusable input.\n";

std::vector<FlagSpec> MakeSpecs() {
  std::vector<FlagSpec> specs = {
      kHelpFlag,
      {"--scripts", "", true, "what roce-lint fix --output-dir wrote (required)", "DIR"},
      {"--node", "", true, "only this node", "NAME"},
      {"--concurrency", "", true, "nodes at a time (default 10)", "N"},
      {"--dry-run", "", false, "run the scripts with --dry-run: report, change nothing"},
      {"--precheck-only", "", false, "run only the precheck"},
      {"--rollback", "", false,
       "run the scripts with --rollback: restore what their backup holds\n"
       "(with --dry-run: show it); a node without a backup is reported"},
      {"--timeout", "", true, "per script run (default 10m)", "DURATION"},
      {"--log-dir", "", true, "write everything each node printed to DIR/<node>.log", "DIR"},
      LangFlag("the result table and progress lines (logs stay English)")};
  const auto& transport = TransportFlagSpecs();
  specs.insert(specs.end() - 3, transport.begin(), transport.end());
  return specs;
}

const std::vector<FlagSpec>& Specs() {
  static const std::vector<FlagSpec> kSpecs = MakeSpecs();
  return kSpecs;
}

}  // namespace

int RunApplyCommand(const std::vector<std::string>& args, CommandIo io) {
  auto parsed = ParseArgs(args, Specs());
  if (!parsed.ok()) {
    io.err << "roce-lint apply: " << parsed.error().message << "\n";
    return kExitUnusable;
  }
  if (parsed->Has("--help")) {
    io.out << kUsage << FlagUsage(Specs()) << kExitCodes;
    return kExitClean;
  }
  auto fail = [&](const std::string& message) {
    io.err << "roce-lint apply: " << message << "\n";
    return kExitUnusable;
  };
  if (parsed->positional.size() != 1)
    return fail("expected one plan file, got " + std::to_string(parsed->positional.size()) +
                " (see --help)");
  fix::BatchOptions options;
  auto scripts = parsed->Value("--scripts");
  if (!scripts)
    return fail("--scripts DIR is required: the directory roce-lint fix --output-dir wrote");
  if (!std::filesystem::is_directory(*scripts)) return fail("no such directory: " + *scripts);
  options.scripts_dir = *scripts;
  if (auto n = parsed->Value("--concurrency")) {
    auto c = ParseU64(*n);
    if (!c || *c == 0 || *c > 1024)
      return fail("--concurrency " + Quote(*n) + ": expected 1 to 1024");
    options.concurrency = static_cast<int>(*c);
  }
  options.dry_run = parsed->Has("--dry-run");
  options.precheck_only = parsed->Has("--precheck-only");
  options.rollback = parsed->Has("--rollback");
  if (options.dry_run && options.precheck_only)
    return fail("--dry-run and --precheck-only exclude each other");
  if (options.rollback && options.precheck_only)
    return fail("--rollback and --precheck-only exclude each other");
  if (auto error = ReadTransportFlags(*parsed, options)) return fail(*error);
  if (auto t = parsed->Value("--timeout")) {
    auto d = ParseDuration(*t);
    if (!d || *d <= 0)
      return fail("--timeout " + Quote(*t) + ": expected a duration such as 90s or 10m");
    options.timeout_seconds = *d;
  }
  options.log_dir = parsed->Value("--log-dir").value_or("");
  const auto lang = ParseLang(parsed->Value("--lang"));
  if (!lang) return fail(lang.error().message);

  const std::string& plan_path = parsed->positional.front();
  // The plan's node names become directories under --scripts and files under --log-dir: a plan
  // with errors (plan.invalid-name among them) is not run.
  auto loaded = LoadUsablePlan("apply", plan_path, io.err, *lang);
  if (!loaded) return kExitUnusable;
  std::vector<const plan::Node*> nodes;
  if (auto name = parsed->Value("--node")) {
    std::vector<std::string> names;
    for (const auto& n : loaded->plan.nodes) {
      names.push_back(n.name);
      if (n.name == *name) nodes.push_back(&n);
    }
    if (nodes.empty()) {
      std::string msg = "no node " + Quote(*name) + " in " + plan_path;
      if (auto s = DidYouMean(*name, names)) msg += "; did you mean \"" + *s + "\"?";
      return fail(msg);
    }
  } else {
    for (const auto& n : loaded->plan.nodes) nodes.push_back(&n);
  }

  options.on_result = [&](const fix::NodeResult& r, std::size_t done, std::size_t total) {
    io.err << "[" << done << "/" << total << "] "
           << escape::TerminalText(r.node + ": " + fix::ResultText(r, *lang)) << "\n";
    io.err.flush();
  };
  auto results = fix::RunBatch(nodes, options);
  fix::WriteSummaryTable(io.out, results, *lang);
  for (const auto& r : results)
    if (!fix::IsSuccess(r.outcome)) return kExitFindings;
  return kExitClean;
}

}  // namespace rocewatch::lint::cli
