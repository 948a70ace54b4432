// roce-lint's offline input: one saved /metrics file per node.

#include <filesystem>

#include "lint/observe/observe.h"
#include "lint/read_file.h"

namespace rocewatch::lint::observe {

std::vector<NodeView> ReadMetricsDir(const plan::Plan& plan, const std::string& dir) {
  std::vector<NodeView> views;
  views.reserve(plan.nodes.size());
  for (const auto& node : plan.nodes) {
    std::string path;
    for (const char* ext : {".prom", ".txt"}) {
      std::string candidate = (std::filesystem::path(dir) / (node.name + ext)).string();
      if (std::filesystem::exists(candidate)) {
        path = candidate;
        break;
      }
    }
    NodeView view(node.name, path.empty() ? (std::filesystem::path(dir) / (node.name + ".prom")).string() : path);
    if (path.empty()) {
      view.SetError("no metrics file " + view.source());
      views.push_back(std::move(view));
      continue;
    }
    auto text = ReadFileCapped(path, 64u << 20);
    if (!text) {
      view.SetError(text.error().message);
    } else {
      auto parsed = Exposition::Parse(std::move(*text));
      if (parsed) {
        view.SetMetrics(std::move(*parsed));
      } else {
        view.SetError(path + ": " + parsed.error().message);
      }
    }
    views.push_back(std::move(view));
  }
  return views;
}

}  // namespace rocewatch::lint::observe
