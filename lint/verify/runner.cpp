#include "lint/verify/runner.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "rocewatch/escape.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::verify {
namespace {

namespace fs = std::filesystem;

constexpr int kSshUnreachable = 255;  // ssh's own failure (batch.cpp says the same)
constexpr double kCleanupTimeoutSeconds = 30;

std::string HostOf(const fix::BatchOptions& o, const plan::Node& node) {
  return o.host_from == fix::BatchOptions::HostFrom::kName ? node.name : node.management_ip;
}

std::string WriteScript(const RunnerOptions& o, const std::string& name, const std::string& text) {
  fs::path path = fs::path(o.work_dir) / name;
  std::ofstream(path, std::ios::trunc) << text;
  return path.string();
}

std::optional<int> GidIndex(const std::string& output) {
  for (auto line : Split(output, '\n')) {
    line = Trim(line);
    constexpr std::string_view kKey = "rocewatch-verify: gid_index=";
    if (line.substr(0, kKey.size()) == kKey)
      if (auto n = ParseU64(line.substr(kKey.size())); n && *n < 1u << 16) return static_cast<int>(*n);
  }
  return std::nullopt;
}

EndRun RunEnd(const RunnerOptions& o, const plan::Node& node, const std::string& script,
              double timeout) {
  EndRun r;
  r.node = node.name;
  r.host = HostOf(o.transport, node);
  r.command = fix::TransportCommand(o.transport, node.name, r.host, "");
  r.process = fix::RunShellCommand(r.command, script, timeout);
  r.gid_index = GidIndex(r.process.output);
  return r;
}

bool Unreachable(const RunnerOptions& o, const EndRun& e) {
  return o.transport.transport == fix::BatchOptions::Transport::kSsh &&
         e.process.exit_code == kSshUnreachable && !e.gid_index;
}

std::string Describe(const char* role, const EndRun& e, double timeout) {
  const auto& p = e.process;
  if (!p.spawn_error.empty()) return std::string(role) + " " + e.node + ": " + p.spawn_error;
  if (p.timed_out)
    return std::string(role) + " " + e.node + ": timed out after " + FormatDouble(timeout) +
           "s: " + FailureLine(p.output);
  return std::string(role) + " " + e.node + " exit " + std::to_string(p.exit_code) + ": " +
         FailureLine(p.output);
}

std::string ToLower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

}  // namespace

std::string FailureLine(const std::string& output) {
  std::string last, reason;
  for (auto line : Split(output, '\n')) {
    line = Trim(line);
    if (line.empty()) continue;
    last = std::string(line);
    std::string lower = ToLower(last);
    for (const char* mark : {"rocewatch-verify: error", "couldn't", "unable", "error", "failed",
                             "not found", "did not detect", "no ib devices", "refused", "timed out"})
      if (lower.find(mark) != std::string::npos) {
        reason = last;
        break;
      }
  }
  if (reason.empty()) reason = last.empty() ? "no output" : last;
  const std::string prefix = "rocewatch-verify: error: ";
  if (reason.rfind(prefix, 0) == 0) reason = reason.substr(prefix.size());
  return reason;
}

PerftestRun RunPerftest(const plan::Node& server_node, const PerftestInvocation& server,
                        const plan::Node& client_node, const PerftestInvocation& client,
                        const RunnerOptions& o,
                        const std::function<void(const std::function<bool()>&)>& while_running) {
  PerftestRun run;
  const std::string tag = RandomToken().substr(0, 12);
  // Every script rendered before anything runs on a node.
  const Result<std::string> texts[] = {PerftestScript(server), PerftestScript(client),
                                       CleanupScript(server.pid_file),
                                       CleanupScript(client.pid_file)};
  for (const auto& text : texts)
    if (!text) {
      run.detail = text.error().message;
      return run;
    }
  const std::string server_script = WriteScript(o, tag + "-server.sh", *texts[0]);
  const std::string client_script = WriteScript(o, tag + "-client.sh", *texts[1]);
  const double server_timeout = server.timeout_seconds + o.server_start_seconds + 10;
  const double client_timeout = client.timeout_seconds + 10;

  EndRun server_end;
  std::atomic<bool> server_done{false};
  std::thread server_thread([&] {
    server_end = RunEnd(o, server_node, server_script, server_timeout);
    server_done = true;
  });
  // Whatever happens below, both ends are cleaned up and the server thread joined.
  struct Cleanup {
    std::function<void()> fn;
    ~Cleanup() { fn(); }
  } cleanup{[&] {
    const std::string script = WriteScript(o, tag + "-cleanup-server.sh", *texts[2]);
    const std::string cscript = WriteScript(o, tag + "-cleanup-client.sh", *texts[3]);
    for (auto [node, path] : {std::pair{&server_node, script}, std::pair{&client_node, cscript}}) {
      auto host = HostOf(o.transport, *node);
      auto p = fix::RunShellCommand(fix::TransportCommand(o.transport, node->name, host, ""), path,
                                    kCleanupTimeoutSeconds);
      run.cleanup_output += p.output;
    }
    if (server_thread.joinable()) server_thread.join();
    std::error_code ec;
    for (const char* suffix : {"-server.sh", "-client.sh", "-cleanup-server.sh", "-cleanup-client.sh"})
      fs::remove(fs::path(o.work_dir) / (tag + suffix), ec);
  }};

  // The server has a moment to listen; a server that ended already (no device, unreachable)
  // ends the pair without a client run.
  const auto until = std::chrono::steady_clock::now() +
                     std::chrono::milliseconds(static_cast<long>(o.server_start_seconds * 1000));
  std::thread client_thread;
  EndRun client_end;
  std::this_thread::sleep_until(until);
  std::atomic<bool> client_done{false};
  // A server that ended already (unreachable, no device, no GID) gets no client.
  if (server_done) {
    client_end.node = client_node.name;
    client_end.host = HostOf(o.transport, client_node);
    client_end.process.spawn_error = "not started: the server ended first";
    client_done = true;
  } else {
    client_thread = std::thread([&] {
      client_end = RunEnd(o, client_node, client_script, client_timeout);
      client_done = true;
    });
  }
  if (while_running) while_running([&] { return client_done.load(); });
  if (client_thread.joinable()) client_thread.join();
  if (client_end.process.exit_code != 0 || client_end.process.timed_out) {
    // The server will not get a client now: stop it before waiting for it.
    cleanup.fn();
    cleanup.fn = [] {};
  } else {
    server_thread.join();
    cleanup.fn();
    cleanup.fn = [] {};
  }
  run.server = std::move(server_end);
  run.client = std::move(client_end);

  if (Unreachable(o, run.server) || Unreachable(o, run.client)) {
    const EndRun& e = Unreachable(o, run.server) ? run.server : run.client;
    run.outcome = PerftestRun::Outcome::kUnreachable;
    run.unreachable_node = e.node;
    run.detail = e.node + " (" + e.host + "): " + FailureLine(e.process.output);
    return run;
  }
  // The server's error explains the client's ("Couldn't connect"), so it comes first.
  if (run.server.process.exit_code != 0 && !run.server.process.timed_out &&
      run.server.process.exit_code != 128 + 15 && run.server.process.exit_code != 124) {
    run.outcome = PerftestRun::Outcome::kFailed;
    run.detail = Describe("server", run.server, server_timeout);
    return run;
  }
  if (run.client.process.exit_code != 0 || run.client.process.timed_out) {
    run.outcome = PerftestRun::Outcome::kFailed;
    run.detail = Describe("client", run.client, client_timeout);
    return run;
  }
  run.outcome = PerftestRun::Outcome::kRan;
  return run;
}

}  // namespace rocewatch::lint::verify
