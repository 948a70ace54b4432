#pragma once

// Where roce-lint gets the nodes' metrics: saved /metrics files (CI, offline),
// direct concurrent scrapes of the exporters the plan names, or a
// Prometheus-compatible query API. Each yields one NodeView per plan node; a
// node that cannot be observed is a NodeView with an error, never an abort.
//
// Files and scrapes stream: each node's view is handed to a NodeSink as soon
// as it is parsed, so a caller that checks and drops it (roce-lint check)
// holds a few nodes' metrics at a time, not 10,000 (docs/performance.md).

#include <functional>
#include <string>
#include <vector>

#include "lint/observe/http_client.h"
#include "lint/observe/node_view.h"
#include "lint/plan/model.h"

namespace rocewatch::lint::observe {

struct ScrapeOptions {
  double timeout_seconds = 5;
  int concurrency = 32;
  std::size_t max_bytes = 32u << 20;
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
// files are parsed at once.
void ReadMetricsDir(const plan::Plan& plan, const std::string& dir, const std::string& previous_dir,
                    double window_seconds, int threads, const NodeSink& sink);
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

// Queries {__name__=~"roce_.+"} at a Prometheus-compatible API and splits the
// answer by the `instance` label, matched to each node's exporter address.
// With window_seconds > 0 the counters' values window_seconds ago are queried
// too, for the counter checks. An Error when the API itself cannot be used.
Result<std::vector<NodeView>> QueryPrometheus(const plan::Plan& plan, const std::string& base_url,
                                              double window_seconds, const ScrapeOptions& options);

// Attaches to each node of `now` the increase of its counters since `before`
// (two observations of the same plan, e.g. consecutive runs of `serve`).
void AttachIncrease(std::vector<NodeView>& now, const std::vector<NodeView>& before,
                    double window_seconds);
// The same for one node.
void AttachIncrease(NodeView& now, const NodeView& before, double window_seconds);

}  // namespace rocewatch::lint::observe
