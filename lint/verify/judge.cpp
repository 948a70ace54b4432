#include "lint/verify/judge.h"

#include <cmath>

#include "lint/checks/counters/transport_events.h"
#include "lint/metric_contract.h"
#include "lint/verify/numbers.h"
#include "lint/verify/pair_log.h"
#include "rocewatch/escape.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::verify {
namespace {

std::string Percent(double fraction) { return FormatSignificant(fraction * 100, 3) + "%"; }

std::string NicLabel(const plan::Plan& plan, const Endpoint& e) {
  return EndpointName(plan, e) + " (" + plan.nodes[e.node].nics[e.nic].netdev + ")";
}

// `family{direction="rx",priority="3"}`: the series a verdict measured.
std::string Series(std::string_view family, const std::string& direction, const std::string& priority) {
  return std::string(family) + "{" + std::string(label::direction) + "=\"" + direction + "\"," +
         std::string(label::priority) + "=\"" + priority + "\"}";
}

// `roce_transport_events_total{event=~"retransmits|…"}`: the events verify.retransmissions sums.
std::string JudgedEventsSeries() {
  std::string events;
  for (std::string_view e : checks::counters::JudgedTransportEvents())
    events += (events.empty() ? "" : "|") + std::string(e);
  return std::string(metric::roce_transport_events_total) + "{" + std::string(label::event) + "=~\"" + events + "\"}";
}

bool IsPfcPriority(const Thresholds& t, const std::string& priority) {
  if (!t.pfc_priorities) return true;  // not planned: nothing to compare with
  for (auto p : *t.pfc_priorities)
    if (std::to_string(p) == priority) return true;
  return false;
}

// `id` with `args` in English, kept in `keep` for the report's language.
std::string Say(i18n::StoredMessage& keep, i18n::MessageId id, i18n::StoredArgs args) {
  keep = i18n::Store(id, std::move(args));
  return i18n::RenderOr(i18n::Language::kEnglish, keep, "");
}

void JudgeCounters(const Thresholds& t, const std::string& nic, const NicCounters& c,
                   std::vector<Verdict>& out) {
  if (!c.observed) {
    Verdict v{"verify.counters", false, nic, "exporter", "", c.error, ""};
    v.expected = Say(v.expected_text, "verify.counters.expected", {});
    v.message = Say(v.message_text, "verify.counters.unread", {{"nic", nic}, {"error", c.error}});
    out.push_back(std::move(v));
    return;
  }
  const double w = c.window_seconds > 0 ? c.window_seconds : 1;
  // Pause frames on priorities without PFC.
  for (const auto& [key, frames] : c.pause_frames) {
    const std::string direction = key.substr(0, key.find(' ')), priority = key.substr(key.find(' ') + 1);
    if (frames <= 0 || IsPfcPriority(t, priority)) continue;
    Verdict v{"verify.pause-non-pfc", false, nic,
              Series(c.pause_family.count(key) != 0 ? std::string_view(c.pause_family.at(key))
                                                    : std::string_view(metric::roce_pfc_pause_frames_total),
                     direction, priority),
              "",
              FormatSignificant(frames), ""};
    v.expected = Say(v.expected_text, "verify.pause_non_pfc.expected", {{"priority", priority}});
    i18n::StoredArgs args = {{"nic", nic},
                             {"frames", FormatSignificant(frames)},
                             {"priority", priority},
                             {"rate", FormatSignificant(frames / w)}};
    v.message = direction == "rx" ? Say(v.message_text, "verify.pause_non_pfc.received", std::move(args))
                                  : Say(v.message_text, "verify.pause_non_pfc.sent", std::move(args));
    out.push_back(std::move(v));
  }
  // The share of the test a priority was paused.
  double worst = -1;
  std::string worst_key;
  for (const auto& [key, seconds] : c.pause_seconds)
    if (seconds / w > worst) worst = seconds / w, worst_key = key;
  if (worst >= 0) {
    const std::string direction = worst_key.substr(0, worst_key.find(' ')),
                      priority = worst_key.substr(worst_key.find(' ') + 1);
    const bool ok = worst <= t.max_pause_duration_fraction;
    Verdict v{"verify.pause-duration", ok, nic,
              Series(metric::roce_pfc_pause_duration_seconds_total, direction, priority), "", Percent(worst), ""};
    v.expected = Say(v.expected_text, "verify.pause_duration.expected", {{"limit", Percent(t.max_pause_duration_fraction)}});
    i18n::StoredArgs args = {{"nic", nic},
                             {"direction", direction},
                             {"priority", priority},
                             {"share", Percent(worst)},
                             {"seconds", FormatSignificant(w, 3)}};
    if (ok) {
      v.message = Say(v.message_text, "verify.pause_duration.within", std::move(args));
    } else {
      args.push_back({"times", FormatSignificant(worst / std::max(t.max_pause_duration_fraction, 1e-9), 3)});
      args.push_back({"limit", Percent(t.max_pause_duration_fraction)});
      v.message = Say(v.message_text, "verify.pause_duration.over", std::move(args));
    }
    out.push_back(std::move(v));
  }
  // Retransmissions and sequence errors.
  double transport = 0;
  std::string which;
  for (const auto& [name, inc] : c.transport_errors) {
    transport += inc;
    which += (which.empty() ? "" : ", ") + name + " +" + FormatSignificant(inc);
  }
  {
    const double rate = transport / w;
    const bool ok = rate <= t.max_retransmissions_per_second;
    Verdict v{"verify.retransmissions", ok, nic, JudgedEventsSeries(),
              "<= " + FormatSignificant(t.max_retransmissions_per_second) + "/s", FormatSignificant(rate) + "/s", ""};
    i18n::StoredArgs args = {{"nic", nic}, {"which", which}, {"seconds", FormatSignificant(w, 3)},
                             {"rate", FormatSignificant(rate)}, {"limit", FormatSignificant(t.max_retransmissions_per_second)}};
    if (!c.transport_counted) v.found = Say(v.found_text, "verify.retransmissions.found_not_counted", {});
    v.message = !c.transport_counted ? Say(v.message_text, "verify.retransmissions.not_counted", std::move(args))
                : which.empty() ? Say(v.message_text, "verify.retransmissions.none", std::move(args))
                : ok          ? Say(v.message_text, "verify.retransmissions.within", std::move(args))
                              : Say(v.message_text, "verify.retransmissions.over", std::move(args));
    out.push_back(std::move(v));
  }
  {
    const bool ok = c.discards <= static_cast<double>(t.max_discards);
    Verdict v{"verify.discards", ok, nic,
              std::string(metric::roce_priority_discards_total) + ", " +
                  std::string(metric::roce_ethtool_rx_discarded_packets_total) + ", " +
                  std::string(metric::roce_ethtool_tx_discarded_packets_total) + ", " +
                  std::string(metric::roce_ethtool_rx_out_of_buffer_packets_total) + ", " +
                  std::string(metric::roce_hw_stat_total) + "{" + std::string(label::counter) + "=\"out_of_buffer\"}",
              "<= " + std::to_string(t.max_discards), FormatSignificant(c.discards), ""};
    i18n::StoredArgs args = {{"nic", nic}, {"count", FormatSignificant(c.discards)},
                             {"rate", FormatSignificant(c.discards / w)}, {"limit", std::to_string(t.max_discards)}};
    v.message = ok ? Say(v.message_text, "verify.discards.within", std::move(args))
                   : Say(v.message_text, "verify.discards.over", std::move(args));
    out.push_back(std::move(v));
  }
  {
    const bool ok = c.link_flaps <= 0 && !c.port_down_during;
    Verdict v{"verify.link-flaps", ok, nic,
              std::string(metric::roce_netdev_carrier_changes_total) + ", " +
                  std::string(metric::roce_link_down_events_total) + ", " + std::string(metric::roce_port_state),
              "",
              FormatSignificant(c.link_flaps), ""};
    v.expected = Say(v.expected_text, "verify.link.expected", {});
    if (c.port_down_during) v.found = Say(v.found_text, "verify.link.found_not_active", {});
    v.message = ok                 ? Say(v.message_text, "verify.link.stable", {{"nic", nic}})
                : c.port_down_during ? Say(v.message_text, "verify.link.not_active", {{"nic", nic}})
                                     : Say(v.message_text, "verify.link.flapped",
                                           {{"nic", nic}, {"count", FormatSignificant(c.link_flaps)}});
    out.push_back(std::move(v));
  }
}

}  // namespace

const char* StatusName(PairStatus status) {
  switch (status) {
    case PairStatus::kPass: return "PASS";
    case PairStatus::kFail: return "FAIL";
    case PairStatus::kError: return "ERROR";
    case PairStatus::kUnreachable: return "UNREACHABLE";
  }
  return "?";
}

PairResult Judge(const JudgeInput& in) {
  const plan::Plan& plan = *in.plan;
  PairResult r;
  r.name = PairName(plan, in.pair);
  r.origin = in.pair.origin;
  r.round = in.round;
  r.server = EndpointName(plan, in.pair.server);
  r.client = EndpointName(plan, in.pair.client);
  r.tool = in.tool;
  r.server_counters = in.server_counters;
  r.client_counters = in.client_counters;
  const PerftestRun& run = *in.run;
  r.server_gid_index = run.server.gid_index;
  r.client_gid_index = run.client.gid_index;
  r.log = escape::OwnLogLine("$ ", run.server.command + "   # server") +
          escape::ForeignLogLines(run.server.process.output) +
          escape::OwnLogLine("$ ", run.client.command + "   # client") +
          escape::ForeignLogLines(run.client.process.output) + escape::ForeignLogLines(run.cleanup_output);
  if (run.outcome == PerftestRun::Outcome::kUnreachable) {
    r.status = PairStatus::kUnreachable;
    r.detail = run.detail;
    return r;
  }
  if (run.outcome == PerftestRun::Outcome::kFailed) {
    r.status = PairStatus::kError;
    r.detail = run.detail;
    return r;
  }
  if (!in.client_output) {
    r.status = PairStatus::kError;
    r.detail = Say(r.detail_text, "verify.detail.no_output", {});
    return r;
  }
  if (!in.client_output->ok()) {
    r.status = PairStatus::kError;
    r.detail = Say(r.detail_text, "verify.detail.unreadable",
                   {{"client", r.client}, {"error", in.client_output->error().message}});
    return r;
  }
  const PerftestOutput& out = **in.client_output;
  if (!out.errors.empty()) {
    r.status = PairStatus::kError;
    r.detail = Say(r.detail_text, "verify.detail.perftest", {{"client", r.client}, {"error", out.errors.front()}});
    return r;
  }
  const Thresholds& t = in.thresholds;
  const std::string pair_label = r.name;
  if (out.kind == PerftestKind::kBandwidth) {
    const PerftestBandwidthRow* row = nullptr;
    for (const auto& b : out.bandwidth)
      if (b.scope == PerftestRowScope::kTotal && (!row || b.bytes >= row->bytes)) row = &b;
    if (!row) {
      r.status = PairStatus::kError;
      r.detail = Say(r.detail_text, "verify.detail.no_bandwidth", {{"client", r.client}});
      return r;
    }
    const double gbps = row->average_bits_per_second / 1e9;
    r.bandwidth_gbps = gbps;
    if (t.link_speed_gbps) {
      // A bidirectional run reports both directions together.
      const double line = static_cast<double>(*t.link_speed_gbps) * (out.bidirectional || in.bidirectional ? 2 : 1);
      r.line_rate_gbps = line;
      const double need = line * t.min_bandwidth_fraction;
      const bool ok = gbps >= need;
      Verdict v{"verify.bandwidth", ok, "", "BW average (" + std::to_string(row->bytes) + " B messages)", "",
                FormatSignificant(gbps) + " Gb/s", ""};
      v.expected = Say(v.expected_text, "verify.bandwidth.expected",
                       {{"need", FormatSignificant(need)},
                        {"fraction", Percent(t.min_bandwidth_fraction)},
                        {"line", FormatSignificant(line)}});
      i18n::StoredArgs args = {{"pair", pair_label},           {"gbps", FormatSignificant(gbps)},
                               {"share", Percent(gbps / line)}, {"line", FormatSignificant(line)},
                               {"short", FormatSignificant(need - gbps)}, {"target", Percent(t.min_bandwidth_fraction)}};
      v.message = ok ? Say(v.message_text, "verify.bandwidth.within", std::move(args))
                     : Say(v.message_text, "verify.bandwidth.short", std::move(args));
      r.verdicts.push_back(std::move(v));
    } else {
      Verdict v{"verify.bandwidth", true, "", "BW average", "", FormatSignificant(gbps) + " Gb/s", ""};
      v.expected = Say(v.expected_text, "verify.bandwidth.unjudged_expected", {});
      v.message = Say(v.message_text, "verify.bandwidth.unjudged", {{"pair", pair_label}, {"gbps", FormatSignificant(gbps)}});
      r.verdicts.push_back(std::move(v));
    }
  } else {
    const PerftestLatencyRow* row = nullptr;
    for (const auto& l : out.latency)
      if (!row || l.bytes <= row->bytes) row = &l;
    if (!row) {
      r.status = PairStatus::kError;
      r.detail = Say(r.detail_text, "verify.detail.no_latency", {{"client", r.client}});
      return r;
    }
    const double us = row->has_distribution ? row->typical_us : row->average_us;
    r.latency_us = us;
    const bool ok = us <= t.max_latency_us;
    Verdict v{"verify.latency", ok, "",
              std::string(row->has_distribution ? "t_typical" : "t_avg") + " (" + std::to_string(row->bytes) + " B)",
              "<= " + FormatSignificant(t.max_latency_us) + " us", FormatSignificant(us) + " us", ""};
    i18n::StoredArgs args = {{"pair", pair_label},
                             {"us", FormatSignificant(us)},
                             {"above", FormatSignificant(us - t.max_latency_us)},
                             {"bound", FormatSignificant(t.max_latency_us)}};
    v.message = ok ? Say(v.message_text, "verify.latency.within", std::move(args))
                   : Say(v.message_text, "verify.latency.over", std::move(args));
    r.verdicts.push_back(std::move(v));
  }
  for (auto [end, counters] : {std::pair{in.pair.server, &in.server_counters},
                               std::pair{in.pair.client, &in.client_counters}}) {
    NicCounters missing;
    missing.error = "not observed";
    JudgeCounters(t, NicLabel(plan, end), *counters ? **counters : missing, r.verdicts);
  }
  r.status = PairStatus::kPass;
  for (const auto& v : r.verdicts)
    if (!v.passed) r.status = PairStatus::kFail;
  return r;
}

}  // namespace rocewatch::lint::verify
