// The text report of `roce-lint verify`: one table row per pair (result, bandwidth against the
// line rate, the worst pause share, retransmissions, discards), then what failed and why.

#include <algorithm>

#include "lint/i18n/catalogue.h"
#include "lint/i18n/display_width.h"
#include "lint/verify/numbers.h"
#include "lint/verify/report.h"
#include "rocewatch/escape.h"

namespace rocewatch::lint::verify {
namespace {

std::string StatusWord(PairStatus s, report::Language lang) {
  switch (s) {
    case PairStatus::kPass: return i18n::Render(lang, "verify.status.pass");
    case PairStatus::kFail: return i18n::Render(lang, "verify.status.fail");
    case PairStatus::kError: return i18n::Render(lang, "verify.status.error");
    case PairStatus::kUnreachable: return i18n::Render(lang, "verify.status.unreachable");
  }
  return "?";
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

std::string WhyCell(const PairResult& r, report::Language lang) {
  if (r.status == PairStatus::kError || r.status == PairStatus::kUnreachable)
    return i18n::RenderOr(lang, r.detail_text, r.detail);
  std::string why;
  for (const auto& v : r.verdicts)
    if (!v.passed) why += (why.empty() ? "" : "; ") + v.check + " " + i18n::RenderOr(lang, v.found_text, v.found);
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
  std::vector<std::vector<std::string>> rows;
  rows.push_back({i18n::Render(lang, "verify.column.pair"), i18n::Render(lang, "verify.column.round"),
                  i18n::Render(lang, "verify.column.result"), i18n::Render(lang, "verify.column.bandwidth"),
                  i18n::Render(lang, "verify.column.paused"), i18n::Render(lang, "verify.column.retransmissions"),
                  i18n::Render(lang, "verify.column.discards"), i18n::Render(lang, "verify.column.why")});
  for (const auto& r : results)
    rows.push_back({escape::TerminalText(r.name), std::to_string(r.round), StatusWord(r.status, lang), BandwidthCell(r),
                    PausedCell(r), RetransCell(r), DiscardsCell(r), escape::TerminalText(WhyCell(r, lang))});
  std::vector<std::size_t> widths(rows.front().size(), 0);
  for (const auto& row : rows)
    for (std::size_t i = 0; i + 1 < row.size(); ++i) widths[i] = std::max(widths[i], i18n::DisplayWidth(row[i]));
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i)
      line += i + 1 < row.size() ? i18n::PadToWidth(row[i], widths[i]) + "  " : row[i];
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
  }
  std::size_t n[4] = {};
  for (const auto& r : results) ++n[static_cast<int>(r.status)];
  out << escape::TerminalText(i18n::Render(lang, "verify.summary",
                                           {{"pairs", std::to_string(results.size())},
                                            {"pass", std::to_string(n[0])},
                                            {"fail", std::to_string(n[1])},
                                            {"error", std::to_string(n[2])},
                                            {"unreachable", std::to_string(n[3])},
                                            {"tool", info.tool},
                                            {"seconds", FormatSignificant(info.duration_seconds)}}))
      << "\n";
  bool heading = false;
  for (const auto& r : results) {
    if (r.status != PairStatus::kFail) continue;
    if (!heading) out << "\n" << i18n::Render(lang, "verify.failed_heading") << "\n";
    heading = true;
    out << "  " << escape::TerminalText(r.name) << "\n";
    for (const auto& v : r.verdicts)
      if (!v.passed)
        out << "    [" << v.check << "] " << escape::TerminalText(i18n::RenderOr(lang, v.message_text, v.message)) << "\n      "
            << escape::TerminalText(i18n::Render(
                   lang, "verify.verdict_detail",
                   {{"counter", v.counter},
                    {"expected", i18n::RenderOr(lang, v.expected_text, v.expected)},
                    {"found", i18n::RenderOr(lang, v.found_text, v.found)}}))
            << "\n";
  }
  if (!info.unpaired.empty()) {
    out << "\n" << i18n::Render(lang, "verify.unpaired_heading") << "\n";
    for (const auto& u : info.unpaired) out << "  " << escape::TerminalText(u) << "\n";
  }
}

}  // namespace rocewatch::lint::verify
