#include "lint/cli/observe_flags.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>

#include "rocewatch/read_file.h"
#include "rocewatch/duration.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::cli {

const char* const kObserveFlagsHelp =
    "Where the metrics come from (default: scrape every node's exporter named in the plan):\n"
    "  --metrics-dir DIR           saved /metrics files, DIR/<node>.prom (CI, offline)\n"
    "  --previous-metrics-dir DIR  an earlier set of files, for the counter checks\n"
    "  --prometheus URL            a Prometheus-compatible query API (Prometheus, Thanos, Mimir)\n"
    "  --window DURATION           counter window: with --prometheus how far back to compare\n"
    "                              (default 5m), with --previous-metrics-dir how far apart\n"
    "                              the files were taken\n"
    "  --counter-window DURATION   scrape twice this far apart for the counter checks\n"
    "                              (default 0: no counter checks)\n"
    "  --timeout DURATION          per scrape or query (default 5s)\n"
    "  --concurrency N             scrapes at a time (default 32)\n"
    "  --max-bytes N               largest /metrics body accepted (default 33554432)\n"
    "  --scheme http|https         how to reach the exporters (default http)\n"
    "  --ca-file, --cert-file, --key-file, --username, --password-file\n"
    "                              TLS and basic auth for exporters behind --web.config.file\n";

const std::vector<FlagSpec>& ObserveFlagSpecs() {
  static const std::vector<FlagSpec> kSpecs = {
      {"--metrics-dir", "", true},   {"--previous-metrics-dir", "", true},
      {"--prometheus", "", true},    {"--window", "", true},
      {"--counter-window", "", true}, {"--timeout", "", true},
      {"--concurrency", "", true},   {"--max-bytes", "", true},
      {"--scheme", "", true},        {"--ca-file", "", true},
      {"--cert-file", "", true},     {"--key-file", "", true},
      {"--username", "", true},      {"--password-file", "", true},
  };
  return kSpecs;
}

Result<ObserveSettings> ObserveSettingsFromArgs(const ParsedArgs& args) {
  ObserveSettings s;
  auto duration = [&](const char* flag, double fallback) -> Result<double> {
    auto v = args.Value(flag);
    if (!v) return fallback;
    auto d = ParseDuration(*v);
    if (!d) return Error{std::string(flag) + ": " + d.error().message};
    return *d;
  };
  int sources = 0;
  if (auto dir = args.Value("--metrics-dir")) s.mode = ObserveSettings::Mode::kMetricsDir, s.metrics_dir = *dir, ++sources;
  if (auto url = args.Value("--prometheus")) {
    s.mode = ObserveSettings::Mode::kPrometheus;
    s.prometheus_url = *url;
    while (!s.prometheus_url.empty() && s.prometheus_url.back() == '/') s.prometheus_url.pop_back();
    ++sources;
  }
  if (sources > 1) return Error{"--metrics-dir and --prometheus exclude each other"};
  if (auto prev = args.Value("--previous-metrics-dir")) {
    if (s.mode != ObserveSettings::Mode::kMetricsDir)
      return Error{"--previous-metrics-dir needs --metrics-dir"};
    s.previous_metrics_dir = *prev;
  }
  auto timeout = duration("--timeout", 5);
  if (!timeout) return timeout.error();
  s.scrape.timeout_seconds = *timeout;
  if (s.mode == ObserveSettings::Mode::kScrape && args.Value("--window"))
    return Error{"--window goes with --prometheus or --previous-metrics-dir; when scraping use --counter-window"};
  if (s.mode != ObserveSettings::Mode::kScrape && args.Value("--counter-window"))
    return Error{"--counter-window goes with scraping; with files or --prometheus use --window"};
  if (!s.previous_metrics_dir.empty() && !args.Value("--window"))
    return Error{"--previous-metrics-dir needs --window: how far apart the two sets of files were taken"};
  double default_window = s.mode == ObserveSettings::Mode::kPrometheus ? 300 : 0;
  auto window = duration(s.mode == ObserveSettings::Mode::kScrape ? "--counter-window" : "--window",
                         default_window);
  if (!window) return window.error();
  s.window_seconds = *window;
  if (auto n = args.Value("--concurrency")) {
    auto c = ParseU64(*n);
    if (!c || *c == 0 || *c > 4096) return Error{"--concurrency " + Quote(*n) + ": expected 1 to 4096"};
    s.scrape.concurrency = static_cast<int>(*c);
  }
  if (auto n = args.Value("--max-bytes")) {
    auto c = ParseU64(*n);
    if (!c || *c < 1024) return Error{"--max-bytes " + Quote(*n) + ": expected at least 1024"};
    s.scrape.max_bytes = *c;
  }
  if (auto scheme = args.Value("--scheme")) {
    if (*scheme != "http" && *scheme != "https") return Error{"--scheme " + Quote(*scheme) + ": expected http or https"};
    s.scrape.scheme = *scheme;
  }
  if (auto v = args.Value("--ca-file")) s.scrape.tls_and_auth.ca_file = *v;
  if (auto v = args.Value("--cert-file")) s.scrape.tls_and_auth.client_cert = *v;
  if (auto v = args.Value("--key-file")) s.scrape.tls_and_auth.client_key = *v;
  if (auto v = args.Value("--username")) s.scrape.tls_and_auth.username = *v;
  if (auto v = args.Value("--password-file")) {
    auto pw = ReadFileCapped(*v, 4096);
    if (!pw) return Error{"--password-file: " + pw.error().message};
    s.scrape.tls_and_auth.password = std::string(Trim(*pw));
  }
  return s;
}

Result<ObservedInput> ObserveEach(const plan::Plan& plan, const ObserveSettings& s,
                                  const observe::NodeSink& sink) {
  ObservedInput o;
  switch (s.mode) {
    case ObserveSettings::Mode::kMetricsDir: {
      // A missing directory is a typo, not a cluster whose exporters are all down.
      for (const std::string* dir : {&s.metrics_dir, &s.previous_metrics_dir})
        if (!dir->empty() && !std::filesystem::is_directory(*dir)) return Error{"no such directory: " + *dir};
      // Parsing is the cost at 10,000 nodes: one file per core.
      const int threads = static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 16u));
      observe::ReadMetricsDir(plan, s.metrics_dir, s.previous_metrics_dir, s.window_seconds, threads, sink);
      o.input = s.metrics_dir;
      if (!s.previous_metrics_dir.empty()) {
        o.counters = true;
        o.input += " (counters since " + s.previous_metrics_dir + ")";
      }
      return o;
    }
    case ObserveSettings::Mode::kPrometheus: {
      auto views = observe::QueryPrometheus(plan, s.prometheus_url, s.window_seconds, s.scrape);
      if (!views) return views.error();
      for (std::size_t i = 0; i < views->size(); ++i) sink(i, std::move((*views)[i]));
      o.input = s.prometheus_url;
      o.counters = s.window_seconds > 0;
      return o;
    }
    case ObserveSettings::Mode::kScrape: {
      o.input = "scrapes of " + std::to_string(plan.nodes.size()) + " exporters";
      if (s.window_seconds > 0) {
        auto before = observe::ScrapeNodes(plan, s.scrape);
        std::this_thread::sleep_for(std::chrono::duration<double>(s.window_seconds));
        observe::ScrapeNodes(plan, s.scrape, sink, &before, s.window_seconds);
        o.counters = true;
      } else {
        observe::ScrapeNodes(plan, s.scrape, sink);
      }
      return o;
    }
  }
  return o;
}

Result<Observed> Observe(const plan::Plan& plan, const ObserveSettings& s) {
  observe::CollectViews views(plan);
  auto input = ObserveEach(plan, s, views.sink());
  if (!input) return input.error();
  Observed o;
  static_cast<ObservedInput&>(o) = std::move(*input);
  o.views = std::move(views).Take();
  return o;
}

}  // namespace rocewatch::lint::cli
