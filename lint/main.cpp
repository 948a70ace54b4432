// roce-lint: checks the RoCE NICs of a GPU cluster against the cluster plan and each other.

#include <iostream>
#include <string>
#include <vector>

#include "lint/cli/commands.h"
#include "lint/report/text_terminal.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  // Messages to people go through the terminal-text escape; standard output carries reports,
  // JSON and scripts, which their own writers escape for their own format.
  rocewatch::lint::report::TerminalTextStream err(std::cerr);
  int code = rocewatch::lint::cli::RunCli(args, {std::cout, err});
  err.flush();
  return code;
}
