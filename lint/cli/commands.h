#pragma once

// The subcommands of roce-lint. Each lives in its own file (lint/cli/<name>_command.cpp); a new
// subcommand is one new file plus one line in Commands() (lint/cli/commands.cpp).

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace rocewatch::lint::cli {

struct CommandIo {
  std::ostream& out;
  std::ostream& err;
};

struct Command {
  std::string_view name;     // "plan"
  std::string_view summary;  // one line for `roce-lint --help`
  // Runs with the arguments after the subcommand name; returns the exit code (exit_codes.h).
  int (*run)(const std::vector<std::string>& args, CommandIo io);
};

int RunPlanCommand(const std::vector<std::string>& args, CommandIo io);
int RunImportCsvCommand(const std::vector<std::string>& args, CommandIo io);
int RunCheckCommand(const std::vector<std::string>& args, CommandIo io);
int RunTargetsCommand(const std::vector<std::string>& args, CommandIo io);
int RunServeCommand(const std::vector<std::string>& args, CommandIo io);
int RunFixCommand(const std::vector<std::string>& args, CommandIo io);
int RunApplyCommand(const std::vector<std::string>& args, CommandIo io);
int RunVerifyCommand(const std::vector<std::string>& args, CommandIo io);

// The registration table.
const std::vector<Command>& Commands();

// The whole CLI: `roce-lint [--help|--version] COMMAND [ARGS…]`.
int RunCli(const std::vector<std::string>& args, CommandIo io);

}  // namespace rocewatch::lint::cli
