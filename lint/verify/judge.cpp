#include "lint/verify/judge.h"

#include "rocewatch/escape.h"

#include <cmath>

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

bool IsPfcPriority(const Thresholds& t, const std::string& priority) {
  if (!t.pfc_priorities) return true;  // not planned: nothing to compare with
  for (auto p : *t.pfc_priorities)
    if (std::to_string(p) == priority) return true;
  return false;
}

void JudgeCounters(const Thresholds& t, const std::string& nic, const NicCounters& c,
                   std::vector<Verdict>& out) {
  if (!c.observed) {
    out.push_back({"verify.counters", false, nic, "exporter", "scraped before and after the test",
                   c.error, nic + ": its counters could not be read, so the test proves nothing "
                                  "about them: " + c.error});
    return;
  }
  const double w = c.window_seconds > 0 ? c.window_seconds : 1;
  // Pause frames on priorities without PFC.
  for (const auto& [key, frames] : c.pause_frames) {
    const std::string direction = key.substr(0, key.find(' ')), priority = key.substr(key.find(' ') + 1);
    if (frames <= 0 || IsPfcPriority(t, priority)) continue;
    out.push_back({"verify.pause-non-pfc", false, nic,
                   "roce_pfc_pause_frames_total{direction=\"" + direction + "\",priority=\"" + priority + "\"}",
                   "0 (priority " + priority + " has no PFC in the plan)", FormatSignificant(frames),
                   nic + " " + (direction == "rx" ? "received " : "sent ") + FormatSignificant(frames) +
                       " pause frames on priority " + priority + ", which has no PFC in the plan (" +
                       FormatSignificant(frames / w) + "/s)"});
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
    out.push_back({"verify.pause-duration", ok, nic,
                   "roce_pfc_pause_duration_seconds_total{direction=\"" + direction + "\",priority=\"" + priority + "\"}",
                   "<= " + Percent(t.max_pause_duration_fraction) + " of the test",
                   Percent(worst),
                   nic + " " + direction + " priority " + priority + " paused " + Percent(worst) +
                       " of the " + FormatSignificant(w, 3) + " s test" +
                       (ok ? "" : ", " + FormatSignificant(worst / std::max(t.max_pause_duration_fraction, 1e-9), 3) +
                                      "x the limit of " + Percent(t.max_pause_duration_fraction))});
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
    out.push_back({"verify.retransmissions", ok, nic,
                   "roce_hw_stat_total{counter=~\"out_of_sequence|packet_seq_err|roce_adp_retrans|…\"}",
                   "<= " + FormatSignificant(t.max_retransmissions_per_second) + "/s", FormatSignificant(rate) + "/s",
                   nic + ": " + (which.empty() ? "no retransmissions or sequence errors"
                                               : which + " in " + FormatSignificant(w, 3) + " s (" + FormatSignificant(rate) + "/s" +
                                                     (ok ? "" : ", limit " + FormatSignificant(t.max_retransmissions_per_second) + "/s") + ")")});
  }
  {
    const bool ok = c.discards <= static_cast<double>(t.max_discards);
    out.push_back({"verify.discards", ok, nic,
                   "roce_priority_discards_total, roce_ethtool_*_discarded_packets_total, out_of_buffer",
                   "<= " + std::to_string(t.max_discards), FormatSignificant(c.discards),
                   nic + " discarded " + FormatSignificant(c.discards) + " packets during the test" +
                       (ok ? "" : " (" + FormatSignificant(c.discards / w) + "/s; limit " + std::to_string(t.max_discards) + ")")});
  }
  {
    const bool ok = c.link_flaps <= 0 && !c.port_down_during;
    out.push_back({"verify.link-flaps", ok, nic,
                   "roce_netdev_carrier_changes_total, roce_link_down_events_total, roce_port_state",
                   "0 and the port ACTIVE", c.port_down_during ? "port not ACTIVE during the test" : FormatSignificant(c.link_flaps),
                   nic + (ok ? ": link stable" : c.port_down_during ? ": the port was not ACTIVE during the test"
                                                                     : " went down " + FormatSignificant(c.link_flaps) + " times during the test")});
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
    r.detail = "no client output";
    return r;
  }
  if (!in.client_output->ok()) {
    r.status = PairStatus::kError;
    r.detail = "client " + r.client + ": cannot read perftest's output: " + in.client_output->error().message;
    return r;
  }
  const PerftestOutput& out = **in.client_output;
  if (!out.errors.empty()) {
    r.status = PairStatus::kError;
    r.detail = "client " + r.client + ": perftest: " + out.errors.front();
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
      r.detail = "client " + r.client + ": perftest printed no bandwidth result";
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
      r.verdicts.push_back(
          {"verify.bandwidth", ok, "", "BW average (" + std::to_string(row->bytes) + " B messages)",
           ">= " + FormatSignificant(need) + " Gb/s (" + Percent(t.min_bandwidth_fraction) + " of " + FormatSignificant(line) + ")",
           FormatSignificant(gbps) + " Gb/s",
           pair_label + ": " + FormatSignificant(gbps) + " Gb/s average, " + Percent(gbps / line) + " of the " + FormatSignificant(line) +
               " Gb/s line rate" +
               (ok ? "" : ", " + FormatSignificant(need - gbps) + " Gb/s short of " + Percent(t.min_bandwidth_fraction))});
    } else {
      r.verdicts.push_back({"verify.bandwidth", true, "", "BW average", "link_speed_gbps in the profile",
                            FormatSignificant(gbps) + " Gb/s",
                            pair_label + ": " + FormatSignificant(gbps) + " Gb/s; not judged: the profile has no link_speed_gbps"});
    }
  } else {
    const PerftestLatencyRow* row = nullptr;
    for (const auto& l : out.latency)
      if (!row || l.bytes <= row->bytes) row = &l;
    if (!row) {
      r.status = PairStatus::kError;
      r.detail = "client " + r.client + ": perftest printed no latency result";
      return r;
    }
    const double us = row->has_distribution ? row->typical_us : row->average_us;
    r.latency_us = us;
    const bool ok = us <= t.max_latency_us;
    r.verdicts.push_back({"verify.latency", ok, "",
                          std::string(row->has_distribution ? "t_typical" : "t_avg") + " (" + std::to_string(row->bytes) + " B)",
                          "<= " + FormatSignificant(t.max_latency_us) + " us", FormatSignificant(us) + " us",
                          pair_label + ": " + FormatSignificant(us) + " us" +
                              (ok ? "" : ", " + FormatSignificant(us - t.max_latency_us) + " us above the bound of " + FormatSignificant(t.max_latency_us) + " us")});
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
