#pragma once

// Pushes open findings to Alertmanager's v2 API as alerts that resolve when
// the finding goes away. Every push carries every open alert (re-sent before it
// expires) and every resolution not yet delivered: when Alertmanager is down
// nothing is dropped, the next successful push delivers it all.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "lint/core/finding.h"
#include "lint/observe/http_client.h"

namespace rocewatch::lint::serve {

// Limits on what one daemon holds for Alertmanager (docs/security.md): an exporter that invents
// devices must not grow a push or the memory of those kept. Past kMaxAlerts the most severe
// findings are sent and one alert, RoCELintAlertsTruncated, says how many were not; past
// kMaxPendingResolutions a resolution is dropped (Alertmanager resolves that alert itself when
// its endsAt, resend_ttl_seconds after its last push, passes) and counted.
inline constexpr std::size_t kMaxAlerts = 2000;
inline constexpr std::size_t kMaxPendingResolutions = 2000;

struct AlertmanagerOptions {
  std::vector<std::string> urls;     // base URLs, e.g. http://127.0.0.1:9093
  std::string cluster;               // added as label `cluster`
  double resend_ttl_seconds = 300;   // endsAt = now + ttl for open alerts
  double timeout_seconds = 5;
  int attempts = 3;                  // per push, with exponential backoff
  double backoff_seconds = 0.5;
};

struct PushResult {
  bool ok = false;
  int attempts = 0;
  std::string error;
  std::size_t firing = 0, resolved = 0;
  std::size_t not_sent = 0;  // findings past kMaxAlerts
};

class AlertmanagerPusher {
 public:
  explicit AlertmanagerPusher(AlertmanagerOptions options) : options_(std::move(options)) {}

  // Updates the set of open findings and pushes (to every URL; ok when one took it). `stop`, when
  // given and set, ends the retries early (the daemon is stopping).
  PushResult Push(const std::vector<Finding>& open, std::chrono::system_clock::time_point now,
                  const std::atomic<bool>* stop = nullptr);

  std::size_t pending_resolutions() const { return resolved_.size(); }
  double resolutions_dropped_total() const { return resolutions_dropped_; }

  // The JSON body for the current state (for tests).
  std::string Body(std::chrono::system_clock::time_point now) const;

 private:
  struct Alert {
    std::map<std::string, std::string> labels, annotations;
    std::chrono::system_clock::time_point starts_at;
  };
  static std::string Key(const Finding& f);
  // The alert's runbook_url: the docs anchor of the finding's check (CheckSpec::DocsUrl).
  static std::string RunbookUrl(const Finding& f);
  Alert MakeAlert(const Finding& f, std::chrono::system_clock::time_point now) const;

  AlertmanagerOptions options_;
  std::map<std::string, Alert> firing_;    // by finding key
  std::map<std::string, std::pair<Alert, std::chrono::system_clock::time_point>> resolved_;  // until delivered
  double resolutions_dropped_ = 0;
};

}  // namespace rocewatch::lint::serve
