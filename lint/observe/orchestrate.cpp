#include "lint/observe/orchestrate.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>
#include <type_traits>

#include "rocewatch/duration.h"
#include "rocewatch/read_file.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::observe {

// "1048576", "512KiB", "64MiB", "1GiB"; nullopt for anything else or on overflow.
std::optional<std::uint64_t> ParseByteSize(std::string_view text) {
  std::uint64_t unit = 1;
  for (auto [suffix, factor] : {std::pair<std::string_view, std::uint64_t>{"KiB", 1ull << 10},
                                {"MiB", 1ull << 20}, {"GiB", 1ull << 30}}) {
    if (text.size() > suffix.size() && text.ends_with(suffix)) {
      text.remove_suffix(suffix.size());
      unit = factor;
      break;
    }
  }
  auto n = ParseU64(text);
  if (!n || *n > UINT64_MAX / unit) return std::nullopt;
  return *n * unit;
}

Result<ObserveSettings> SettingsFromFlags(const ParsedFlags& args) {
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
  for (const char* flag : {"--prometheus.header", "--prometheus.node-label", "--prometheus.batch",
                           "--prometheus.concurrency", "--prometheus.retries", "--prometheus.time"})
    if (args.Value(flag) && s.mode != ObserveSettings::Mode::kPrometheus)
      return Error{std::string(flag) + " goes with --prometheus"};
  if (s.mode == ObserveSettings::Mode::kPrometheus) {
    auto& p = s.prometheus;
    s.print_stats = args.Has("--prometheus.stats");
    p.base_url = s.prometheus_url;
    for (const auto& h : args.All("--prometheus.header")) {
      auto colon = h.find(':');
      bool name_ok = colon != std::string::npos && colon > 0;
      for (std::size_t i = 0; name_ok && i < colon; ++i) {
        unsigned char c = static_cast<unsigned char>(h[i]);
        name_ok = std::isalnum(c) || c == '-' || c == '_';
      }
      for (unsigned char c : h)
        if (c < 0x20 && c != '\t') name_ok = false;  // no header splitting
      if (!name_ok) return Error{"--prometheus.header " + Quote(h) + ": expected 'Name: value' on one line"};
      p.headers.push_back(h);
    }
    if (auto l = args.Value("--prometheus.node-label")) {
      bool ok = !l->empty() && !std::isdigit(static_cast<unsigned char>((*l)[0]));
      for (unsigned char c : *l) ok = ok && (std::isalnum(c) || c == '_');
      if (!ok) return Error{"--prometheus.node-label " + Quote(*l) + ": expected a label name"};
      p.key_label = *l;
    }
    auto count = [&](const char* flag, std::uint64_t lo, std::uint64_t hi, auto& into) -> std::optional<Error> {
      if (auto v = args.Value(flag)) {
        auto n = ParseU64(*v);
        if (!n || *n < lo || *n > hi)
          return Error{std::string(flag) + " " + Quote(*v) + ": expected " + std::to_string(lo) + " to " + std::to_string(hi)};
        into = static_cast<std::remove_reference_t<decltype(into)>>(*n);
      }
      return std::nullopt;
    };
    if (auto e = count("--prometheus.batch", 1, 100000, p.batch_nodes)) return *e;
    if (auto e = count("--prometheus.concurrency", 1, 64, p.concurrency)) return *e;
    if (auto e = count("--prometheus.retries", 0, 10, p.retries)) return *e;
    if (auto t = args.Value("--prometheus.time")) {
      char* end = nullptr;
      double v = std::strtod(t->c_str(), &end);
      if (t->empty() || end != t->c_str() + t->size() || !(v > 0) || v > 1e11)
        return Error{"--prometheus.time " + Quote(*t) + ": expected unix seconds"};
      p.at = v;
    }
  }
  if (auto prev = args.Value("--previous-metrics-dir")) {
    if (s.mode != ObserveSettings::Mode::kMetricsDir)
      return Error{"--previous-metrics-dir needs --metrics-dir"};
    s.previous_metrics_dir = *prev;
  }
  // A store answering for 100 nodes at a time needs longer than one exporter (at 1,000 nodes
  // on a loaded store every 5 s query timed out: docs/performance.md).
  auto timeout = duration("--timeout", s.mode == ObserveSettings::Mode::kPrometheus ? 60 : 5);
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
  s.prometheus.window_seconds = s.window_seconds;
  if (auto n = args.Value("--concurrency")) {
    auto c = ParseU64(*n);
    if (!c || *c == 0 || *c > 4096) return Error{"--concurrency " + Quote(*n) + ": expected 1 to 4096"};
    s.scrape.concurrency = static_cast<int>(*c);
  }
  if (auto n = args.Value("--max-bytes")) {
    auto c = ParseByteSize(*n);
    if (!c || *c < 1024 || *c > (16ull << 30))
      return Error{"--max-bytes " + Quote(*n) + ": expected a size from 1024 to 16GiB (e.g. 64MiB)"};
    s.scrape.max_bytes = static_cast<std::size_t>(*c);
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
                                  const NodeSink& sink) {
  ObservedInput o;
  switch (s.mode) {
    case ObserveSettings::Mode::kMetricsDir: {
      // A missing directory is a typo, not a cluster whose exporters are all down.
      for (const std::string* dir : {&s.metrics_dir, &s.previous_metrics_dir})
        if (!dir->empty() && !std::filesystem::is_directory(*dir)) return Error{"no such directory: " + *dir};
      // Parsing is the cost at 10,000 nodes: one file per core.
      const int threads = static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 16u));
      ReadMetricsDir(plan, s.metrics_dir, s.previous_metrics_dir, s.window_seconds, threads,
                             s.scrape.max_bytes, sink);
      o.input = s.metrics_dir;
      if (!s.previous_metrics_dir.empty()) {
        o.counters = true;
        o.input_id = "report.input.counters_since";
        o.input_args = {{"dir", s.metrics_dir}, {"previous", s.previous_metrics_dir}};
        o.input = *i18n::RenderStored(i18n::Language::kEnglish, o.input_id, o.input_args);
      }
      return o;
    }
    case ObserveSettings::Mode::kPrometheus: {
      auto stats = QueryPrometheus(plan, s.prometheus, s.scrape, sink);
      if (!stats) return stats.error();
      o.stats = stats->Describe();
      o.input = s.prometheus_url;
      o.counters = s.window_seconds > 0;
      return o;
    }
    case ObserveSettings::Mode::kScrape: {
      o.input_id = "report.input.scrapes";
      o.input_args = {{"count", std::to_string(plan.nodes.size())}};
      o.input = *i18n::RenderStored(i18n::Language::kEnglish, o.input_id, o.input_args);
      if (s.window_seconds > 0) {
        auto before = ScrapeNodes(plan, s.scrape);
        std::this_thread::sleep_for(std::chrono::duration<double>(s.window_seconds));
        ScrapeNodes(plan, s.scrape, sink, &before, s.window_seconds);
        o.counters = true;
      } else {
        ScrapeNodes(plan, s.scrape, sink);
      }
      return o;
    }
  }
  return o;
}

Result<Observed> Observe(const plan::Plan& plan, const ObserveSettings& s) {
  CollectViews views(plan);
  auto input = ObserveEach(plan, s, views.sink());
  if (!input) return input.error();
  Observed o;
  static_cast<ObservedInput&>(o) = std::move(*input);
  o.views = std::move(views).Take();
  return o;
}

}  // namespace rocewatch::lint::observe
