#pragma once

// A child process for the batch runner: `/bin/sh -c COMMAND` with its standard input from a
// file, standard output and error captured together, and a deadline after which its whole
// process group is killed. Safe to call from several threads at once (posix_spawn, close-on-exec
// pipes).

#include <cstddef>
#include <string>

namespace rocewatch::lint::fix {

struct ProcessResult {
  int exit_code = -1;  // the exit status; 128+N when killed by signal N; -1 when it did not start
  bool timed_out = false;   // killed at the deadline
  std::string output;       // stdout and stderr, interleaved as written (at most max_output bytes)
  std::string spawn_error;  // why it did not start
};

ProcessResult RunShellCommand(const std::string& command, const std::string& stdin_path,
                              double timeout_seconds, std::size_t max_output = 4u << 20);

}  // namespace rocewatch::lint::fix
