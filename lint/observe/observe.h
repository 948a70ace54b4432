#pragma once

// Where roce-lint gets the nodes' metrics: saved /metrics files (CI, offline),
// direct concurrent scrapes of the exporters the plan names, or a
// Prometheus-compatible query API. Each returns one NodeView per plan node, in
// plan order; a node that cannot be observed is a NodeView with an error, never
// an abort.

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

// DIR/<node>.prom (or .txt) for every node; a missing file makes that node unobserved.
std::vector<NodeView> ReadMetricsDir(const plan::Plan& plan, const std::string& dir);

// Scrapes every node's exporter, `concurrency` at a time.
std::vector<NodeView> ScrapeNodes(const plan::Plan& plan, const ScrapeOptions& options);

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

}  // namespace rocewatch::lint::observe
