// roce-lint through a Prometheus-compatible HTTP API (Prometheus, Thanos,
// Mimir): the latest value of every roce_ series, split by instance.

#include <chrono>
#include <cmath>
#include <map>

#include "lint/observe/observe.h"
#include "lint/observe/prometheus_answer.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::observe {
namespace {

// Runs an instant query; returns the result vector by instance as exposition text.
Result<std::map<std::string, std::string>> InstantQuery(const std::string& base_url,
                                                        const std::string& query,
                                                        std::optional<double> at,
                                                        const ScrapeOptions& options) {
  HttpRequest req = options.tls_and_auth;
  req.url = base_url + "/api/v1/query?query=" + UrlEncode(query);
  if (at) req.url += "&time=" + FormatDouble(*at);
  req.timeout_seconds = options.timeout_seconds;
  req.max_bytes = 1024u << 20;
  HttpResponse resp = Fetch(req);
  if (!resp.ok()) return Error{"query " + base_url + ": " + resp.Describe()};
  return SplitVectorAnswerByInstance(resp.body, "query " + base_url);
}

}  // namespace

Result<std::vector<NodeView>> QueryPrometheus(const plan::Plan& plan, const std::string& base_url,
                                              double window_seconds, const ScrapeOptions& options) {
  double now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  auto current = InstantQuery(base_url, "{__name__=~\"roce_.+\"}", now, options);
  if (!current) return current.error();
  std::map<std::string, std::string> before;
  if (window_seconds > 0) {
    auto old = InstantQuery(base_url, "{__name__=~\"roce_.+_total\"}", now - window_seconds, options);
    if (!old) return old.error();
    before = std::move(*old);
  }
  std::vector<NodeView> views;
  for (const auto& node : plan.nodes) {
    NodeView view(node.name, base_url + " instance=\"" + node.exporter + "\"");
    auto it = current->find(node.exporter);
    if (it == current->end()) {
      view.SetError("no roce_ series for instance " + node.exporter + " in " + base_url +
                    " (target down or not scraped)");
      views.push_back(std::move(view));
      continue;
    }
    auto parsed = Exposition::Parse(it->second);
    if (!parsed) {
      view.SetError(parsed.error().message);
      views.push_back(std::move(view));
      continue;
    }
    auto old_it = before.find(node.exporter);
    if (old_it != before.end()) {
      auto old = Exposition::Parse(old_it->second);
      if (old) {
        auto inc = ComputeIncrease(*old, *parsed);
        if (inc) view.SetIncrease(std::move(*inc), window_seconds);
      }
    }
    view.SetMetrics(std::move(*parsed));
    views.push_back(std::move(view));
  }
  return views;
}

}  // namespace rocewatch::lint::observe
