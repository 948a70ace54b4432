#pragma once

// One perftest pair over the `apply` runner's transport (lint/fix/batch.h: the same SSH command
// template, remote shell, host choice and process handling): the server's script on the server
// node, a moment for it to listen, the client's script on the client node, then the cleanup
// script on both nodes, whatever happened (a failed client, a timeout, an exception).

#include <atomic>
#include <functional>
#include <optional>
#include <string>

#include "lint/fix/batch.h"
#include "lint/fix/process.h"
#include "lint/plan/model.h"
#include "lint/verify/remote_script.h"

namespace rocewatch::lint::verify {

struct RunnerOptions {
  fix::BatchOptions transport;        // ssh_command, remote_shell, host_from, transport, log_dir
  std::string work_dir;               // where the rendered scripts are written
  double server_start_seconds = 2;    // between starting the server and starting the client
  double slack_seconds = 60;          // a run may take its duration plus this before it is killed
};

struct EndRun {
  std::string node, host;
  std::string command;           // the transport command line
  fix::ProcessResult process;
  std::optional<int> gid_index;  // what the node's script found
};

struct PerftestRun {
  enum class Outcome { kRan, kUnreachable, kFailed } outcome = Outcome::kFailed;
  std::string detail;            // why it failed / which node was unreachable and what ssh said
  std::string unreachable_node;
  EndRun server, client;
  std::string cleanup_output;    // what the cleanup scripts printed
};

// Runs `server` and `client` (PerftestScript) on their nodes; `while_running` is called (from
// this thread) once the client has started, e.g. to observe the exporters during the test; its
// argument says whether the client has ended already.
PerftestRun RunPerftest(const plan::Node& server_node, const PerftestInvocation& server,
                        const plan::Node& client_node, const PerftestInvocation& client,
                        const RunnerOptions& options,
                        const std::function<void(const std::function<bool()>&)>& while_running = nullptr);

// The last line of a failed end's output that says why (perftest's own error lines, our
// "rocewatch-verify: error:" lines), else its last line.
std::string FailureLine(const std::string& output);

}  // namespace rocewatch::lint::verify
