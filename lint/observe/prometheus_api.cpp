// roce-lint through a Prometheus-compatible HTTP API (Prometheus, Thanos, Mimir,
// VictoriaMetrics): the families the checks read (lint/core/families.h), node batch by node
// batch, each answer bounded by --max-bytes and read as a stream, each node handed to the
// sink as soon as its batch is in. Counter windows are read as raw values at the window's ends
// (lint/observe/counter_queries.h), never as the store's increase().

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <random>
#include <thread>
#include <unordered_map>

#include "lint/core/families.h"
#include "lint/metric_contract.h"
#include "lint/observe/counter_queries.h"
#include "lint/observe/observe.h"
#include "lint/observe/prometheus_answer.h"
#include "lint/observe/promql.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::observe {
namespace {

double Now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// How one query ended.
struct QueryResult {
  enum class Kind { kOk, kTooLarge, kFailed } kind = Kind::kFailed;
  VectorAnswer answer;
  std::string error;
  std::size_t bytes = 0;
};

// The store refused the query for its size (Prometheus --query.max-samples: HTTP 422 "query
// processing would load too many samples into memory"; VictoriaMetrics -search.maxSamplesPerQuery
// / maxUniqueTimeseries: "cannot select more than", "exceeds"; Mimir -querier.max-fetched-*:
// "the query exceeded the maximum number of series … (err-mimir-max-series-per-query)"; Thanos
// store limits: "exceeded series limit"), or ran out of its time for one query (VictoriaMetrics
// -search.maxQueryDuration, 30 s: HTTP 422 "timeout exceeded during query execution";
// Prometheus --query.timeout: HTTP 503 "query timed out in expression evaluation"; Thanos and
// Mimir pass Prometheus's engine text on). A smaller batch may pass.
bool StoreSaysTooLarge(const HttpResponse& r) {
  if (r.status != 422 && r.status != 400 && r.status != 503) return false;
  for (const char* s : {"too many samples", "cannot select more than", "exceeds -search.max", "maxSamplesPerQuery",
                        "maxUniqueTimeseries", "max-samples", "too many series", "exceeded the maximum number of",
                        "err-mimir-max-", "exceeded series limit", "exceeded chunks limit",
                        "timeout exceeded during query execution", "query timed out in"})
    if (r.body.find(s) != std::string::npos) return true;
  return false;
}

// Worth another try: no answer, rate limited, or the store was briefly unavailable.
bool Retriable(const HttpResponse& r) { return r.status == 0 || r.status == 429 || r.status >= 500; }

class Querier {
 public:
  Querier(const PrometheusOptions& options, const ScrapeOptions& transport, QueryStats& stats, std::mutex& mu)
      : options_(options), transport_(transport), stats_(stats), stats_mu_(mu), rng_(std::random_device{}()) {}

  QueryResult Run(const std::string& query, double at, const AnswerOptions& answer_options) {
    HttpRequest req = transport_.tls_and_auth;
    std::string_view base = options_.base_url;
    while (!base.empty() && base.back() == '/') base.remove_suffix(1);  // "http://mimir/prometheus/"
    req.url = std::string(base) + "/api/v1/query";
    req.method = "POST";
    req.body = "query=" + UrlEncode(query) + "&time=" + FormatDouble(at) + (options_.store_stats ? "&stats=all" : "");
    req.headers = options_.headers;
    req.headers.push_back("Content-Type: application/x-www-form-urlencoded");
    req.headers.push_back("Accept: application/json");
    req.timeout_seconds = transport_.timeout_seconds;
    req.max_bytes = transport_.max_bytes;
    QueryResult out;
    for (int attempt = 0;; ++attempt) {
      // --timeout bounds the whole query of each try: its transfer and the reading of its answer.
      AnswerOptions timed = answer_options;
      timed.deadline = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                               std::chrono::duration<double>(transport_.timeout_seconds));
      HttpResponse resp = Fetch(req);
      Count([&](QueryStats& s) {
        ++s.queries;
        s.largest_answer_bytes = std::max(s.largest_answer_bytes, resp.body.size());
      });
      if (resp.error.rfind("body larger than", 0) == 0 || StoreSaysTooLarge(resp)) {
        out.kind = QueryResult::Kind::kTooLarge;
        out.error = resp.Describe();
        return out;
      }
      if (resp.ok()) {
        auto answer = ParseVectorAnswer(resp.body, "query " + options_.base_url, timed);
        if (!answer) {
          out.error = answer.error().message;
          return out;
        }
        out.kind = QueryResult::Kind::kOk;
        out.bytes = resp.body.size();
        out.answer = std::move(*answer);
        Count([&](QueryStats& s) {
          s.samples += out.answer.samples;
          s.store_eval_seconds += out.answer.eval_seconds;
          s.store_samples_touched += out.answer.samples_touched;
          s.store_peak_samples = std::max(s.store_peak_samples, out.answer.peak_samples);
        });
        return out;
      }
      if (!Retriable(resp) || attempt >= options_.retries) {
        out.error = "query " + options_.base_url + ": " + resp.Describe() +
                    (attempt > 0 ? " (after " + std::to_string(attempt + 1) + " tries)" : "");
        return out;
      }
      Count([](QueryStats& s) { ++s.retries; });
      // Exponential backoff with jitter: 0.5 s, 1 s, 2 s … (at most 8 s), ±25 %.
      double delay = std::min(8.0, options_.retry_base_seconds * std::pow(2.0, attempt));
      std::uniform_real_distribution<double> jitter(0.75, 1.25);
      {
        std::lock_guard lock(rng_mu_);
        delay *= jitter(rng_);
      }
      std::this_thread::sleep_for(std::chrono::duration<double>(delay));
    }
  }

  template <typename F>
  void Count(F f) {
    std::lock_guard lock(stats_mu_);
    f(stats_);
  }

 private:
  const PrometheusOptions& options_;
  const ScrapeOptions& transport_;
  QueryStats& stats_;
  std::mutex& stats_mu_;
  std::mutex rng_mu_;
  std::mt19937 rng_;
};

// How many nodes the next batch takes: at most `max_nodes`, and as many as fit `target_bytes`
// at the largest answer per node seen so far. Before any answer: a quarter of `max_nodes`.
class BatchSizer {
 public:
  BatchSizer(std::size_t max_nodes, std::size_t target_bytes) : max_nodes_(max_nodes), target_bytes_(target_bytes) {}
  bool Measured() const { return bytes_per_node_ > 0; }
  std::size_t first() const { return std::max<std::size_t>(1, max_nodes_ / 4); }
  std::size_t Next() const {
    if (!Measured()) return first();
    const double fit = static_cast<double>(target_bytes_) / bytes_per_node_;
    return std::clamp<std::size_t>(static_cast<std::size_t>(fit), 1, max_nodes_);
  }
  // A batch of `nodes` whose largest answer was `bytes`.
  void Answered(std::size_t bytes, std::size_t nodes) {
    const double per_node = static_cast<double>(bytes) / static_cast<double>(std::max<std::size_t>(1, nodes));
    bytes_per_node_ = std::max({bytes_per_node_, per_node, 1.0});
  }
  // A batch of `nodes` whose answer passed the limit (twice the target): at least that much.
  void TooLarge(std::size_t nodes) { Answered(2 * target_bytes_ + 1, nodes); }

 private:
  std::size_t max_nodes_, target_bytes_;
  double bytes_per_node_ = 0;
};

// Families the checks read only some values of, asked with a comparison that keeps just those,
// so the store sends those series alone. roce_module_flag: lint/checks/optics/ reads a flag
// only when it is raised (1); a module's flags (104 per 8-lane NIC) are all 0 on a healthy NIC
// and were 35% of a node's latest series (docs/performance.md "Fleet").
struct ValueFilter {
  std::string_view family, comparison;
};
constexpr ValueFilter kValueFilters[] = {{metric::roce_module_flag, "== 1"}};

// Served by every exporter on every scrape (one series per collector): a node that has it was
// scraped.
constexpr std::string_view kPresenceFamily = metric::roce_exporter_collector_success;

// Whether an answer's text (`name{…} value` lines) has a value below zero: a growth between the
// window's ends that only a reset explains.
bool HasNegativeValue(std::string_view text) {
  for (std::size_t at = text.find("} -"); at != std::string_view::npos; at = text.find("} -", at + 3))
    if (at + 3 < text.size() && text[at + 3] != 'I') return true;  // "-Inf" is no growth either way
  return false;
}

}  // namespace

std::string QueryStats::Describe() const {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "%zu queries (%zu retried, %zu batches split), %zu samples, largest answer %zu bytes, "
                "nodes per batch %zu first then %zu; "
                "store: %.3f s evaluating, %llu samples touched, peak %llu samples in one query",
                queries, retries, splits, samples, largest_answer_bytes, first_batch_nodes, last_batch_nodes,
                store_eval_seconds,
                static_cast<unsigned long long>(store_samples_touched),
                static_cast<unsigned long long>(store_peak_samples));
  return buf;
}

Result<QueryStats> QueryPrometheus(const plan::Plan& plan, const PrometheusOptions& options,
                                   const ScrapeOptions& transport, const NodeSink& sink) {
  QueryStats stats;
  std::mutex stats_mu;
  Querier querier(options, transport, stats, stats_mu);
  const double at = options.at ? *options.at : Now();
  // Is the API there at all (and do the headers, credentials and tenant pass)? Otherwise this
  // is an unusable input, not 10,000 unreachable nodes.
  if (auto probe = querier.Run("vector(1)", at, {}); probe.kind != QueryResult::Kind::kOk)
    return Error{probe.error};

  const bool by_instance = options.key_label == "instance";
  auto key_of = [&](std::size_t i) { return by_instance ? plan.nodes[i].exporter : plan.nodes[i].name; };
  std::string latest_names;
  std::vector<ValueFilter> filtered;  // asked on their own, with their comparison
  for (auto f : lint::LatestFamilies()) {
    auto filter = std::find_if(std::begin(kValueFilters), std::end(kValueFilters),
                               [&](const ValueFilter& v) { return v.family == f; });
    if (filter != std::end(kValueFilters)) {
      filtered.push_back(*filter);
      continue;
    }
    latest_names += (latest_names.empty() ? "" : "|") + std::string(f);
  }
  const std::vector<std::string_view> counters =
      options.window_seconds > 0 ? lint::IncreaseFamilies() : std::vector<std::string_view>();
  const CounterWindow window{.end = at, .length = options.window_seconds};

  // Batches of node indices, carved from the plan as workers ask, each sized so that its
  // largest answer is expected to take half of --max-bytes. A store answers a query it has
  // begun in full whether or not the client keeps reading, so a batch cut off at the limit is
  // wasted work on the store: sizing from the answers seen avoids most of them. The first
  // batch is small and runs alone, and gives the first estimate; a batch that is still too
  // large is split into pieces of the new estimate (at least halved) and queued again.
  BatchSizer sizer(std::max<std::size_t>(1, options.batch_nodes), std::max<std::size_t>(1, transport.max_bytes / 2));
  std::deque<std::vector<std::size_t>> queue;  // split batches, first
  std::size_t next_node = 0;                   // the plan's nodes from here on are not yet queued
  std::mutex mu;  // the queue, next_node, the sizer, `busy` and the sink
  std::condition_variable cv;
  int busy = 0;

  auto deliver = [&](std::vector<NodeView>& views, const std::vector<std::size_t>& nodes) {
    std::lock_guard lock(mu);
    for (std::size_t k = 0; k < nodes.size(); ++k) sink(nodes[k], std::move(views[k]));
  };
  auto fail_all = [&](const std::vector<std::size_t>& nodes, const std::string& why) {
    std::vector<NodeView> views;
    for (std::size_t i : nodes) {
      NodeView v(plan.nodes[i].name, options.base_url);
      v.SetError(why);
      views.push_back(std::move(v));
    }
    deliver(views, nodes);
  };

  // One batch: its latest values, then its counter window. Returns false when an answer was too
  // large (the caller splits the batch); `largest` is the largest answer.
  auto run_batch = [&](const std::vector<std::size_t>& nodes, std::size_t& largest) -> bool {
    std::vector<std::string> keys;
    std::unordered_map<std::string, std::size_t> position;
    for (std::size_t k = 0; k < nodes.size(); ++k) {
      keys.push_back(key_of(nodes[k]));
      position.emplace(keys.back(), k);
    }
    // One query of this batch: kOk, kSplit (too large for more than one node: the batch is
    // split), or kFailed (every node of the batch got the error).
    enum class Asked { kOk, kSplit, kFailed };
    auto ask = [&](const std::string& query, const AnswerOptions& o, QueryResult& out) {
      out = querier.Run(query, at, o);
      largest = std::max(largest, out.bytes);
      if (out.kind == QueryResult::Kind::kTooLarge && nodes.size() > 1) return Asked::kSplit;
      if (out.kind == QueryResult::Kind::kOk) return Asked::kOk;
      fail_all(nodes, out.kind == QueryResult::Kind::kTooLarge
                          ? "the store refused the query of this node alone (too large or too slow): " + out.error
                          : out.error);
      return Asked::kFailed;
    };
    const std::string match = MatchAny(options.key_label, keys);
    QueryResult latest;
    if (Asked a = ask("{__name__=~\"" + latest_names + "\"," + match + "}",
                      {.key_label = options.key_label, .metric_name = {}}, latest);
        a != Asked::kOk)
      return a == Asked::kFailed;
    for (const ValueFilter& filter : filtered) {
      QueryResult some;
      if (Asked a = ask(std::string(filter.family) + "{" + match + "} " + std::string(filter.comparison),
                        {.key_label = options.key_label, .metric_name = filter.family}, some);
          a != Asked::kOk)
        return a == Asked::kFailed;
      for (auto& [key, text] : some.answer.texts)
        if (auto it = latest.answer.texts.find(key); it != latest.answer.texts.end()) it->second += text;
    }
    // The counter window (lint/observe/counter_window.h): which nodes were observed at its start,
    // then per family every series' growth between the window's ends, and the raw samples of the
    // series that may have been reset in between.
    std::vector<std::string> increases(nodes.size());
    std::vector<char> at_start(nodes.size(), 0);
    if (!counters.empty()) {
      QueryResult start;
      if (Asked a = ask(ObservedAtStartQuery(kPresenceFamily, options.key_label, match, window),
                        {.key_label = options.key_label, .metric_name = kPresenceFamily}, start);
          a != Asked::kOk)
        return a == Asked::kFailed;
      for (const auto& [key, text] : start.answer.texts)
        if (auto it = position.find(key); it != position.end()) at_start[it->second] = 1;
    }
    for (auto family : counters) {
      const AnswerOptions o{.key_label = options.key_label, .metric_name = family};
      QueryResult ends, resets;
      if (Asked a = ask(EndsQuery(family, match, window), o, ends); a != Asked::kOk) return a == Asked::kFailed;
      if (Asked a = ask(ResetsQuery(family, match, window), o, resets); a != Asked::kOk) return a == Asked::kFailed;
      std::vector<std::string> reset;  // nodes with a series that went down
      for (const auto& [key, text] : resets.answer.texts) reset.push_back(key);
      for (const auto& [key, text] : ends.answer.texts)
        if (HasNegativeValue(text) && !resets.answer.texts.contains(key)) reset.push_back(key);
      if (!reset.empty()) {
        QueryResult raw;
        AnswerOptions raw_options = o;
        raw_options.increase_over = &window;
        if (Asked a = ask(RawSamplesQuery(family, MatchAny(options.key_label, reset), window), raw_options, raw);
            a != Asked::kOk)
          return a == Asked::kFailed;
        for (const auto& key : reset) {
          auto it = raw.answer.texts.find(key);
          if (it == raw.answer.texts.end()) {
            ends.answer.texts.erase(key);
          } else {
            ends.answer.texts[key] = std::move(it->second);
          }
        }
      }
      for (auto& [key, text] : ends.answer.texts)
        if (auto it = position.find(key); it != position.end()) increases[it->second] += text;
    }
    std::vector<NodeView> views;
    for (std::size_t k = 0; k < nodes.size(); ++k) {
      const plan::Node& node = plan.nodes[nodes[k]];
      NodeView view(node.name, options.base_url + " " + options.key_label + "=\"" + keys[k] + "\"");
      auto it = latest.answer.texts.find(keys[k]);
      if (it == latest.answer.texts.end()) {
        view.SetError("the store has no data for " + options.key_label + "=\"" + keys[k] + "\" in " +
                      options.base_url + " (target down, not scraped, or gone from the store)");
        views.push_back(std::move(view));
        continue;
      }
      auto parsed = Exposition::Parse(std::move(it->second), {.max_bytes = transport.max_bytes});
      if (!parsed) {
        view.SetError(parsed.error().message);
        views.push_back(std::move(view));
        continue;
      }
      if (!counters.empty() && at_start[k]) {
        auto inc = Exposition::Parse(std::move(increases[k]), {.max_bytes = transport.max_bytes});
        if (inc) view.SetIncrease(std::move(*inc), options.window_seconds);
      }
      view.SetMetrics(std::move(*parsed));
      views.push_back(std::move(view));
    }
    latest.answer.texts.clear();
    deliver(views, nodes);
    return true;
  };

  auto worker = [&] {
    for (;;) {
      std::vector<std::size_t> nodes;
      {
        std::unique_lock lock(mu);
        // Wait while there is nothing to take, or while the first batch is out (no estimate).
        cv.wait(lock, [&] {
          const bool more = !queue.empty() || next_node < plan.nodes.size();
          return more ? (sizer.Measured() || busy == 0) : busy == 0;
        });
        if (queue.empty() && next_node >= plan.nodes.size()) return;
        if (!queue.empty()) {
          nodes = std::move(queue.front());
          queue.pop_front();
        } else {
          const std::size_t n = std::min(sizer.Next(), plan.nodes.size() - next_node);
          for (std::size_t i = 0; i < n; ++i) nodes.push_back(next_node++);
        }
        ++busy;
      }
      std::size_t largest = 0;
      const bool done = run_batch(nodes, largest);
      {
        std::lock_guard lock(mu);
        if (done) {
          if (largest > 0) sizer.Answered(largest, nodes.size());
        } else {
          sizer.TooLarge(nodes.size());
          const std::size_t piece = std::max<std::size_t>(1, std::min(nodes.size() / 2, sizer.Next()));
          std::vector<std::vector<std::size_t>> pieces;
          for (std::size_t i = 0; i < nodes.size(); i += piece)
            pieces.emplace_back(nodes.begin() + static_cast<std::ptrdiff_t>(i),
                                nodes.begin() + static_cast<std::ptrdiff_t>(std::min(nodes.size(), i + piece)));
          for (auto it = pieces.rbegin(); it != pieces.rend(); ++it) queue.push_front(std::move(*it));
          querier.Count([](QueryStats& s) { ++s.splits; });
        }
        --busy;
      }
      cv.notify_all();
    }
  };
  const int threads = std::max(1, std::min<int>(options.concurrency, static_cast<int>(plan.nodes.size())));
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  stats.first_batch_nodes = sizer.first();
  stats.last_batch_nodes = sizer.Next();
  return stats;
}

}  // namespace rocewatch::lint::observe
