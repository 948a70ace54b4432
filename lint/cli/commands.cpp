#include "lint/cli/commands.h"

#include "lint/cli/exit_codes.h"
#include "rocewatch/strings.h"
#include "rocewatch/version.h"

namespace rocewatch::lint::cli {

const std::vector<Command>& Commands() {
  static const std::vector<Command> kCommands = {
      {"plan", "validate a cluster plan (for CI)", RunPlanCommand},
      {"import-csv", "turn a spreadsheet export (one row per NIC) into a plan",
       RunImportCsvCommand},
      {"check", "check the nodes against the plan and each other", RunCheckCommand},
      {"targets", "write the plan's exporters as Prometheus file_sd targets with the plan's labels",
       RunTargetsCommand},
      {"serve", "run the checks as a daemon: /metrics and Alertmanager", RunServeCommand},
      {"fix", "render per-node scripts that bring the NICs to the plan", RunFixCommand},
      {"apply", "run the rendered scripts on the nodes over SSH (precheck first)", RunApplyCommand},
      {"verify", "perftest between rail pairs over SSH, judged with both NICs' counters", RunVerifyCommand},
  };
  return kCommands;
}

namespace {

void Usage(std::ostream& out) {
  out << "usage: roce-lint [--help] [--version] COMMAND [ARGS...]\n\n"
         "Checks the RoCE NICs of a GPU cluster against the cluster plan and each other.\n\n"
         "commands:\n";
  for (const auto& c : Commands()) {
    std::string name(c.name);
    name.resize(12, ' ');
    out << "  " << name << c.summary << '\n';
  }
  out << "\nRun `roce-lint COMMAND --help` for the flags of a command.\n"
         "Exit codes: 0 clean, 1 findings at or above --fail-on, 2 unusable input.\n";
}

}  // namespace

int RunCli(const std::vector<std::string>& args, CommandIo io) {
  if (args.empty()) {
    Usage(io.err);
    return kExitUnusable;
  }
  const std::string& first = args.front();
  if (first == "--help" || first == "-h" || first == "help") {
    Usage(io.out);
    return kExitClean;
  }
  if (first == "--version") {
    io.out << "roce-lint " << kVersion << " (revision " << kRevision << ")\n";
    return kExitClean;
  }
  std::vector<std::string> names;
  for (const auto& c : Commands()) {
    if (c.name == first) {
      return c.run(std::vector<std::string>(args.begin() + 1, args.end()), io);
    }
    names.emplace_back(c.name);
  }
  io.err << "roce-lint: unknown command " << Quote(first);
  if (auto suggestion = DidYouMean(first, names))
    io.err << "; did you mean \"" << *suggestion << "\"?";
  io.err << "\nRun `roce-lint --help` for the list of commands.\n";
  return kExitUnusable;
}

}  // namespace rocewatch::lint::cli
