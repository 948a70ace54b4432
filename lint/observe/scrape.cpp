// roce-lint's live input: concurrent scrapes of the exporters the plan names.

#include <atomic>
#include <thread>

#include "lint/observe/observe.h"

namespace rocewatch::lint::observe {

std::vector<NodeView> ScrapeNodes(const plan::Plan& plan, const ScrapeOptions& options) {
  std::vector<NodeView> views;
  views.reserve(plan.nodes.size());
  for (const auto& node : plan.nodes) {
    views.emplace_back(node.name, options.scheme + "://" + node.exporter + options.metrics_path);
  }
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    while (true) {
      std::size_t i = next.fetch_add(1);
      if (i >= views.size()) return;
      HttpRequest req = options.tls_and_auth;
      req.url = views[i].source();
      req.timeout_seconds = options.timeout_seconds;
      req.max_bytes = options.max_bytes;
      req.headers.push_back("Accept: text/plain");
      HttpResponse resp = Fetch(req);
      if (!resp.ok()) {
        views[i].SetError("scrape " + req.url + ": " + resp.Describe());
        continue;
      }
      auto parsed = Exposition::Parse(std::move(resp.body));
      if (parsed) {
        views[i].SetMetrics(std::move(*parsed));
      } else {
        views[i].SetError("scrape " + req.url + ": " + parsed.error().message);
      }
    }
  };
  int threads = std::max(1, std::min<int>(options.concurrency, static_cast<int>(views.size())));
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  return views;
}

void AttachIncrease(std::vector<NodeView>& now, const std::vector<NodeView>& before,
                    double window_seconds) {
  for (auto& view : now) {
    if (!view.reachable()) continue;
    for (const auto& old : before) {
      if (old.node() != view.node() || !old.reachable()) continue;
      auto inc = ComputeIncrease(*old.metrics(), *view.metrics());
      if (inc) view.SetIncrease(std::move(*inc), window_seconds);
      break;
    }
  }
}

}  // namespace rocewatch::lint::observe
