#include "lint/report/node_report.h"

#include <map>
#include <set>

#include "lint/checks/check.h"
#include "lint/checks/specs.h"
#include "lint/report/text_report.h"
#include "rocewatch/escape.h"

namespace rocewatch::lint::report {
namespace {

std::vector<const Finding*> FindingsOf(const CheckRun& run, const std::string& node) {
  std::vector<const Finding*> out;
  for (const auto& f : run.findings)
    if (f.node == node) out.push_back(&f);
  return out;
}

// A name or text from the plan, an exporter or Prometheus, as it may be printed: one line, no
// terminal control (every field of the report passes this).
std::string T(std::string_view text) { return escape::TerminalText(text); }

const char* Text(Language lang, const char* en, const char* zh) {
  return lang == Language::kChinese ? zh : en;
}

// The peer.* checks that read the switch's counters, not its settings: their own note.
bool IsSwitchCounterCheck(const lint::CheckSpec& spec) {
  return &spec == &checks::kPeerSwitchPauseNonPfc || &spec == &checks::kPeerPauseMismatch;
}

}  // namespace

std::string SeverityText(Severity s, Language lang) {
  if (lang == Language::kEnglish) return std::string(SeverityName(s));
  switch (s) {
    case Severity::kCritical: return "严重";
    case Severity::kError: return "错误";
    case Severity::kWarning: return "警告";
    case Severity::kInfo: return "信息";
  }
  return "";
}

NodeState StateOf(const CheckRun& run, const plan::Node& node) {
  for (const auto& f : run.findings) {
    if (f.node != node.name) continue;
    if (f.check == checks::kExporterUnreachable.id) return NodeState::kUnreachable;
  }
  for (const auto& f : run.findings)
    if (f.node == node.name) return NodeState::kFailed;
  return NodeState::kPassed;
}

std::string CheckTitle(const std::string& check_id, Language lang) {
  const lint::CheckSpec* spec = lint::FindCheckSpec(check_id);
  // A plan check's title is its one-line summary, in English only: the report names it by ID.
  if (spec == nullptr || spec->kind == lint::CheckKind::kPlan) return check_id;
  return std::string(lang == Language::kChinese ? spec->title_zh : spec->title);
}

std::string CountersUnobservedNote(const CheckRun& run, Language lang) {
  const auto& nodes = run.counters_unobserved;
  if (!run.counters_checked || nodes.empty()) return "";
  constexpr std::size_t kNamed = 10;
  std::string names;
  for (std::size_t i = 0; i < nodes.size() && i < kNamed; ++i) names += (i ? ", " : "") + nodes[i];
  if (nodes.size() > kNamed)
    names += Text(lang, " and ", " 等另外 ") + std::to_string(nodes.size() - kNamed) + Text(lang, " more", " 个");
  return Text(lang, "Counter checks skipped on ", "未检查计数器：") + std::to_string(nodes.size()) +
         Text(lang, nodes.size() == 1 ? " node not observed at the counter window's start (it joined inside the window): "
                                      : " nodes not observed at the counter window's start (they joined inside the window): ",
              " 个节点在计数窗口开始时尚未被观测到（在窗口内加入）：") +
         names + Text(lang, ".", "。");
}

std::string SwitchSideUncheckedNote(const CheckRun& run, Language lang) {
  const auto& nics = run.switch_side_unchecked;
  if (nics.empty()) return "";
  std::string ids;
  for (const lint::CheckSpec* spec : lint::AllCheckSpecs())
    if (spec->group() == "peer" && !IsSwitchCounterCheck(*spec)) ids += (ids.empty() ? "" : ", ") + std::string(spec->id);
  constexpr std::size_t kNamed = 10;
  std::string names;
  for (std::size_t i = 0; i < nics.size() && i < kNamed; ++i) names += (i ? ", " : "") + nics[i];
  if (nics.size() > kNamed)
    names += Text(lang, " and ", " 等另外 ") + std::to_string(nics.size() - kNamed) + Text(lang, " more", " 个");
  return Text(lang, "Switch-side checks (", "未检查交换机端（") + ids +
         Text(lang, ") could not run on ", "）：") + std::to_string(nics.size()) +
         Text(lang, nics.size() == 1 ? " NIC whose switch port sends no DCBX and no --switch-config names: "
                                     : " NICs whose switch ports send no DCBX and no --switch-config names: ",
              " 块网卡的交换机端口未发送 DCBX，且没有 --switch-config 描述它们：") +
         names + Text(lang, ".", "。");
}

std::string SwitchCountersUncheckedNote(const CheckRun& run, Language lang) {
  const auto& nics = run.switch_counters_unchecked;
  if (nics.empty()) return "";
  std::string ids;
  for (const lint::CheckSpec* spec : lint::AllCheckSpecs())
    if (IsSwitchCounterCheck(*spec)) ids += (ids.empty() ? "" : ", ") + std::string(spec->id);
  constexpr std::size_t kNamed = 10;
  std::string names;
  for (std::size_t i = 0; i < nics.size() && i < kNamed; ++i) names += (i ? ", " : "") + nics[i];
  if (nics.size() > kNamed)
    names += Text(lang, " and ", " 等另外 ") + std::to_string(nics.size() - kNamed) + Text(lang, " more", " 个");
  const char* why = run.switch_counters_read
                        ? Text(lang, nics.size() == 1 ? " NIC whose switch port has no pause counters in the store: "
                                                      : " NICs whose switch ports have no pause counters in the store: ",
                               " 块网卡的交换机端口在存储中没有 pause 计数器：")
                        : Text(lang, nics.size() == 1 ? " NIC: no switch counters were read (they need --prometheus "
                                                        "with a --window): "
                                                      : " NICs: no switch counters were read (they need --prometheus "
                                                        "with a --window): ",
                               " 块网卡：未读取交换机计数器（需要 --prometheus 及其 --window）：");
  return Text(lang, "Switch-counter checks (", "未检查交换机计数器（") + ids +
         Text(lang, ") could not run on ", "）：") + std::to_string(nics.size()) + why + names + Text(lang, ".", "。");
}

void WriteNodeReport(std::ostream& out, const CheckRun& run, Language lang) {
  std::size_t passed = 0, failed = 0, unreachable = 0, nics = 0;
  for (const auto& node : run.plan->nodes) {
    nics += node.nics.size();
    auto mine = FindingsOf(run, node.name);
    NodeState state = StateOf(run, node);
    out << T(node.name) << ": ";
    if (state == NodeState::kPassed) {
      ++passed;
      out << Text(lang, "passed", "通过") << " (" << node.nics.size() << Text(lang, " NICs", " 块网卡")
          << ")\n";
      continue;
    }
    if (state == NodeState::kUnreachable) {
      ++unreachable;
      out << Text(lang, "UNREACHABLE", "不可达") << "  " << T(mine.front()->found) << "\n";
      continue;
    }
    ++failed;
    out << Text(lang, "FAILED", "未通过") << " ";
    std::map<std::string, std::set<std::string>> by_check;  // check → where
    std::vector<std::string> order;
    for (const Finding* f : mine) {
      if (!by_check.count(f->check)) order.push_back(f->check);
      by_check[f->check].insert(!f->netdev.empty() ? f->netdev : f->device);
    }
    bool first = true;
    for (const auto& check : order) {
      out << (first ? " " : ", ") << T(lang == Language::kChinese ? CheckTitle(check, lang) : check);
      std::string where;
      for (const auto& w : by_check[check]) if (!w.empty()) where += (where.empty() ? "" : " ") + w;
      if (!where.empty()) out << " (" << T(where) << ")";
      first = false;
    }
    out << "\n";
  }
  if (!run.findings.empty()) {
    out << "\n" << Text(lang, "Details:", "详情：") << "\n";
    for (const auto& f : run.findings) {
      std::string where = f.node;
      for (const std::string* part : {&f.device, &f.netdev})
        if (!part->empty()) where += " " + *part;
      out << T(where) << ": " << SeverityText(f.severity, lang) << ": ";
      if (lang == Language::kChinese) out << T(CheckTitle(f.check, lang)) << "。";
      out << T(f.message) << " [" << T(f.check) << "]\n";
      if (!f.expected.empty() || !f.found.empty())
        out << "    " << Text(lang, "expected: ", "期望：") << T(f.expected) << "; "
            << Text(lang, "found: ", "实际：") << T(f.found) << "\n";
      if (!f.fix.empty()) out << "    " << Text(lang, "fix: ", "修复：") << T(f.fix) << "\n";
    }
  }
  out << "\n" << run.plan->nodes.size() << Text(lang, " nodes, ", " 个节点，") << nics
      << Text(lang, " NICs: ", " 块网卡：") << passed << Text(lang, " passed, ", " 通过，") << failed
      << Text(lang, " failed, ", " 未通过，") << unreachable << Text(lang, " unreachable", " 不可达")
      << "; " << SeverityCounts(run.findings) << "\n";
  if (auto note = CountersUnobservedNote(run, lang); !note.empty()) out << T(note) << "\n";
  if (auto note = SwitchSideUncheckedNote(run, lang); !note.empty()) out << T(note) << "\n";
  if (auto note = SwitchCountersUncheckedNote(run, lang); !note.empty()) out << T(note) << "\n";
  if (!run.counters_checked)
    out << Text(lang,
                "Counter checks skipped: no observation window (use --counter-window, "
                "--previous-metrics-dir, or --prometheus).\n",
                "未检查计数器：没有观测窗口（使用 --counter-window、--previous-metrics-dir 或 --prometheus）。\n");
}

}  // namespace rocewatch::lint::report
