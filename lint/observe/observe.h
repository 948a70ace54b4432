#pragma once

// Where roce-lint gets the nodes' metrics: saved /metrics files (CI, offline),
// direct concurrent scrapes of the exporters the plan names, or a
// Prometheus-compatible query API. Each yields one NodeView per plan node; a
// node that cannot be observed is a NodeView with an error, never an abort.
//
// Files and scrapes stream: each node's view is handed to a NodeSink as soon
// as it is parsed, so a caller that checks and drops it (roce-lint check)
// holds a few nodes' metrics at a time, not 10,000 (docs/performance.md).

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "lint/observe/http_client.h"
#include "lint/observe/node_view.h"
#include "lint/plan/model.h"

namespace rocewatch::lint::observe {

// The largest exposition or query answer roce-lint accepts (--max-bytes): enforced while the
// body arrives, so a body never costs more than this at any moment and `concurrency` bodies
// at once cost at most concurrency x this (docs/security.md).
inline constexpr std::size_t kDefaultMaxBodyBytes = 32u << 20;

struct ScrapeOptions {
  double timeout_seconds = 5;
  int concurrency = 32;
  std::size_t max_bytes = kDefaultMaxBodyBytes;
  std::string scheme = "http";  // "https" for exporters behind TLS
  std::string metrics_path = "/metrics";
  HttpRequest tls_and_auth;  // ca_file, client cert, basic auth copied into every scrape
};

// Receives the view of plan node `node_index`, each node once, in any order.
// Calls are serialized (never two at once), so a sink needs no lock.
using NodeSink = std::function<void(std::size_t node_index, NodeView&& view)>;

// DIR/<node>.prom (or .txt) for every node; a missing file makes that node
// unobserved. With `previous_dir`, each node's counters also get their increase
// since the file of the same name there (over `window_seconds`). `threads`
// files are parsed at once; a file above `max_bytes` makes its node unobserved.
void ReadMetricsDir(const plan::Plan& plan, const std::string& dir, const std::string& previous_dir,
                    double window_seconds, int threads, std::size_t max_bytes, const NodeSink& sink);
// The same, collected in plan order.
std::vector<NodeView> ReadMetricsDir(const plan::Plan& plan, const std::string& dir);

// Scrapes every node's exporter, `concurrency` at a time. With `before` (one
// view per plan node, an earlier observation), each node's counters get their
// increase since then.
void ScrapeNodes(const plan::Plan& plan, const ScrapeOptions& options, const NodeSink& sink,
                 std::vector<NodeView>* before = nullptr, double window_seconds = 0);
// The same, collected in plan order.
std::vector<NodeView> ScrapeNodes(const plan::Plan& plan, const ScrapeOptions& options);

// Collects streamed views into a vector in plan order (one per plan node).
class CollectViews {
 public:
  explicit CollectViews(const plan::Plan& plan);
  NodeSink sink();
  std::vector<NodeView> Take() && { return std::move(views_); }

 private:
  std::vector<NodeView> views_;
};

// A Prometheus-compatible query API (Prometheus, Thanos, Mimir, VictoriaMetrics).
struct PrometheusOptions {
  std::string base_url;               // "http://prometheus:9090", "http://vmselect:8481/select/0/prometheus"
  double window_seconds = 0;          // counter window (0: no counter checks)
  std::optional<double> at;           // evaluation time, unix seconds (default: now)
  std::string key_label = "instance"; // instance: the plan's exporter address; else the node name
  std::size_t batch_nodes = 100;      // at most this many nodes per query; fewer when the answers
                                      // seen say a batch would pass half of max_bytes
  int concurrency = 4;                // queries at a time
  int retries = 3;                    // more tries of a query that got no answer, 429 or 5xx
  double retry_base_seconds = 0.5;    // backoff: 0.5 s, 1 s, 2 s … (at most 8 s), with jitter
  bool store_stats = true;            // ask for the store's own cost (stats=all)
  std::vector<std::string> headers;   // "X-Scope-OrgID: t1", "Authorization: Bearer …"
};

struct QueryStats {
  std::size_t queries = 0, retries = 0, splits = 0, samples = 0, largest_answer_bytes = 0;
  std::size_t first_batch_nodes = 0, last_batch_nodes = 0;  // the sizing batch, the final size
  double store_eval_seconds = 0;           // the store's own evaluation time, summed
  std::uint64_t store_samples_touched = 0; // totalQueryableSamples, summed (Prometheus)
  std::uint64_t store_peak_samples = 0;    // the largest peakSamples of one query
  std::string Describe() const;
};

// Asks the store for the families the checks read (lint/core/families.h) at `at`, batch by
// batch of plan nodes (`{__name__=~"…",instance=~"a|b|…"}`, an exact set the store looks up in
// its index), each batch sized from the answers seen to fit half of transport.max_bytes,
// `concurrency` queries at a time,
// each answer at most transport.max_bytes and read as a stream; with a window, the counter window
// of lint/observe/counter_window.h through the queries of counter_queries.h (the same meaning on
// every engine, never the store's increase()). Each node goes to `sink` as soon as its
// batch is in: memory is bounded by concurrency x max_bytes, whatever the fleet size. A node
// the store has no series for is a view with an error. An Error when the API itself cannot
// be used (it does not answer, refuses the credentials or tenant).
Result<QueryStats> QueryPrometheus(const plan::Plan& plan, const PrometheusOptions& options,
                                   const ScrapeOptions& transport, const NodeSink& sink);

// Attaches to each node of `now` the increase of its counters since `before`
// (two observations of the same plan, e.g. consecutive runs of `serve`).
void AttachIncrease(std::vector<NodeView>& now, const std::vector<NodeView>& before,
                    double window_seconds);
// The same for one node.
void AttachIncrease(NodeView& now, const NodeView& before, double window_seconds);

}  // namespace rocewatch::lint::observe
