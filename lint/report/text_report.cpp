#include "lint/report/text_report.h"

#include "lint/i18n/catalogue.h"
#include "rocewatch/escape.h"

namespace rocewatch::lint::report {

std::string FindingMessage(const Finding& f, i18n::Language lang) {
  return i18n::RenderOr(lang, f.message_text, f.message);
}

std::string SeverityText(Severity s, i18n::Language lang) {
  switch (s) {
    case Severity::kCritical: return i18n::Render(lang, "severity.critical");
    case Severity::kError: return i18n::Render(lang, "severity.error");
    case Severity::kWarning: return i18n::Render(lang, "severity.warning");
    case Severity::kInfo: return i18n::Render(lang, "severity.info");
  }
  return "";
}

std::string FormatFindingLine(const Finding& f, i18n::Language lang) {
  std::string where = f.location;
  if (where.empty()) {
    for (const std::string* part : {&f.node, &f.device, &f.netdev}) {
      if (part->empty()) continue;
      if (!where.empty()) where += ' ';
      where += *part;
    }
  }
  const std::string line = i18n::Render(lang, where.empty() ? i18n::MessageId("report.finding.nowhere") : "report.finding",
                                       {{"where", where},
                                        {"severity", SeverityText(f.severity, lang)},
                                        {"message", FindingMessage(f, lang)},
                                        {"check", f.check}});
  // Names, messages and locations come from the plan and the nodes: one line, whatever they hold.
  return escape::TerminalText(line);
}

std::string SeverityCounts(const std::vector<Finding>& findings, i18n::Language lang) {
  std::string out;
  for (Severity s : {Severity::kCritical, Severity::kError, Severity::kWarning, Severity::kInfo}) {
    std::size_t n = 0;
    for (const auto& f : findings) n += f.severity == s ? 1 : 0;
    if (n == 0) continue;
    if (!out.empty()) out += i18n::Render(lang, "list.separator");
    const std::initializer_list<i18n::Arg> args = {{"n", std::to_string(n)}};
    switch (s) {
      case Severity::kCritical: out += i18n::Render(lang, "count.critical", args); break;
      case Severity::kError:
        out += n > 1 ? i18n::Render(lang, "count.error.many", args) : i18n::Render(lang, "count.error.one", args);
        break;
      case Severity::kWarning:
        out += n > 1 ? i18n::Render(lang, "count.warning.many", args)
                   : i18n::Render(lang, "count.warning.one", args);
        break;
      case Severity::kInfo: out += i18n::Render(lang, "count.info", args); break;
    }
  }
  return out.empty() ? i18n::Render(lang, "count.none") : out;
}

void WriteTextFindings(std::ostream& out, const std::vector<Finding>& findings, i18n::Language lang) {
  for (const auto& f : findings) out << FormatFindingLine(f, lang) << '\n';
}

}  // namespace rocewatch::lint::report
