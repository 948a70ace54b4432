#include "lint/report/formats.h"

#include "lint/report/json_report.h"

namespace rocewatch::lint::report {
namespace {

void Text(std::ostream& out, const ReportInput& in) { WriteNodeReport(out, in.run, in.lang); }
void Json(std::ostream& out, const ReportInput& in) {
  std::vector<std::string> notes;
  for (const std::string& note : {CountersUnobservedNote(in.run, Language::kEnglish),
                                  SwitchSideUncheckedNote(in.run, Language::kEnglish),
                                  SwitchCountersUncheckedNote(in.run, Language::kEnglish)})
    if (!note.empty()) notes.push_back(note);
  WriteJsonDocument(out, JsonReport(in.run.findings,
                                    {"check", in.plan_path + " @ " + in.run.input, in.fail_on, in.lang, std::move(notes)}));
}
void JUnit(std::ostream& out, const ReportInput& in) { WriteJUnitReport(out, in.run); }
void Sarif(std::ostream& out, const ReportInput& in) { WriteSarifReport(out, in.run, in.plan_path); }
void Html(std::ostream& out, const ReportInput& in) { WriteHtmlReport(out, in.run, in.lang); }

}  // namespace

const std::vector<ReportFormat>& CheckReportFormats() {
  static const std::vector<ReportFormat> kFormats = {
      {"text", &Text}, {"json", &Json}, {"junit", &JUnit}, {"sarif", &Sarif}, {"html", &Html}};
  return kFormats;
}

const ReportFormat* FindCheckReportFormat(std::string_view name) {
  for (const auto& f : CheckReportFormats())
    if (f.name == name) return &f;
  return nullptr;
}

std::string CheckReportFormatNames(std::string_view separator) {
  std::string out;
  for (const auto& f : CheckReportFormats()) {
    if (!out.empty()) out += separator;
    out += f.name;
  }
  return out;
}

}  // namespace rocewatch::lint::report
