#include "lint/observe/switch_counter_query.h"

#include <chrono>
#include <cmath>
#include <map>
#include <set>
#include <thread>
#include <tuple>

#include "lint/observe/counter_queries.h"
#include "lint/observe/exposition.h"
#include "lint/observe/http_client.h"
#include "lint/observe/prometheus_answer.h"
#include "lint/observe/promql.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::observe {
namespace {

using switch_config::CounterProfile;
using switch_config::CounterSeries;

Result<VectorAnswer> Ask(const std::string& query, const PrometheusOptions& options, const ScrapeOptions& transport,
                         const AnswerOptions& answer_options, SwitchQueryStats& stats) {
  HttpRequest req = transport.tls_and_auth;
  std::string_view base = options.base_url;
  while (!base.empty() && base.back() == '/') base.remove_suffix(1);
  req.url = std::string(base) + "/api/v1/query";
  req.method = "POST";
  req.body = "query=" + UrlEncode(query) + "&time=" + FormatDouble(*options.at);
  req.headers = options.headers;
  req.headers.push_back("Content-Type: application/x-www-form-urlencoded");
  req.headers.push_back("Accept: application/json");
  req.timeout_seconds = transport.timeout_seconds;
  req.max_bytes = transport.max_bytes;
  for (int attempt = 0;; ++attempt) {
    AnswerOptions timed = answer_options;  // --timeout bounds the transfer and the reading together
    timed.deadline = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                             std::chrono::duration<double>(transport.timeout_seconds));
    HttpResponse resp = Fetch(req);
    ++stats.queries;
    if (resp.ok()) return ParseVectorAnswer(resp.body, "query " + options.base_url, timed);
    const bool retriable = resp.status == 0 || resp.status == 429 || resp.status >= 500;
    if (!retriable || attempt >= options.retries || resp.error.rfind("body larger than", 0) == 0)
      return Error{"switch counters: query " + options.base_url + " " + Quote(query, 200) + ": " + resp.Describe()};
    std::this_thread::sleep_for(std::chrono::duration<double>(
        std::min(8.0, options.retry_base_seconds * std::pow(2.0, attempt))));
  }
}

// Each series of an answer's texts (by switch) as (switch, port, priority, value).
struct Point {
  std::string switch_value, port;
  int priority;
  double value;
};

void Points(const VectorAnswer& answer, const CounterProfile& profile, const CounterSeries& series,
            const ScrapeOptions& transport, std::vector<Point>& out, SwitchQueryStats& stats) {
  for (const auto& [switch_value, text] : answer.texts) {
    auto parsed = Exposition::Parse(text, {.max_bytes = transport.max_bytes});
    if (!parsed) continue;
    for (const Sample& s : parsed->samples()) {
      auto port = parsed->LabelValue(s, profile.port_label);
      std::optional<std::int64_t> priority = series.priority;
      if (!priority && !profile.priority_label.empty())
        if (auto p = parsed->LabelValue(s, profile.priority_label)) priority = ParseI64(*p);
      if (!port || port->empty() || !priority || *priority < 0 || *priority > 7 || !std::isfinite(s.value)) {
        ++stats.skipped;
        continue;
      }
      out.push_back({switch_value, std::string(*port), static_cast<int>(*priority), s.value});
    }
  }
}

}  // namespace

Result<switch_config::SwitchPauses> QuerySwitchPauses(const std::vector<CounterProfile>& profiles,
                                                      const PrometheusOptions& options,
                                                      const ScrapeOptions& transport, SwitchQueryStats* stats_out) {
  SwitchQueryStats stats;
  switch_config::SwitchPauses pauses;
  const CounterWindow window{.end = options.at.value_or(0), .length = options.window_seconds};
  for (const CounterProfile& profile : profiles) {
    for (const CounterSeries& series : profile.series) {
      const AnswerOptions o{.key_label = profile.switch_label, .metric_name = series.metric};
      auto ends = Ask(BothEndsQuery(series.metric, "", window), options, transport, o, stats);
      if (!ends) return ends.error();
      std::vector<Point> points;
      Points(*ends, profile, series, transport, points, stats);
      // A switch whose series went down was reset inside the window: its raw samples say by how much
      // those series grew since (IncreaseOver).
      std::set<std::string> reset;
      for (const Point& p : points)
        if (p.value < 0) reset.insert(p.switch_value);
      std::map<std::tuple<std::string, std::string, int>, double> raw_growth;
      if (!reset.empty()) {
        AnswerOptions ro = o;
        ro.increase_over = &window;
        auto raw = Ask(RawSamplesQuery(series.metric, MatchAny(profile.switch_label, {reset.begin(), reset.end()}),
                                       window),
                       options, transport, ro, stats);
        if (!raw) return raw.error();
        std::vector<Point> raw_points;
        Points(*raw, profile, series, transport, raw_points, stats);
        for (const Point& p : raw_points) raw_growth[{p.switch_value, p.port, p.priority}] = p.value;
      }
      for (const Point& p : points) {
        double growth = p.value;
        if (growth < 0) {
          auto it = raw_growth.find({p.switch_value, p.port, p.priority});
          if (it == raw_growth.end()) continue;  // gone by the end: no growth to say
          growth = it->second;
        }
        if (!pauses.Add(p.switch_value, p.port, p.priority, series.direction, growth, profile.name))
          return Error{"switch counters: the store answers for more than " +
                       std::to_string(switch_config::kMaxSwitchPausePorts) + " switch ports (profile " +
                       Quote(profile.name) + ", " + Quote(series.metric) +
                       "); roce-lint keeps at most that many (docs/security.md)"};
        ++stats.series;
      }
    }
  }
  pauses.set_read(options.window_seconds, options.base_url);
  if (stats_out != nullptr) *stats_out = stats;
  return pauses;
}

}  // namespace rocewatch::lint::observe
