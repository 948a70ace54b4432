#include "lint/report/node_report.h"

#include <map>
#include <set>

#include "lint/checks/check.h"
#include "lint/checks/specs.h"
#include "lint/i18n/catalogue.h"
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

// "a, b, c" of the first ten names, then "… and 3 more".
std::string NamedList(const std::vector<std::string>& names, Language lang) {
  constexpr std::size_t kNamed = 10;
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < kNamed; ++i) out += (i ? ", " : "") + names[i];
  if (names.size() > kNamed)
    out = i18n::Render(lang, "list.more",
                       {{"names", out}, {"more", std::to_string(names.size() - kNamed)}});
  return out;
}

// The peer.* checks that read the switch's counters, not its settings: their own note.
bool IsSwitchCounterCheck(const lint::CheckSpec& spec) {
  return &spec == &checks::kPeerSwitchPauseNonPfc || &spec == &checks::kPeerPauseMismatch;
}

}  // namespace

std::string InputText(const CheckRun& run, Language lang) {
  if (run.input_id.empty()) return run.input;
  return i18n::RenderStored(lang, run.input_id, run.input_args).value_or(run.input);
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
  const std::initializer_list<i18n::Arg> args = {{"count", std::to_string(nodes.size())},
                                                 {"names", NamedList(nodes, lang)}};
  return nodes.size() == 1 ? i18n::Render(lang, "report.counters_unobserved.one", args)
                           : i18n::Render(lang, "report.counters_unobserved.many", args);
}

std::string SwitchSideUncheckedNote(const CheckRun& run, Language lang) {
  const auto& nics = run.switch_side_unchecked;
  if (nics.empty()) return "";
  std::string ids;
  for (const lint::CheckSpec* spec : lint::AllCheckSpecs())
    if (spec->group() == "peer" && !IsSwitchCounterCheck(*spec)) ids += (ids.empty() ? "" : ", ") + std::string(spec->id);
  const std::initializer_list<i18n::Arg> args = {
      {"checks", ids}, {"count", std::to_string(nics.size())}, {"names", NamedList(nics, lang)}};
  return nics.size() == 1 ? i18n::Render(lang, "report.switch_side_unchecked.one", args)
                          : i18n::Render(lang, "report.switch_side_unchecked.many", args);
}

std::string SwitchCountersUncheckedNote(const CheckRun& run, Language lang) {
  const auto& nics = run.switch_counters_unchecked;
  if (nics.empty()) return "";
  std::string ids;
  for (const lint::CheckSpec* spec : lint::AllCheckSpecs())
    if (IsSwitchCounterCheck(*spec)) ids += (ids.empty() ? "" : ", ") + std::string(spec->id);
  const std::initializer_list<i18n::Arg> args = {
      {"checks", ids}, {"count", std::to_string(nics.size())}, {"names", NamedList(nics, lang)}};
  const bool one = nics.size() == 1;
  if (run.switch_counters_read)
    return one ? i18n::Render(lang, "report.switch_counters_unchecked.missing.one", args)
               : i18n::Render(lang, "report.switch_counters_unchecked.missing.many", args);
  return one ? i18n::Render(lang, "report.switch_counters_unchecked.unread.one", args)
             : i18n::Render(lang, "report.switch_counters_unchecked.unread.many", args);
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
      out << i18n::Render(lang, "report.node.passed", {{"nics", std::to_string(node.nics.size())}})
          << "\n";
      continue;
    }
    if (state == NodeState::kUnreachable) {
      ++unreachable;
      out << i18n::Render(lang, "report.node.unreachable") << "  " << T(mine.front()->found) << "\n";
      continue;
    }
    ++failed;
    out << i18n::Render(lang, "report.node.failed") << " ";
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
    out << "\n" << i18n::Render(lang, "report.details") << "\n";
    for (const auto& f : run.findings) {
      std::string where = f.node;
      for (const std::string* part : {&f.device, &f.netdev})
        if (!part->empty()) where += " " + *part;
      std::string message = FindingMessage(f, lang);
      if (lang != Language::kEnglish)
        message = i18n::Render(lang, "sentence.end", {{"text", CheckTitle(f.check, lang)}}) + message;
      out << T(i18n::Render(lang, "report.finding",
                            {{"where", where},
                             {"severity", SeverityText(f.severity, lang)},
                             {"message", message},
                             {"check", f.check}}))
          << "\n";
      if (!f.expected.empty() || !f.found.empty())
        out << "    "
            << T(i18n::Render(lang, "report.expected_found",
                              {{"expected", i18n::RenderOr(lang, f.expected_text, f.expected)},
                               {"found", i18n::RenderOr(lang, f.found_text, f.found)}}))
            << "\n";
      if (!f.fix.empty()) out << "    " << T(i18n::Render(lang, "report.fix", {{"fix", i18n::RenderOr(lang, f.fix_text, f.fix)}})) << "\n";
    }
  }
  out << "\n"
      << T(i18n::Render(lang, "report.summary",
                        {{"nodes", std::to_string(run.plan->nodes.size())},
                         {"nics", std::to_string(nics)},
                         {"passed", std::to_string(passed)},
                         {"failed", std::to_string(failed)},
                         {"unreachable", std::to_string(unreachable)},
                         {"counts", SeverityCounts(run.findings, lang)}}))
      << "\n";
  if (auto note = CountersUnobservedNote(run, lang); !note.empty()) out << T(note) << "\n";
  if (auto note = SwitchSideUncheckedNote(run, lang); !note.empty()) out << T(note) << "\n";
  if (auto note = SwitchCountersUncheckedNote(run, lang); !note.empty()) out << T(note) << "\n";
  if (!run.counters_checked) out << i18n::Render(lang, "report.no_counter_window") << "\n";
}

}  // namespace rocewatch::lint::report
