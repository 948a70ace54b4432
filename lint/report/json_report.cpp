#include "lint/report/json_report.h"

#include "lint/i18n/catalogue.h"
#include "rocewatch/version.h"

namespace rocewatch::lint::report {

nlohmann::ordered_json FindingToJson(const Finding& f, i18n::Language lang) {
  nlohmann::ordered_json j;
  j["check"] = f.check;
  j["severity"] = std::string(SeverityName(f.severity));
  j["node"] = f.node;
  j["device"] = f.device;
  j["port"] = f.port;
  j["netdev"] = f.netdev;
  j["expected"] = f.expected;
  j["found"] = f.found;
  j["message"] = f.message;
  j["fix"] = f.fix;
  j["location"] = f.location;
  if (lang != i18n::Language::kEnglish) {
    // With --lang zh: the same four texts in Chinese, next to the English ones tools key on.
    const std::string suffix = "_" + std::string(i18n::LanguageCode(lang));
    j["expected" + suffix] = i18n::RenderOr(lang, f.expected_text, f.expected);
    j["found" + suffix] = i18n::RenderOr(lang, f.found_text, f.found);
    j["message" + suffix] = i18n::RenderOr(lang, f.message_text, f.message);
    j["fix" + suffix] = i18n::RenderOr(lang, f.fix_text, f.fix);
  }
  return j;
}

nlohmann::ordered_json JsonReport(const std::vector<Finding>& findings,
                                  const JsonReportContext& context) {
  nlohmann::ordered_json j;
  j["schema_version"] = kJsonReportSchemaVersion;
  j["tool"] = "roce-lint";
  j["version"] = kVersion;
  j["command"] = context.command;
  j["input"] = context.input;
  nlohmann::ordered_json summary;
  summary["total"] = findings.size();
  for (Severity s : {Severity::kCritical, Severity::kError, Severity::kWarning, Severity::kInfo}) {
    std::size_t n = 0;
    for (const auto& f : findings) n += f.severity == s ? 1 : 0;
    summary[std::string(SeverityName(s))] = n;
  }
  summary["fail_on"] = std::string(SeverityName(context.fail_on));
  summary["failed"] = CountAtOrAbove(findings, context.fail_on) > 0;
  j["summary"] = std::move(summary);
  j["notes"] = context.notes;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& f : findings) list.push_back(FindingToJson(f, context.lang));
  j["findings"] = std::move(list);
  return j;
}

}  // namespace rocewatch::lint::report
