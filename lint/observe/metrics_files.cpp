// roce-lint's offline input: one saved /metrics file per node.

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <mutex>
#include <thread>

#include "lint/observe/observe.h"
#include "rocewatch/escape.h"
#include "rocewatch/read_file.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::observe {
namespace {

// The view of `node` from DIR/<node>.prom (or .txt): its metrics, or why there are none.
NodeView ReadNodeFile(const std::string& node, const std::string& dir, std::size_t max_bytes) {
  if (!escape::PathComponent(node)) {  // never a file outside DIR
    NodeView view(node, dir);
    view.SetError("node name " + Quote(node) + " cannot be a file name in " + dir + ": " +
                  escape::PathComponentProblem(node));
    return view;
  }
  std::string path;
  for (const char* ext : {".prom", ".txt"}) {
    std::string candidate = (std::filesystem::path(dir) / (node + ext)).string();
    std::error_code ec;
    if (std::filesystem::exists(candidate, ec)) {
      path = candidate;
      break;
    }
  }
  NodeView view(node, path.empty() ? (std::filesystem::path(dir) / (node + ".prom")).string() : path);
  if (path.empty()) {
    view.SetError("no metrics file " + view.source());
    return view;
  }
  auto text = ReadFileCapped(path, max_bytes);
  if (!text) {
    view.SetError(text.error().message);
    return view;
  }
  auto parsed = Exposition::Parse(std::move(*text), {.max_bytes = max_bytes});
  if (parsed) {
    view.SetMetrics(std::move(*parsed));
  } else {
    view.SetError(path + ": " + parsed.error().message);
  }
  return view;
}

}  // namespace

void ReadMetricsDir(const plan::Plan& plan, const std::string& dir, const std::string& previous_dir,
                    double window_seconds, int threads, std::size_t max_bytes, const NodeSink& sink) {
  std::atomic<std::size_t> next{0};
  std::mutex sink_mu;
  auto worker = [&] {
    for (std::size_t i = next.fetch_add(1); i < plan.nodes.size(); i = next.fetch_add(1)) {
      NodeView view = ReadNodeFile(plan.nodes[i].name, dir, max_bytes);
      if (!previous_dir.empty() && view.reachable()) {
        NodeView before = ReadNodeFile(plan.nodes[i].name, previous_dir, max_bytes);
        AttachIncrease(view, before, window_seconds);
      }
      std::lock_guard lock(sink_mu);
      sink(i, std::move(view));
    }
  };
  const int n = std::max(1, std::min<int>(threads, static_cast<int>(plan.nodes.size())));
  std::vector<std::thread> pool;
  for (int t = 1; t < n; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
}

std::vector<NodeView> ReadMetricsDir(const plan::Plan& plan, const std::string& dir) {
  CollectViews views(plan);
  ReadMetricsDir(plan, dir, "", 0, 1, kDefaultMaxBodyBytes, views.sink());
  return std::move(views).Take();
}

CollectViews::CollectViews(const plan::Plan& plan) {
  views_.reserve(plan.nodes.size());
  for (const auto& node : plan.nodes) views_.emplace_back(node.name, "");
}

NodeSink CollectViews::sink() {
  return [this](std::size_t i, NodeView&& view) { views_[i] = std::move(view); };
}

}  // namespace rocewatch::lint::observe
