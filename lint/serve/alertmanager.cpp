#include "lint/serve/alertmanager.h"

#include <ctime>
#include <thread>

#include <nlohmann/json.hpp>

#include "lint/core/check_spec.h"
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
  Alert a;
  a.labels = {{"alertname", "RoCELintFinding"}, {"check", f.check}, {"node", f.node},
              {"severity", std::string(SeverityName(f.severity))}};
  if (!options_.cluster.empty()) a.labels["cluster"] = options_.cluster;
  if (!f.device.empty()) a.labels["device"] = f.device;
  if (!f.netdev.empty()) a.labels["netdev"] = f.netdev;
  if (!f.port.empty()) a.labels["port"] = f.port;
  a.annotations = {{"summary", f.message},
                   {"expected", f.expected},
                   {"found", f.found},
                   {"fix", f.fix},
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

PushResult AlertmanagerPusher::Push(const std::vector<Finding>& open,
                                    std::chrono::system_clock::time_point now) {
  std::map<std::string, Alert> next;
  for (const auto& f : open) {
    std::string key = Key(f);
    auto it = firing_.find(key);
    next.emplace(key, it != firing_.end() ? it->second : MakeAlert(f, now));
    if (it != firing_.end()) next[key].annotations = MakeAlert(f, now).annotations;
    resolved_.erase(key);  // came back before its resolution was delivered
  }
  for (auto& [key, alert] : firing_)
    if (!next.count(key)) resolved_.emplace(key, std::make_pair(alert, now));
  firing_ = std::move(next);

  PushResult result;
  result.firing = firing_.size();
  result.resolved = resolved_.size();
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
    if (attempt < options_.attempts) {
      std::this_thread::sleep_for(std::chrono::duration<double>(backoff));
      backoff *= 2;
    }
  }
  return result;
}

}  // namespace rocewatch::lint::serve
