// The JSON report of `roce-lint verify` (schema_version 1, docs/verify.md).

#include "lint/verify/report.h"

namespace rocewatch::lint::verify {
namespace {

nlohmann::json Counters(const std::optional<NicCounters>& c) {
  if (!c) return nullptr;
  nlohmann::json j;
  j["observed"] = c->observed;
  if (!c->observed) {
    j["error"] = c->error;
    return j;
  }
  j["window_seconds"] = c->window_seconds;
  j["pause_frames"] = c->pause_frames;
  j["pause_seconds"] = c->pause_seconds;
  j["discards"] = c->discards;
  j["ecn_marked"] = c->ecn_marked;
  j["cnp_sent"] = c->cnp_sent;
  j["cnp_handled"] = c->cnp_handled;
  j["transport_errors"] = c->transport_errors;
  j["link_flaps"] = c->link_flaps;
  j["port_down_during_test"] = c->port_down_during;
  return j;
}

template <class T>
nlohmann::json Opt(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

}  // namespace

nlohmann::json VerifyJson(const std::vector<PairResult>& results, const VerifyRunInfo& info) {
  nlohmann::json j;
  j["schema_version"] = kVerifyJsonSchemaVersion;
  j["tool"] = "roce-lint";
  j["command"] = "verify";
  j["plan"] = info.plan;
  j["perftest"] = info.tool;
  j["duration_seconds"] = info.duration_seconds;
  std::size_t n[4] = {};
  j["pairs"] = nlohmann::json::array();
  for (const auto& r : results) {
    ++n[static_cast<int>(r.status)];
    nlohmann::json p;
    p["pair"] = r.name;
    p["server"] = r.server;
    p["client"] = r.client;
    p["origin"] = r.origin;
    p["round"] = r.round;
    p["status"] = StatusName(r.status);
    if (!r.detail.empty()) p["detail"] = r.detail;
    p["bandwidth_gbps"] = Opt(r.bandwidth_gbps);
    p["line_rate_gbps"] = Opt(r.line_rate_gbps);
    p["latency_us"] = Opt(r.latency_us);
    p["server_gid_index"] = Opt(r.server_gid_index);
    p["client_gid_index"] = Opt(r.client_gid_index);
    p["test_seconds"] = r.test_seconds;
    p["server_counters"] = Counters(r.server_counters);
    p["client_counters"] = Counters(r.client_counters);
    p["verdicts"] = nlohmann::json::array();
    for (const auto& v : r.verdicts)
      p["verdicts"].push_back({{"check", v.check}, {"passed", v.passed}, {"nic", v.nic}, {"counter", v.counter},
                               {"expected", v.expected}, {"found", v.found}, {"message", v.message}});
    j["pairs"].push_back(std::move(p));
  }
  j["summary"] = {{"pairs", results.size()}, {"pass", n[0]}, {"fail", n[1]}, {"error", n[2]}, {"unreachable", n[3]}};
  j["unpaired"] = info.unpaired;
  return j;
}

}  // namespace rocewatch::lint::verify
