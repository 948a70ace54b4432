#pragma once

// The batch runner of `roce-lint apply`: for every node, its rendered script (DIR/<node>/
// rocewatch-roce-config.sh) is fed to a shell on the node (`ssh HOST sh -s -- ARGS < script`),
// first with --precheck, then for real, `concurrency` nodes at a time. Nodes whose precheck
// fails are skipped; the result of each node is one row of a summary table.

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "lint/i18n/catalogue.h"
#include "lint/i18n/language.h"
#include "lint/plan/model.h"

namespace rocewatch::lint::fix {

struct NodeResult;

struct BatchOptions {
  std::string scripts_dir;  // what `roce-lint fix --output-dir` wrote
  enum class Transport { kSsh, kLocal } transport = Transport::kSsh;
  // The command that reaches a node; {host} and {node} are replaced (shell-quoted), and the
  // remote command is appended as one argument.
  std::string ssh_command = "ssh -o BatchMode=yes -o ConnectTimeout=10 {host}";
  std::string remote_shell = "sh -s --";  // reads the script from standard input
  enum class HostFrom { kManagementIp, kName } host_from = HostFrom::kManagementIp;
  int concurrency = 10;
  double timeout_seconds = 600;  // per script run
  bool dry_run = false;          // run the scripts with --dry-run
  bool precheck_only = false;    // run only the precheck
  bool rollback = false;  // run the scripts with --rollback (with dry_run: --rollback --dry-run)
  std::string log_dir;    // when set: <log_dir>/<node>.log with everything each node printed
  // Called once per finished node (from the worker threads, one at a time).
  std::function<void(const NodeResult&, std::size_t done, std::size_t total)> on_result;
};

enum class Outcome {
  kPassed,          // every setting already as planned
  kChanged,         // settings changed, none failed
  kWouldChange,     // --dry-run
  kPrecheckPassed,  // --precheck-only
  kNoScript,        // nothing rendered for this node
  kSkipped,         // precheck failed: nothing changed
  kFailed,          // the script failed or a setting could not be set
  kUnreachable,     // ssh could not reach the node
  kRestored,        // --rollback: settings restored (or, --dry-run, that would be), none failed
  kNoBackup,        // --rollback: the node holds no backup, nothing restored
  kWouldRestore,    // --rollback --dry-run
};

struct NodeResult {
  std::string node;
  std::string host;
  Outcome outcome = Outcome::kFailed;
  int changed = 0;     // settings changed, or restored (or, --dry-run, that would be)
  int exit_code = -1;  // of the last script run
  std::string detail;  // the reason of skipped / failed / unreachable
  std::string output;  // everything the node printed (precheck, then the run)
  // `detail` as a catalogue message ("apply.detail.*") whose arguments hold what the node printed
  // as it printed it; an empty ID: `detail` is only the node's (or ssh's) own text.
  i18n::StoredMessage detail_text{};
};

std::vector<NodeResult> RunBatch(const std::vector<const plan::Node*>& nodes,
                                 const BatchOptions& options);

// "changed 3 settings", "skipped: precheck: mlx5_9 not in /sys/class/infiniband; …", in `lang`
// (lint/i18n/; what the node printed stays as it printed it). Logs keep English.
std::string ResultText(const NodeResult& result, i18n::Language lang = i18n::Language::kEnglish);
// Whether the node ended as it should (passed, changed, would change, precheck passed, no script).
bool IsSuccess(Outcome outcome);

// node | host | result, then one line of counts.
void WriteSummaryTable(std::ostream& out, const std::vector<NodeResult>& results,
                       i18n::Language lang = i18n::Language::kEnglish);

// The parts of a script's output the runner reads (docs/fix.md "The script", its output).
std::vector<std::string> PrecheckProblems(
    std::string_view output);                               // "precheck: …" lines, prefix removed
std::optional<int> ChangedCount(std::string_view output);   // changed=N / would_change=N
std::optional<int> RestoredCount(std::string_view output);  // restored=N / would_restore=N
bool NoBackup(std::string_view output);                     // the summary says backup=none
std::string LastFailureLine(std::string_view output);       // last "FAILED" line, else last line
std::string LastLine(std::string_view output);

// The shell command line that runs the remote shell with `args` on `node` at `host`.
std::string TransportCommand(const BatchOptions& options, const std::string& node,
                             const std::string& host, const std::string& args);

}  // namespace rocewatch::lint::fix
