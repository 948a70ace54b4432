#include "lint/serve/alertmanager.h"

#include <algorithm>
#include <ctime>
#include <thread>

#include <nlohmann/json.hpp>

#include "lint/core/check_spec.h"
#include "rocewatch/escape.h"
#include "rocewatch/time_format.h"

namespace rocewatch::lint::serve {

std::string AlertmanagerPusher::RunbookUrl(const Finding& f) {
  // Where the check's registration says it is documented; a finding of no registered check
  // (none reaches here today) points at the list of checks.
  const lint::CheckSpec* spec = lint::FindCheckSpec(f.check);
  return spec != nullptr ? spec->DocsUrl() : std::string(lint::kChecksDoc);
}

std::string AlertmanagerPusher::Key(const Finding& f) {
  return f.check + "\x1f" + f.node + "\x1f" + f.device + "\x1f" + f.port + "\x1f" + f.netdev + "\x1f" +
         f.expected;
}

AlertmanagerPusher::Alert AlertmanagerPusher::MakeAlert(const Finding& f,
                                                        std::chrono::system_clock::time_point now) const {
  // Every text from the plan or a node (names, messages) through the one escape for Alertmanager:
  // no control or bidi character reaches its UI, e-mails or chat, and none is longer than its limit.
  using escape::AlertmanagerText;
  Alert a;
  a.labels = {{"alertname", "RoCELintFinding"}, {"check", AlertmanagerText(f.check)}, {"node", AlertmanagerText(f.node)},
              {"severity", std::string(SeverityName(f.severity))}};
  if (!options_.cluster.empty()) a.labels["cluster"] = AlertmanagerText(options_.cluster);
  if (!f.device.empty()) a.labels["device"] = AlertmanagerText(f.device);
  if (!f.netdev.empty()) a.labels["netdev"] = AlertmanagerText(f.netdev);
  if (!f.port.empty()) a.labels["port"] = AlertmanagerText(f.port);
  a.annotations = {{"summary", AlertmanagerText(f.message)},
                   {"expected", AlertmanagerText(f.expected)},
                   {"found", AlertmanagerText(f.found)},
                   {"fix", AlertmanagerText(f.fix)},
                   {"runbook_url", RunbookUrl(f)}};
  a.starts_at = now;
  return a;
}

std::string AlertmanagerPusher::Body(std::chrono::system_clock::time_point now) const {
  nlohmann::json alerts = nlohmann::json::array();
  auto ttl = std::chrono::duration_cast<std::chrono::system_clock::duration>(
      std::chrono::duration<double>(options_.resend_ttl_seconds));
  auto add = [&](const Alert& a, std::chrono::system_clock::time_point ends) {
    alerts.push_back({{"labels", a.labels},
                      {"annotations", a.annotations},
                      {"startsAt", FormatRfc3339(a.starts_at)},
                      {"endsAt", FormatRfc3339(ends)}});
  };
  for (const auto& [key, a] : firing_) add(a, now + ttl);
  for (const auto& [key, entry] : resolved_) add(entry.first, entry.second);
  return alerts.dump();
}

PushResult AlertmanagerPusher::Push(const std::vector<Finding>& open, std::chrono::system_clock::time_point now,
                                    const std::atomic<bool>* stop) {
  // At most kMaxAlerts findings become alerts: the most severe first, in their order otherwise.
  std::vector<const Finding*> sent;
  sent.reserve(open.size());
  for (const auto& f : open) sent.push_back(&f);
  std::size_t not_sent = 0;
  if (sent.size() > kMaxAlerts - 1) {
    std::stable_sort(sent.begin(), sent.end(), [](const Finding* a, const Finding* b) { return a->severity > b->severity; });
    not_sent = sent.size() - (kMaxAlerts - 1);
    sent.resize(kMaxAlerts - 1);
  }
  std::map<std::string, Alert> next;
  for (const Finding* f : sent) {
    std::string key = Key(*f);
    if (next.count(key)) continue;
    auto it = firing_.find(key);
    Alert a = MakeAlert(*f, now);
    if (it != firing_.end()) {  // the same alert: its labels and start stay, its annotations are new
      a.labels = it->second.labels;
      a.starts_at = it->second.starts_at;
    }
    next.emplace(key, std::move(a));
    resolved_.erase(key);  // came back before its resolution was delivered
  }
  if (not_sent > 0) {
    const std::string key = "\x1f" "truncated";
    Alert a;
    a.labels = {{"alertname", "RoCELintAlertsTruncated"}, {"severity", "warning"}};
    if (!options_.cluster.empty()) a.labels["cluster"] = escape::AlertmanagerText(options_.cluster);
    a.annotations = {{"summary", std::to_string(not_sent) + " of " + std::to_string(open.size()) +
                                     " findings were not sent as alerts: roce-lint sends at most " +
                                     std::to_string(kMaxAlerts - 1) + ", the most severe first (docs/security.md); "
                                     "its /metrics and `roce-lint check` show them all"}};
    auto it = firing_.find(key);
    a.starts_at = it != firing_.end() ? it->second.starts_at : now;
    next.emplace(key, std::move(a));
    resolved_.erase(key);
  }
  for (auto& [key, alert] : firing_) {
    if (next.count(key)) continue;
    if (resolved_.size() >= kMaxPendingResolutions) {
      resolutions_dropped_ += 1;  // Alertmanager resolves it at its endsAt
      continue;
    }
    resolved_.emplace(key, std::make_pair(alert, now));
  }
  firing_ = std::move(next);

  PushResult result;
  result.firing = firing_.size();
  result.resolved = resolved_.size();
  result.not_sent = not_sent;
  if (options_.urls.empty()) {
    result.ok = true;
    return result;
  }
  std::string body = Body(now);
  double backoff = options_.backoff_seconds;
  for (int attempt = 1; attempt <= options_.attempts; ++attempt) {
    result.attempts = attempt;
    bool any = false;
    std::string errors;
    for (const auto& url : options_.urls) {
      observe::HttpRequest req;
      req.url = url + "/api/v2/alerts";
      req.method = "POST";
      req.body = body;
      req.headers = {"Content-Type: application/json"};
      req.timeout_seconds = options_.timeout_seconds;
      req.max_bytes = 1u << 20;
      observe::HttpResponse resp = observe::Fetch(req);
      if (resp.ok()) {
        any = true;
      } else {
        errors += (errors.empty() ? "" : "; ") + url + ": " + resp.Describe();
      }
    }
    if (any) {
      result.ok = true;
      result.error = errors;  // some of several Alertmanagers may have missed it
      resolved_.clear();      // delivered
      return result;
    }
    result.error = errors;
    if (stop != nullptr && stop->load()) break;
    if (attempt < options_.attempts) {
      const auto until = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                                std::chrono::duration<double>(backoff));
      while (std::chrono::steady_clock::now() < until && (stop == nullptr || !stop->load()))
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      if (stop != nullptr && stop->load()) break;
      backoff *= 2;
    }
  }
  return result;
}

}  // namespace rocewatch::lint::serve
