// roce-lint serve PLAN: the checks as a daemon, feeding Prometheus and Alertmanager.

#include <csignal>
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <iostream>
#include <thread>

#include <prometheus/text_serializer.h>

#include "http/http_log.h"
#include "http/listen_address.h"
#include "http/server.h"
#include "http/web_config_reloader.h"

#include "lint/cli/commands.h"
#include "lint/cli/exit_codes.h"
#include "lint/cli/observe_flags.h"
#include "lint/cli/switch_flags.h"
#include "lint/serve/daemon.h"
#include "rocewatch/duration.h"
#include "rocewatch/escape.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::cli {
namespace {

constexpr const char* kUsage =
    "usage: roce-lint serve PLAN [flags]\n"
    "\n"
    "Evaluates the checks every --interval, serves the open findings on /metrics\n"
    "(roce_lint_finding{node,device,netdev,check,severity} and the run's status) and pushes them\n"
    "to Alertmanager as alerts that resolve when fixed. Reloads the plan on SIGHUP or when the\n"
    "file changes, keeping the last good plan when the new one is invalid. Counter checks compare\n"
    "consecutive runs; with --prometheus, each run reads the counter window (--window, default 5m)\n"
    "from the store, the switches' pause counters too (--switch-counters).\n"
    "\n";

const std::vector<FlagSpec>& CommandSpecs() {
  static const std::vector<FlagSpec> kSpecs = {
      {"--interval", "", true, "time between evaluations (default 60s)", "DURATION"},
      {"--web.listen-address", "", true, "where to serve /metrics (default :9880)", "ADDR"},
      {"--alertmanager", "", true, "comma-separated Alertmanager base URLs (none: no pushes)",
       "URLS"},
      {"--alertmanager.resend", "", true,
       "how long a pushed alert stays firing without a new push\n(default 4 intervals)",
       "DURATION"},
      {"--cluster", "", true, "the cluster label on alerts (default: the plan's cluster)", "NAME"},
      {"--web.config.file", "", true,
       "TLS and basic auth for /metrics, in exporter-toolkit's\n"
       "format (as roce_exporter; docs/security.md)",
       "FILE"},
      {"--help", "-h", false, "show this help and exit"}};
  return kSpecs;
}

std::atomic<int> g_signal{0};

// How long SIGTERM/SIGINT waits for the run in flight before the process ends without it.
constexpr std::chrono::seconds kStopGrace{3};

void LogToStderr(http::http_log::Level level, std::string_view msg,
                 const http::http_log::Fields& fields) {
  if (level < http::http_log::Level::kWarn) return;
  std::string line = "roce-lint serve: " + escape::TerminalText(msg);
  for (const auto& [k, v] : fields) line += " " + std::string(k) + "=" + Quote(v);
  std::cerr << line << "\n";
}

// /metrics: the daemon's families (the open findings and the run's status), as text.
http::HttpResponse MetricsAnswer(const serve::Daemon& daemon) {
  prometheus::TextSerializer serializer;
  http::HttpResponse r;
  r.headers.emplace_back("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
  r.body = serializer.Serialize(daemon.Collect());
  return r;
}

}  // namespace

int RunServeCommand(const std::vector<std::string>& args, CommandIo io) {
  std::vector<FlagSpec> specs = ObserveFlagSpecs();
  specs.insert(specs.end(), CommandSpecs().begin(), CommandSpecs().end());
  specs.insert(specs.end(), SwitchFlagSpecs().begin(), SwitchFlagSpecs().end());
  auto parsed = ParseArgs(args, specs);
  if (!parsed.ok()) {
    io.err << "roce-lint serve: " << parsed.error().message << "\n";
    return kExitUnusable;
  }
  if (parsed->Has("--help")) {
    io.out << kUsage << FlagUsage(CommandSpecs()) << FlagUsage(SwitchFlagSpecs()) << "\n" << ObserveFlagsHelp();
    return kExitClean;
  }
  if (parsed->positional.size() != 1) {
    io.err << "roce-lint serve: expected one plan file (see --help)\n";
    return kExitUnusable;
  }
  serve::DaemonOptions options;
  options.plan_path = parsed->positional.front();
  auto interval = ParseDuration(parsed->Value("--interval").value_or("60s"));
  if (!interval || *interval < 1) {
    io.err << "roce-lint serve: --interval: " << (interval ? "must be at least 1s" : interval.error().message) << "\n";
    return kExitUnusable;
  }
  options.interval_seconds = *interval;
  auto observe = ObserveSettingsFromArgs(*parsed);
  if (!observe) {
    io.err << "roce-lint serve: " << observe.error().message << "\n";
    return kExitUnusable;
  }
  options.observe = *observe;
  auto switch_inputs = SwitchInputsFromArgs(*parsed);
  if (!switch_inputs) {
    io.err << "roce-lint serve: " << switch_inputs.error().message << "\n";
    return kExitUnusable;
  }
  if (switch_inputs->counters_added && options.observe.mode != ObserveSettings::Mode::kPrometheus) {
    io.err << "roce-lint serve: --switch-counters needs --prometheus (the switches' counters are read "
              "from the store)\n";
    return kExitUnusable;
  }
  options.switches = std::move(switch_inputs->configs);
  options.counter_profiles = std::move(switch_inputs->profiles);
  if (auto urls = parsed->Value("--alertmanager")) {
    for (auto part : Split(*urls, ',')) {
      std::string url(Trim(part));
      while (!url.empty() && url.back() == '/') url.pop_back();
      if (url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0) {
        io.err << "roce-lint serve: --alertmanager " << Quote(url) << ": expected http:// or https:// URL\n";
        return kExitUnusable;
      }
      options.alertmanager.urls.push_back(url);
    }
  }
  auto resend = ParseDuration(parsed->Value("--alertmanager.resend").value_or(FormatDouble(4 * *interval) + "s"));
  if (!resend) {
    io.err << "roce-lint serve: --alertmanager.resend: " << resend.error().message << "\n";
    return kExitUnusable;
  }
  options.alertmanager.resend_ttl_seconds = *resend;
  options.alertmanager.cluster = parsed->Value("--cluster").value_or("");

  // Blocked before any thread starts (the daemon's push thread, the server's), so that every
  // thread inherits the mask and only the waiter below takes SIGINT, SIGTERM and SIGHUP.
  sigset_t signals;
  sigemptyset(&signals);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&signals, s);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  auto daemon = std::make_shared<serve::Daemon>(options);
  Status started = daemon->Start();
  if (!started.ok()) {
    io.err << "roce-lint serve: " << options.plan_path << ": " << started.error().message << "\n";
    return kExitUnusable;
  }

  const std::string listen_text = parsed->Value("--web.listen-address").value_or(":9880");
  auto listen = http::ParseListenAddress(listen_text);
  if (!listen) {
    io.err << "roce-lint serve: --web.listen-address: " << listen.error().message << "\n";
    return kExitUnusable;
  }
  http::http_log::SetSink(&LogToStderr);
  http::ServerConfig web;
  web.listen = *listen;
  web.realm = "roce-lint";
  web.limits.work_threads = 2;
  if (auto file = parsed->Value("--web.config.file")) {
    auto reloader = http::WebConfigReloader::Open(*file);
    if (!reloader) {
      io.err << "roce-lint serve: --web.config.file: " << reloader.error().message << "\n";
      return kExitUnusable;
    }
    web.web_config = *reloader;
  }
  http::RouteSpec metrics;
  metrics.path = "/metrics";
  metrics.offload = true;
  metrics.compress = true;
  metrics.head_headers = {{"Content-Type", "text/plain; version=0.0.4; charset=utf-8"}};
  metrics.handler = [daemon](const http::RequestHead&) { return MetricsAnswer(*daemon); };
  web.router.Add(std::move(metrics));
  auto server = http::Server::Start(std::move(web));
  if (!server) {
    io.err << "roce-lint serve: cannot listen on " << listen_text << ": " << server.error().message << "\n";
    return 1;
  }
  std::cerr << "roce-lint serve: listening on port " << (*server)->port()
            << ((*server)->tls() ? " (HTTPS)" : "") << ", plan " << escape::TerminalText(options.plan_path)
            << ", interval " << FormatDouble(*interval) << "s\n";

  std::mutex mu;
  std::condition_variable wake;
  bool loop_ended = false;  // under mu: the main loop has left; the process ends normally
  std::thread waiter([&] {
    while (true) {
      int sig = 0;
      sigwait(&signals, &sig);
      std::unique_lock<std::mutex> lock(mu);
      g_signal = sig;
      wake.notify_all();
      if (sig == SIGHUP) continue;
      // SIGINT/SIGTERM: the loop ends after the run in flight. A run waits on its queries'
      // timeouts, which may be long (--timeout per node, the store's); a daemon told to stop has
      // nothing to save (its state is in memory, its push on its own thread), so a run still
      // going after the grace period is abandoned and the process ends at once.
      if (!wake.wait_for(lock, kStopGrace, [&] { return loop_ended; })) {
        std::cerr << "roce-lint serve: stopping (the run in progress is abandoned after "
                  << kStopGrace.count() << "s)\n";
        std::_Exit(kExitClean);
      }
      return;
    }
  });
  while (true) {
    daemon->RunOnce();
    auto st = daemon->state();
    std::cerr << "roce-lint serve: run " << FormatDouble(st.runs_total) << ": " << st.findings.size()
              << " findings, " << st.nodes_passed << " passed, " << st.nodes_failed << " failed, "
              << st.nodes_unreachable << " unreachable" << (st.alertmanager_ok ? "" : ", alertmanager push FAILED")
              << (st.switch_counters_error.empty()
                      ? ""
                      : ", switch counters not read: " + escape::TerminalText(st.switch_counters_error))
              << "\n";
    std::unique_lock<std::mutex> lock(mu);
    wake.wait_for(lock, std::chrono::duration<double>(*interval), [&] { return g_signal != 0; });
    int sig = g_signal.exchange(0);
    lock.unlock();
    if (sig == SIGINT || sig == SIGTERM) break;
    daemon->MaybeReloadPlan(sig == SIGHUP);
  }
  {
    std::lock_guard<std::mutex> lock(mu);
    loop_ended = true;
  }
  wake.notify_all();
  waiter.join();
  std::cerr << "roce-lint serve: stopping\n";
  return kExitClean;
}

}  // namespace rocewatch::lint::cli
