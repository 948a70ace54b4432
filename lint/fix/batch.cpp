#include "lint/fix/batch.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include "lint/fix/process.h"
#include "lint/i18n/catalogue.h"
#include "lint/i18n/display_width.h"
#include "lint/fix/script.h"
#include "lint/fix/shell.h"
#include "rocewatch/escape.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::fix {
namespace {

namespace fs = std::filesystem;

// ssh's own failure (no connection, authentication) is exit status 255.
constexpr int kSshUnreachable = 255;

std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> out;
  for (auto line : Split(text, '\n')) {
    line = Trim(line);
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

std::optional<int> NumberAfter(std::string_view output, std::string_view key) {
  std::optional<int> found;
  for (auto line : Lines(output)) {
    if (line.rfind("rocewatch: ", 0) != 0) continue;
    for (auto word : Split(line, ' ')) {
      if (word.substr(0, key.size()) != key) continue;
      if (auto n = ParseU64(word.substr(key.size()))) found = static_cast<int>(*n);
    }
  }
  return found;
}

// Sets the reason of `r`: `id` with `args` (what the node printed among them).
void SetDetail(NodeResult& r, i18n::MessageId id, i18n::StoredArgs args) {
  r.detail_text = i18n::Store(id, std::move(args));
  r.detail = i18n::RenderOr(i18n::Language::kEnglish, r.detail_text, "");
}

// Argument `name`: `line` as the node printed it, or "no output" in each language when it printed
// nothing (LastLine's fallback).
void AddLineArg(i18n::StoredArgs& args, std::string name, std::string_view output, std::string line) {
  if (Lines(output).empty())
    i18n::AddMessageArg(args, std::move(name), "apply.detail.no_output", {});
  else
    args.emplace_back(std::move(name), std::move(line));
}

// Argument "what": precheck, script or rollback in each language.
void AddWhatArg(i18n::StoredArgs& args, std::string_view what) {
  i18n::AddMessageArg(args, "what",
                      what == "precheck" ? i18n::MessageId("apply.what.precheck")
                      : what == "rollback" ? i18n::MessageId("apply.what.rollback")
                                           : i18n::MessageId("apply.what.script"),
                      {});
}

struct Run {
  ProcessResult process;
  std::string command;
};

Run RunOnNode(const BatchOptions& options, const NodeResult& node, const std::string& script,
              const std::string& args) {
  Run run;
  run.command = TransportCommand(options, node.node, node.host, args);
  run.process = RunShellCommand(run.command, script, options.timeout_seconds);
  return run;
}

// Settles `r` from a run that did not end with 0; true when it did.
bool Settle(const BatchOptions& options, const Run& run, const char* what, NodeResult& r) {
  const ProcessResult& p = run.process;
  r.exit_code = p.exit_code;
  if (!p.spawn_error.empty()) {
    r.outcome = Outcome::kFailed;
    r.detail = p.spawn_error;
    return false;
  }
  if (p.timed_out) {
    r.outcome = Outcome::kFailed;
    i18n::StoredArgs args = {{"seconds", FormatDouble(options.timeout_seconds)}};
    AddWhatArg(args, what);
    SetDetail(r, "apply.detail.timed_out", std::move(args));
    return false;
  }
  if (options.transport == BatchOptions::Transport::kSsh && p.exit_code == kSshUnreachable) {
    r.outcome = Outcome::kUnreachable;
    r.detail = LastLine(p.output);  // ssh's own words
    if (Lines(p.output).empty()) SetDetail(r, "apply.detail.no_output", {});
    return false;
  }
  if (p.exit_code == kScriptPrecheckFailed) {
    r.outcome = Outcome::kSkipped;
    std::string reasons;
    for (const auto& problem : PrecheckProblems(p.output))
      reasons += (reasons.empty() ? "" : "; ") + problem;
    i18n::StoredArgs args;
    if (reasons.empty())
      AddLineArg(args, "reasons", p.output, LastLine(p.output));
    else
      args.emplace_back("reasons", reasons);
    SetDetail(r, "apply.detail.precheck", std::move(args));
    return false;
  }
  if (p.exit_code == kScriptOtherPlanBackup) {
    r.outcome = Outcome::kFailed;
    std::string why = LastLine(p.output);
    for (auto line : Lines(p.output))
      if (auto at = line.find("backup: "); at != std::string_view::npos)
        why = std::string(line.substr(at));
    i18n::StoredArgs args = {{"code", std::to_string(p.exit_code)}};
    AddWhatArg(args, what);
    AddLineArg(args, "line", p.output, why);
    SetDetail(r, "apply.detail.exit", std::move(args));
    return false;
  }
  if (p.exit_code != 0) {
    r.outcome = Outcome::kFailed;
    i18n::StoredArgs args = {{"code", std::to_string(p.exit_code)}};
    AddWhatArg(args, what);
    AddLineArg(args, "line", p.output, LastFailureLine(p.output));
    SetDetail(r, "apply.detail.exit", std::move(args));
    return false;
  }
  return true;
}

NodeResult RunNode(const plan::Node& node, const BatchOptions& options) {
  NodeResult r;
  r.node = node.name;
  r.host = options.host_from == BatchOptions::HostFrom::kName ? node.name : node.management_ip;
  // The node's name is a directory under --scripts: one that would leave it is never read.
  auto dir = escape::PathComponent(node.name);
  if (!dir) {
    r.outcome = Outcome::kFailed;
    SetDetail(r, "apply.detail.bad_node_name",
              {{"name", Quote(node.name)},
               {"dir", options.scripts_dir},
               {"problem", escape::PathComponentProblem(node.name)}});
    return r;
  }
  const fs::path script = fs::path(options.scripts_dir) / *dir / kScriptFileName;
  if (!fs::is_regular_file(script)) {
    r.outcome = Outcome::kNoScript;
    SetDetail(r, "apply.detail.no_script", {{"path", script.string()}});
    return r;
  }
  Run pre = RunOnNode(options, r, script.string(), "--precheck");
  r.output = "$ " + pre.command + " < " + script.string() + "\n" + pre.process.output;
  if (!Settle(options, pre, "precheck", r)) return r;
  if (options.precheck_only) {
    r.outcome = Outcome::kPrecheckPassed;
    return r;
  }
  std::string args = options.dry_run ? "--dry-run" : "";
  if (options.rollback) args = options.dry_run ? "--rollback --dry-run" : "--rollback";
  Run run = RunOnNode(options, r, script.string(), args);
  r.output += "$ " + run.command + " < " + script.string() + "\n" + run.process.output;
  if (!Settle(options, run, options.rollback ? "rollback" : "script", r)) return r;
  if (options.rollback) {
    r.changed = RestoredCount(run.process.output).value_or(0);
    r.outcome = NoBackup(run.process.output) ? Outcome::kNoBackup
                : options.dry_run            ? Outcome::kWouldRestore
                                             : Outcome::kRestored;
    return r;
  }
  r.changed = ChangedCount(run.process.output).value_or(0);
  r.outcome = options.dry_run ? Outcome::kWouldChange
              : r.changed > 0 ? Outcome::kChanged
                              : Outcome::kPassed;
  return r;
}

}  // namespace

std::string TransportCommand(const BatchOptions& options, const std::string& node,
                             const std::string& host, const std::string& args) {
  std::string remote = options.remote_shell + (args.empty() ? "" : " " + args);
  if (options.transport == BatchOptions::Transport::kLocal) return remote;
  std::string cmd = Replace(Replace(options.ssh_command, "{host}", escape::ShWord(host)), "{node}",
                            escape::ShWord(node));
  return cmd + " " + escape::ShWord(remote);
}

std::vector<std::string> PrecheckProblems(std::string_view output) {
  std::vector<std::string> out;
  for (auto line : Lines(output))
    if (line.rfind("precheck: ", 0) == 0) out.emplace_back(line.substr(10));
  return out;
}

std::optional<int> ChangedCount(std::string_view output) {
  if (auto n = NumberAfter(output, "changed=")) return n;
  return NumberAfter(output, "would_change=");
}

std::optional<int> RestoredCount(std::string_view output) {
  if (auto n = NumberAfter(output, "restored=")) return n;
  return NumberAfter(output, "would_restore=");
}

bool NoBackup(std::string_view output) {
  for (auto line : Lines(output))
    if (line.rfind("rocewatch: ", 0) == 0 && line.find(" backup=none") != std::string_view::npos)
      return true;
  return false;
}

std::string LastLine(std::string_view output) {
  auto lines = Lines(output);
  return lines.empty() ? "no output" : std::string(lines.back());
}

std::string LastFailureLine(std::string_view output) {
  auto lines = Lines(output);
  for (auto it = lines.rbegin(); it != lines.rend(); ++it)
    if (it->find("FAILED") != std::string_view::npos) return std::string(*it);
  return LastLine(output);
}

bool IsSuccess(Outcome outcome) {
  switch (outcome) {
    case Outcome::kPassed:
    case Outcome::kChanged:
    case Outcome::kWouldChange:
    case Outcome::kPrecheckPassed:
    case Outcome::kNoScript:
    case Outcome::kRestored:
    case Outcome::kNoBackup:
    case Outcome::kWouldRestore:
      return true;
    default:
      return false;
  }
}

std::string ResultText(const NodeResult& r, i18n::Language lang) {
  const std::initializer_list<i18n::Arg> n = {{"n", std::to_string(r.changed)}};
  const std::initializer_list<i18n::Arg> detail = {{"detail", i18n::RenderOr(lang, r.detail_text, r.detail)}};
  const bool one = r.changed == 1;
  switch (r.outcome) {
    case Outcome::kPassed:
      return i18n::Render(lang, "apply.result.passed");
    case Outcome::kChanged:
      return one ? i18n::Render(lang, "apply.result.changed.one", n)
                 : i18n::Render(lang, "apply.result.changed.many", n);
    case Outcome::kWouldChange:
      return one ? i18n::Render(lang, "apply.result.would_change.one", n)
                 : i18n::Render(lang, "apply.result.would_change.many", n);
    case Outcome::kPrecheckPassed:
      return i18n::Render(lang, "apply.result.precheck_passed");
    case Outcome::kNoScript:
      return i18n::Render(lang, "apply.result.no_script", detail);
    case Outcome::kSkipped:
      return i18n::Render(lang, "apply.result.skipped", detail);
    case Outcome::kFailed:
      return i18n::Render(lang, "apply.result.failed", detail);
    case Outcome::kUnreachable:
      return i18n::Render(lang, "apply.result.unreachable", detail);
    case Outcome::kRestored:
      if (r.changed == 0) return i18n::Render(lang, "apply.result.restored_nothing");
      return one ? i18n::Render(lang, "apply.result.restored.one", n)
                 : i18n::Render(lang, "apply.result.restored.many", n);
    case Outcome::kNoBackup:
      return i18n::Render(lang, "apply.result.no_backup");
    case Outcome::kWouldRestore:
      return one ? i18n::Render(lang, "apply.result.would_restore.one", n)
                 : i18n::Render(lang, "apply.result.would_restore.many", n);
  }
  return "?";
}

std::vector<NodeResult> RunBatch(const std::vector<const plan::Node*>& nodes,
                                 const BatchOptions& options) {
  std::vector<NodeResult> results(nodes.size());
  std::atomic<std::size_t> next{0};
  std::size_t done = 0;
  std::mutex mu;
  auto worker = [&] {
    for (std::size_t i = next++; i < nodes.size(); i = next++) {
      NodeResult r = RunNode(*nodes[i], options);
      // <log_dir>/<node>.log, never anywhere else: a name that is not a file name gets no log
      // (its result says why). The script's output comes from the node (hostile): it is
      // quoted as foreign lines, so it cannot forge our "# result:" line or drive a terminal.
      if (!options.log_dir.empty() && escape::PathComponent(r.node)) {
        std::error_code ec;
        fs::create_directories(options.log_dir, ec);
        std::ofstream(fs::path(options.log_dir) / (r.node + ".log"), std::ios::trunc)
            << escape::ForeignLogLines(r.output) << escape::OwnLogLine("# result: ", ResultText(r));
      }
      std::lock_guard lock(mu);
      results[i] = std::move(r);
      ++done;
      if (options.on_result) options.on_result(results[i], done, nodes.size());
    }
  };
  std::size_t n_threads = std::min<std::size_t>(
      nodes.size(), static_cast<std::size_t>(std::max(1, options.concurrency)));
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < n_threads; ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  return results;
}

void WriteSummaryTable(std::ostream& out, const std::vector<NodeResult>& results,
                       i18n::Language lang) {
  // Names from the plan and lines the nodes printed: one table row each, whatever they hold.
  const std::string node_head = i18n::Render(lang, "apply.column.node");
  const std::string host_head = i18n::Render(lang, "apply.column.host");
  std::vector<std::string> nodes, hosts;
  std::size_t w_node = i18n::DisplayWidth(node_head), w_host = i18n::DisplayWidth(host_head);
  for (const auto& r : results) {
    nodes.push_back(escape::TerminalText(r.node));
    hosts.push_back(escape::TerminalText(r.host));
    w_node = std::max(w_node, i18n::DisplayWidth(nodes.back()));
    w_host = std::max(w_host, i18n::DisplayWidth(hosts.back()));
  }
  out << i18n::PadToWidth(node_head, w_node) << "  " << i18n::PadToWidth(host_head, w_host) << "  "
      << i18n::Render(lang, "apply.column.result") << "\n";
  std::size_t count[11] = {};
  for (std::size_t i = 0; i < results.size(); ++i) {
    const NodeResult& r = results[i];
    out << i18n::PadToWidth(nodes[i], w_node) << "  " << i18n::PadToWidth(hosts[i], w_host) << "  "
        << escape::TerminalText(ResultText(r, lang)) << "\n";
    ++count[static_cast<int>(r.outcome)];
  }
  std::string parts;
  struct Count {
    Outcome outcome;
    i18n::MessageId id;
  };
  static constexpr Count kCounts[] = {{Outcome::kChanged, "apply.count.changed"},
                                      {Outcome::kPassed, "apply.count.passed"},
                                      {Outcome::kWouldChange, "apply.count.would_change"},
                                      {Outcome::kPrecheckPassed, "apply.count.precheck_passed"},
                                      {Outcome::kNoScript, "apply.count.no_script"},
                                      {Outcome::kRestored, "apply.count.restored"},
                                      {Outcome::kNoBackup, "apply.count.no_backup"},
                                      {Outcome::kWouldRestore, "apply.count.would_restore"},
                                      {Outcome::kSkipped, "apply.count.skipped"},
                                      {Outcome::kFailed, "apply.count.failed"},
                                      {Outcome::kUnreachable, "apply.count.unreachable"}};
  for (const auto& [outcome, id] : kCounts) {
    std::size_t n = count[static_cast<int>(outcome)];
    bool always = outcome == Outcome::kSkipped || outcome == Outcome::kFailed ||
                  outcome == Outcome::kUnreachable;
    if (n == 0 && !always) continue;
    if (!parts.empty()) parts += i18n::Render(lang, "list.separator");
    parts += i18n::Render(lang, id, {{"n", std::to_string(n)}});
  }
  const std::initializer_list<i18n::Arg> args = {{"n", std::to_string(results.size())},
                                                 {"counts", parts}};
  out << (results.size() == 1 ? i18n::Render(lang, "apply.summary.one", args)
                              : i18n::Render(lang, "apply.summary.many", args))
      << "\n";
}

}  // namespace rocewatch::lint::fix
