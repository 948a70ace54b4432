// roce-lint: checks the RoCE NICs of a GPU cluster against the cluster plan and each other.

#include <iostream>
#include <string>
#include <vector>

#include "lint/cli/commands.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return rocewatch::lint::cli::RunCli(args, {std::cout, std::cerr});
}
