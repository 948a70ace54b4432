// roce-lint's live input: concurrent scrapes of the exporters the plan names.

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string_view>
#include <thread>
#include <unordered_map>

#include "lint/observe/observe.h"

namespace rocewatch::lint::observe {

void ScrapeNodes(const plan::Plan& plan, const ScrapeOptions& options, const NodeSink& sink,
                 std::vector<NodeView>* before, double window_seconds) {
  std::atomic<std::size_t> next{0};
  std::mutex sink_mu;
  auto worker = [&] {
    for (std::size_t i = next.fetch_add(1); i < plan.nodes.size(); i = next.fetch_add(1)) {
      NodeView view(plan.nodes[i].name, options.scheme + "://" + plan.nodes[i].exporter + options.metrics_path);
      HttpRequest req = options.tls_and_auth;
      req.url = view.source();
      req.timeout_seconds = options.timeout_seconds;
      req.max_bytes = options.max_bytes;
      req.headers.push_back("Accept: text/plain");
      HttpResponse resp = Fetch(req);
      if (!resp.ok()) {
        view.SetError("scrape " + req.url + ": " + resp.Describe());
      } else if (auto parsed = Exposition::Parse(std::move(resp.body), {.max_bytes = options.max_bytes}); parsed) {
        view.SetMetrics(std::move(*parsed));
      } else {
        view.SetError("scrape " + req.url + ": " + parsed.error().message);
      }
      if (before != nullptr && i < before->size()) {
        AttachIncrease(view, (*before)[i], window_seconds);
        (*before)[i] = NodeView((*before)[i].node(), "");  // its metrics are no longer needed
      }
      std::lock_guard lock(sink_mu);
      sink(i, std::move(view));
    }
  };
  const int threads = std::max(1, std::min<int>(options.concurrency, static_cast<int>(plan.nodes.size())));
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
}

std::vector<NodeView> ScrapeNodes(const plan::Plan& plan, const ScrapeOptions& options) {
  CollectViews views(plan);
  ScrapeNodes(plan, options, views.sink());
  return std::move(views).Take();
}

void AttachIncrease(NodeView& now, const NodeView& before, double window_seconds) {
  if (!now.reachable() || !before.reachable() || before.node() != now.node()) return;
  auto inc = ComputeIncrease(*before.metrics(), *now.metrics());
  if (inc) now.SetIncrease(std::move(*inc), window_seconds);
}

void AttachIncrease(std::vector<NodeView>& now, const std::vector<NodeView>& before,
                    double window_seconds) {
  // Both are normally one view per plan node in plan order: matched by index, by name otherwise.
  std::unordered_map<std::string_view, const NodeView*> by_name;
  for (std::size_t i = 0; i < now.size(); ++i) {
    if (i < before.size() && before[i].node() == now[i].node()) {
      AttachIncrease(now[i], before[i], window_seconds);
      continue;
    }
    if (by_name.empty())
      for (const auto& old : before) by_name.emplace(old.node(), &old);
    if (auto it = by_name.find(now[i].node()); it != by_name.end())
      AttachIncrease(now[i], *it->second, window_seconds);
  }
}

}  // namespace rocewatch::lint::observe
