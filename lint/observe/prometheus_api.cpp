// roce-lint through a Prometheus-compatible HTTP API (Prometheus, Thanos,
// Mimir): the latest value of every roce_ series, split by instance.

#include <chrono>
#include <cmath>
#include <map>

#include <nlohmann/json.hpp>

#include "lint/observe/observe.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::observe {
namespace {

// Escapes a label value for the text format.
std::string EscapeLabel(std::string_view v) {
  std::string out;
  for (char c : v) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

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
  nlohmann::json doc = nlohmann::json::parse(resp.body, nullptr, false);
  if (doc.is_discarded() || !doc.is_object())
    return Error{"query " + base_url + ": answer is not JSON"};
  if (doc.value("status", "") != "success")
    return Error{"query " + base_url + ": " + doc.value("error", std::string("status is not success"))};
  const auto& data = doc["data"];
  if (!data.is_object() || data.value("resultType", "") != "vector" || !data["result"].is_array())
    return Error{"query " + base_url + ": expected a result vector"};
  std::map<std::string, std::string> by_instance;
  for (const auto& item : data["result"]) {
    if (!item.is_object() || !item["metric"].is_object() || !item["value"].is_array() ||
        item["value"].size() != 2 || !item["value"][1].is_string())
      continue;
    const auto& metric = item["metric"];
    std::string name = metric.value("__name__", "");
    std::string instance = metric.value("instance", "");
    if (name.empty() || instance.empty()) continue;
    std::string line = name + "{";
    bool first = true;
    for (auto it = metric.begin(); it != metric.end(); ++it) {
      if (it.key() == "__name__" || !it.value().is_string()) continue;
      if (!first) line += ',';
      first = false;
      line += it.key() + "=\"" + EscapeLabel(it.value().get<std::string>()) + "\"";
    }
    line += "} " + item["value"][1].get<std::string>() + "\n";
    by_instance[instance] += line;
  }
  return by_instance;
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
