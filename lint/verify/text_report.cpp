// The text report of `roce-lint verify`: one table row per pair (result, bandwidth against the
// line rate, the worst pause share, retransmissions, discards), then what failed and why.

#include <algorithm>

#include "lint/verify/numbers.h"
#include "lint/verify/report.h"
#include "rocewatch/escape.h"

namespace rocewatch::lint::verify {
namespace {

struct Words {
  const char *pair, *round, *result, *bandwidth, *paused, *retrans, *discards, *why, *pass, *fail,
      *error, *unreachable, *summary_pairs, *failed_heading, *unpaired;
};

const Words kEnglish = {"PAIR (client -> server)", "ROUND", "RESULT", "BW Gb/s", "PAUSED", "RETX/s",
                        "DISCARDS", "WHY", "PASS", "FAIL", "ERROR", "UNREACHABLE", "pairs",
                        "What failed:", "Not tested:"};
const Words kChinese = {"配对 (客户端 -> 服务端)", "轮次", "结果", "带宽 Gb/s", "暂停占比", "重传/秒",
                        "丢包", "原因", "通过", "失败", "错误", "不可达", "对",
                        "失败原因：", "未测试："};

const char* StatusWord(PairStatus s, const Words& w) {
  switch (s) {
    case PairStatus::kPass: return w.pass;
    case PairStatus::kFail: return w.fail;
    case PairStatus::kError: return w.error;
    case PairStatus::kUnreachable: return w.unreachable;
  }
  return "?";
}

// Display width: CJK characters take two columns.
std::size_t Width(const std::string& s) {
  std::size_t w = 0;
  for (std::size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    std::size_t len = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
    w += len >= 3 ? 2 : 1;
    i += len;
  }
  return w;
}

std::string Pad(std::string s, std::size_t w) {
  std::size_t have = Width(s);
  if (have < w) s.append(w - have, ' ');
  return s;
}

std::string PausedCell(const PairResult& r) {
  double worst = -1;
  for (const auto* c : {&r.server_counters, &r.client_counters})
    if (*c && (*c)->observed)
      for (const auto& [k, s] : (*c)->pause_seconds) worst = std::max(worst, s / std::max((*c)->window_seconds, 1e-9));
  return worst < 0 ? "-" : FormatSignificant(worst * 100, 3) + "%";
}

std::string RetransCell(const PairResult& r) {
  double worst = -1;
  for (const auto* c : {&r.server_counters, &r.client_counters})
    if (*c && (*c)->observed) {
      double sum = 0;
      for (const auto& [k, v] : (*c)->transport_errors) sum += v;
      worst = std::max(worst, sum / std::max((*c)->window_seconds, 1e-9));
    }
  return worst < 0 ? "-" : FormatSignificant(worst, 3);
}

std::string DiscardsCell(const PairResult& r) {
  double sum = -1;
  for (const auto* c : {&r.server_counters, &r.client_counters})
    if (*c && (*c)->observed) sum = std::max(sum, 0.0) + (*c)->discards;
  return sum < 0 ? "-" : FormatSignificant(sum, 6);
}

std::string WhyCell(const PairResult& r) {
  if (r.status == PairStatus::kError || r.status == PairStatus::kUnreachable) return r.detail;
  std::string why;
  for (const auto& v : r.verdicts)
    if (!v.passed) why += (why.empty() ? "" : "; ") + v.check + " " + v.found;
  return why;
}

}  // namespace

std::string BandwidthCell(const PairResult& r) {
  if (!r.bandwidth_gbps) return r.latency_us ? FormatSignificant(*r.latency_us) + " us" : "-";
  std::string s = FormatSignificant(*r.bandwidth_gbps);
  if (r.line_rate_gbps) s += " (" + FormatSignificant(*r.bandwidth_gbps / *r.line_rate_gbps * 100, 3) + "%)";
  return s;
}

void WriteVerifyText(std::ostream& out, const std::vector<PairResult>& results, const VerifyRunInfo& info,
                     report::Language lang) {
  const Words& w = lang == report::Language::kChinese ? kChinese : kEnglish;
  std::vector<std::vector<std::string>> rows;
  rows.push_back({w.pair, w.round, w.result, w.bandwidth, w.paused, w.retrans, w.discards, w.why});
  for (const auto& r : results)
    rows.push_back({escape::TerminalText(r.name), std::to_string(r.round), StatusWord(r.status, w), BandwidthCell(r),
                    PausedCell(r), RetransCell(r), DiscardsCell(r), escape::TerminalText(WhyCell(r))});
  std::vector<std::size_t> widths(rows.front().size(), 0);
  for (const auto& row : rows)
    for (std::size_t i = 0; i + 1 < row.size(); ++i) widths[i] = std::max(widths[i], Width(row[i]));
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i)
      line += i + 1 < row.size() ? Pad(row[i], widths[i]) + "  " : row[i];
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
  }
  std::size_t n[4] = {};
  for (const auto& r : results) ++n[static_cast<int>(r.status)];
  out << results.size() << " " << w.summary_pairs << ": " << n[0] << " " << w.pass << ", " << n[1] << " " << w.fail
      << ", " << n[2] << " " << w.error << ", " << n[3] << " " << w.unreachable << " (" << escape::TerminalText(info.tool)
      << ", " << FormatSignificant(info.duration_seconds) << " s)\n";
  bool heading = false;
  for (const auto& r : results) {
    if (r.status != PairStatus::kFail) continue;
    if (!heading) out << "\n" << w.failed_heading << "\n";
    heading = true;
    out << "  " << escape::TerminalText(r.name) << "\n";
    for (const auto& v : r.verdicts)
      if (!v.passed)
        out << "    [" << v.check << "] " << escape::TerminalText(v.message) << "\n      counter: "
            << escape::TerminalText(v.counter) << "  expected: " << escape::TerminalText(v.expected)
            << "  found: " << escape::TerminalText(v.found) << "\n";
  }
  if (!info.unpaired.empty()) {
    out << "\n" << w.unpaired << "\n";
    for (const auto& u : info.unpaired) out << "  " << escape::TerminalText(u) << "\n";
  }
}

}  // namespace rocewatch::lint::verify
