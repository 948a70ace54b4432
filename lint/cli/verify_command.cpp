// roce-lint verify PLAN: the acceptance test. perftest between pairs of NICs over SSH (the
// `apply` runner's transport), both exporters read before, during and after each test, and a
// verdict per pair (docs/verify.md).

#include <filesystem>
#include <fstream>
#include <sstream>

#include "lint/cli/commands.h"
#include "lint/cli/common_flags.h"
#include "lint/cli/exit_codes.h"
#include "lint/cli/transport_flags.h"
#include "lint/cli/usable_plan.h"
#include "lint/plan/load.h"
#include "lint/verify/busy_ports.h"
#include "lint/verify/pair_counters.h"
#include "lint/verify/pair_log.h"
#include "lint/verify/report.h"
#include "lint/verify/run.h"
#include "rocewatch/duration.h"
#include "rocewatch/escape.h"
#include "rocewatch/read_file.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* kUsage =
    "usage: roce-lint verify PLAN [flags]\n"
    "\n"
    "Runs perftest between pairs of planned NICs, over SSH, in rounds so that no NIC is in two\n"
    "tests at once; reads both nodes' exporters before, during and after each test; judges each\n"
    "pair: bandwidth against the profile's share of the line rate, pause frames on priorities\n"
    "without PFC, the share of the test a priority was paused, retransmissions, discards, link\n"
    "flaps (thresholds: profiles.*.verify, docs/verify.md).\n"
    "\n"
    "  --pairs rail|all|FILE   rail (default): every NIC with a partner on its rail; all: every\n"
    "                          two NICs of a rail; FILE: \"NODE[/IBDEV] NODE[/IBDEV]\" a line,\n"
    "                          server first\n"
    "  --duration DURATION     each bandwidth test (default 60s; perftest -D)\n"
    "  --size BYTES            message size (default the profile's verify.message_bytes, 65536)\n"
    "  --bidirectional         both directions at once (perftest -b)\n"
    "  --tool NAME             ib_write_bw (default), ib_read_bw, ib_send_bw, ib_write_lat,\n"
    "                          ib_read_lat or ib_send_lat\n"
    "  --list                  print the rounds and each end's perftest command; run nothing\n"
    "  --format text|json|junit  report format (default text: a per-pair table, then what failed)\n"
    "  --lang en|zh            language of the text report\n"
    "  --output FILE           write the report there instead of standard output\n"
    "  --log-dir DIR           everything both ends printed, DIR/<round>-<n>.log per pair\n"
    "  --allow-busy-ports      test ports that jobs hold QPs on (by default verify refuses them:\n"
    "                          the exporter's per-job view, --collector.rdma.per-job, names them)\n"
    "\n"
    "How nodes are reached (the same as roce-lint apply):\n"
    "  --concurrency N         pairs of a round at once (default 10)\n"
    "  --transport ssh|local   ssh (default), or a local shell for every node (tests)\n"
    "  --ssh-command TEMPLATE  {host} and {node} replaced, the remote command appended (default\n"
    "                          \"ssh -o BatchMode=yes -o ConnectTimeout=10 {host}\")\n"
    "  --host management-ip|name  what {host} is (default management-ip)\n"
    "  --remote-shell CMD      the shell that reads the script on the node (default \"sh -s --\")\n"
    "  --server-start DURATION between starting the server and the client (default 2s)\n"
    "  --port N                perftest's TCP port for the first pair of a round (default 18515)\n"
    "\n"
    "How the exporters are read (directly, as the plan names them):\n"
    "  --scrape-timeout DURATION  per scrape (default 5s)\n"
    "  --scheme http|https     (default http)\n"
    "\n"
    "Exit codes: 0 every pair passed, 1 a pair failed, broke or was unreachable, 2 unusable input or a\n"
    "port a job is using (see --allow-busy-ports).\n";

const std::vector<std::string> kTools = {"ib_write_bw", "ib_read_bw", "ib_send_bw",
                                         "ib_write_lat", "ib_read_lat", "ib_send_lat"};

}  // namespace

int RunVerifyCommand(const std::vector<std::string>& args, CommandIo io) {
  std::vector<FlagSpec> specs = {
      kHelpFlag,           kFormatFlag,          {"--lang", "", true},       {"--output", "-o", true},
      {"--pairs", "", true}, {"--duration", "", true}, {"--size", "", true},     {"--bidirectional", "", false},
      {"--tool", "", true},  {"--list", "", false},    {"--log-dir", "", true},  {"--concurrency", "", true},
      {"--server-start", "", true}, {"--port", "", true}, {"--allow-busy-ports", "", false},
      {"--scrape-timeout", "", true}, {"--scheme", "", true}};
  specs.insert(specs.end(), TransportFlagSpecs().begin(), TransportFlagSpecs().end());
  auto parsed = ParseArgs(args, specs);
  if (!parsed.ok()) {
    io.err << "roce-lint verify: " << parsed.error().message << "\n";
    return kExitUnusable;
  }
  if (parsed->Has("--help")) {
    io.out << kUsage;
    return kExitClean;
  }
  auto fail = [&](const std::string& message) {
    io.err << "roce-lint verify: " << escape::TerminalText(message) << "\n";
    return kExitUnusable;
  };
  if (parsed->positional.size() != 1)
    return fail("expected one plan file, got " + std::to_string(parsed->positional.size()) + " (see --help)");
  const std::string format = parsed->Value("--format").value_or("text");
  if (format != "text" && format != "json" && format != "junit")
    return fail("--format " + Quote(format) + " is not one of: text, json, junit");
  const auto lang = ParseLang(parsed->Value("--lang"));
  if (!lang) return fail(lang.error().message);
  auto duration = [&](const char* flag, double fallback, double lo, double hi) -> std::optional<double> {
    auto v = parsed->Value(flag);
    if (!v) return fallback;
    auto d = ParseDuration(*v);
    if (!d || *d < lo || *d > hi) return std::nullopt;
    return *d;
  };

  verify::VerifyOptions o;
  auto d = duration("--duration", 60, 1, 86400);
  if (!d) return fail("--duration: expected a duration from 1s to 24h, such as 60s or 10m");
  o.duration_seconds = *d;
  auto start = duration("--server-start", 2, 0, 60);
  if (!start) return fail("--server-start: expected a duration up to 60s, such as 2s");
  o.runner.server_start_seconds = *start;
  auto st = duration("--scrape-timeout", 5, 0.1, 600);
  if (!st) return fail("--scrape-timeout: expected a duration such as 5s");
  o.scrape.timeout_seconds = *st;
  o.scrape.scheme = parsed->Value("--scheme").value_or("http");
  if (o.scrape.scheme != "http" && o.scrape.scheme != "https") return fail("--scheme: expected http or https");
  if (auto s = parsed->Value("--size")) {
    auto n = ParseU64(*s);
    if (!n || *n == 0 || *n > (1u << 30)) return fail("--size " + Quote(*s) + ": expected 1 to 1073741824 bytes");
    o.message_bytes = static_cast<std::int64_t>(*n);
  }
  o.bidirectional = parsed->Has("--bidirectional");
  o.tool = parsed->Value("--tool").value_or("ib_write_bw");
  if (std::find(kTools.begin(), kTools.end(), o.tool) == kTools.end()) {
    std::string msg = "--tool " + Quote(o.tool) + " is not one of: ib_write_bw, ib_read_bw, ib_send_bw, ib_write_lat, ib_read_lat, ib_send_lat";
    if (auto s = DidYouMean(o.tool, kTools)) msg += "; did you mean \"" + *s + "\"?";
    return fail(msg);
  }
  if (o.bidirectional && o.tool.find("_lat") != std::string::npos)
    return fail("--bidirectional applies to the bandwidth tools only");
  if (auto p = parsed->Value("--port")) {
    auto n = ParseU64(*p);
    if (!n || *n < 1024 || *n > 60000) return fail("--port " + Quote(*p) + ": expected 1024 to 60000");
    o.base_tcp_port = static_cast<int>(*n);
  }
  fix::BatchOptions& t = o.runner.transport;
  if (auto n = parsed->Value("--concurrency")) {
    auto c = ParseU64(*n);
    if (!c || *c == 0 || *c > 1024) return fail("--concurrency " + Quote(*n) + ": expected 1 to 1024");
    t.concurrency = static_cast<int>(*c);
  }
  if (auto error = ReadTransportFlags(*parsed, t)) return fail(*error);
  const std::string log_dir = parsed->Value("--log-dir").value_or("");

  const std::string& plan_path = parsed->positional.front();
  auto loaded = LoadUsablePlan("verify", plan_path, io.err, *lang);
  if (!loaded) return kExitUnusable;
  const plan::Plan& plan = loaded->plan;

  verify::VerifyRunInfo info;
  info.plan = plan_path;
  info.tool = o.tool;
  info.duration_seconds = o.duration_seconds;
  std::vector<verify::Pair> pairs;
  const std::string mode = parsed->Value("--pairs").value_or("rail");
  if (mode == "rail" || mode == "all") {
    pairs = verify::PairsFromPlan(plan, mode == "all" ? verify::PairMode::kAll : verify::PairMode::kRail,
                                  &info.unpaired);
    if (pairs.empty())
      return fail("no pairs: no two NICs of " + plan_path + " share a rail (give nics[].rail, or --pairs FILE)");
  } else {
    auto text = ReadFileCapped(mode, 4u << 20);
    if (!text.ok()) return fail("--pairs " + mode + ": " + text.error().message);
    auto from_file = verify::ParsePairsFile(*text, mode, plan);
    if (!from_file.ok()) {
      io.err << "roce-lint verify: --pairs " << escape::TerminalText(mode) << ":\n";
      for (auto line : Split(from_file.error().message, '\n')) io.err << "  " << escape::TerminalText(line) << "\n";
      return kExitUnusable;
    }
    pairs = std::move(*from_file);
  }
  const auto rounds = verify::ScheduleRounds(pairs);

  if (parsed->Has("--list")) {
    for (std::size_t r = 0; r < rounds.size(); ++r) {
      io.out << "round " << r + 1 << ":\n";
      for (std::size_t i = 0; i < rounds[r].size(); ++i) {
        const auto& p = rounds[r][i];
        const plan::Profile* profile = plan.FindProfile(plan.nodes[p.server.node].nics[p.server.nic].profile);
        auto th = profile ? verify::ThresholdsFor(*profile) : verify::Thresholds{};
        io.out << "  " << escape::TerminalText(verify::PairName(plan, p)) << "  (" << escape::TerminalText(p.origin) << ")\n";
        for (bool client : {false, true}) {
          auto inv = verify::InvocationFor(plan, p, client, th, o, o.base_tcp_port + static_cast<int>(i), "list");
          const auto& node = plan.nodes[client ? p.client.node : p.server.node];
          io.out << "    " << (client ? "client " : "server ") << escape::TerminalText(node.name) << ": "
                 << escape::TerminalText(inv.ok() ? o.tool + " -x GID_INDEX " + verify::PerftestArguments(*inv)
                                                  : inv.error().message)
                 << "\n";
        }
      }
    }
    return kExitClean;
  }

  // A port a job is using is not tested unless told to: the test would compete with the job.
  {
    const auto nodes = verify::NodesOf(rounds);
    const auto ports = verify::FindBusyPorts(plan, rounds, nodes, verify::ScrapeSome(plan, nodes, o.scrape));
    for (const auto& line : ports.unknown)
      io.err << "roce-lint verify: cannot tell whether a job uses " << escape::TerminalText(line) << "\n";
    if (!ports.busy.empty()) {
      const bool allowed = parsed->Has("--allow-busy-ports");
      io.err << "roce-lint verify: " << (allowed ? "testing ports" : "refusing to test ports")
             << " that jobs hold QPs on" << (allowed ? " (--allow-busy-ports)" : "") << ":\n";
      for (const auto& line : ports.busy) io.err << "  " << escape::TerminalText(line) << "\n";
      if (!allowed) {
        io.err << "roce-lint verify: wait for the jobs to end, drain the nodes, or run with --allow-busy-ports\n";
        return kExitUnusable;
      }
    }
  }

  // The rendered scripts live in a private directory for the run.
  std::error_code ec;
  fs::path work = fs::temp_directory_path(ec) / ("roce-lint-verify-" + verify::RandomToken().substr(0, 12));
  fs::create_directories(work, ec);
  if (ec) return fail("cannot create " + work.string() + ": " + ec.message());
  fs::permissions(work, fs::perms::owner_all, ec);
  o.runner.work_dir = work.string();
  std::size_t logged = 0;
  o.on_result = [&](const verify::PairResult& r, std::size_t done, std::size_t total) {
    io.err << "[" << done << "/" << total << "] "
           << escape::TerminalText(r.name + ": " + verify::StatusName(r.status) +
                                   (r.bandwidth_gbps ? " " + verify::BandwidthCell(r) + " Gb/s" : "") +
                                   (r.detail.empty() ? "" : " " + r.detail))
           << "\n";
    io.err.flush();
    if (!log_dir.empty()) {
      fs::create_directories(log_dir, ec);
      std::ofstream(fs::path(log_dir) / ("round" + std::to_string(r.round) + "-" +
                                         std::to_string(++logged) + ".log"),
                    std::ios::trunc)
          << verify::PairLogText(r);
    }
  };
  auto results = verify::RunVerify(plan, rounds, o);
  fs::remove_all(work, ec);

  std::ofstream file;
  std::ostream* out = &io.out;
  if (auto path = parsed->Value("--output")) {
    file.open(*path, std::ios::trunc);
    if (!file) return fail("cannot write " + *path);
    out = &file;
  }
  if (format == "json") {
    *out << verify::VerifyJson(results, info).dump(2) << "\n";
  } else if (format == "junit") {
    verify::WriteVerifyJUnit(*out, results, info);
  } else {
    verify::WriteVerifyText(*out, results, info,
                            *lang);
  }
  for (const auto& r : results)
    if (r.status != verify::PairStatus::kPass) return kExitFindings;
  return kExitClean;
}

}  // namespace rocewatch::lint::cli
