// roce-lint plan FILE: validates a cluster plan, for CI.

#include <nlohmann/json.hpp>

#include "lint/cli/commands.h"
#include "lint/cli/common_flags.h"
#include "lint/cli/exit_codes.h"
#include "lint/i18n/catalogue.h"
#include "lint/plan/load.h"
#include "lint/plan/validate.h"
#include "lint/report/json_report.h"
#include "lint/report/text_report.h"

namespace rocewatch::lint::cli {
namespace {

constexpr const char* kUsage =
    "usage: roce-lint plan FILE [--format text|json] [--fail-on SEVERITY] [--lang en|zh]\n"
    "\n"
    "Validates a cluster plan (docs/plan.md): JSON syntax, the shape of every key, and the\n"
    "plan checks (duplicates, invalid addresses, values out of range, contradictions in the\n"
    "RoCE profiles). FILE may be - for standard input.\n"
    "\n";

constexpr const char* kExitCodes =
    "\n"
    "Exit codes: 0 clean, 1 findings at or above --fail-on, 2 unusable input (unreadable\n"
    "file, invalid JSON, bad flags).\n";

const std::vector<FlagSpec>& Specs() {
  static const std::vector<FlagSpec> kSpecs = {
      kFormatFlag, kFailOnFlag, LangFlag("the text report; JSON adds message_zh, …"), kHelpFlag};
  return kSpecs;
}

std::string Usage() { return kUsage + FlagUsage(Specs()) + kExitCodes; }

std::string Count(i18n::Language lang, std::size_t n, i18n::MessageId one, i18n::MessageId many) {
  return i18n::Render(lang, n == 1 ? one : many, {{"n", std::to_string(n)}});
}

}  // namespace

int RunPlanCommand(const std::vector<std::string>& args, CommandIo io) {
  auto parsed = ParseArgs(args, Specs());
  if (!parsed.ok()) {
    io.err << "roce-lint plan: " << parsed.error().message << "\n" << Usage();
    return kExitUnusable;
  }
  if (parsed->Has("--help")) {
    io.out << Usage();
    return kExitClean;
  }
  auto format = ParseFormat(parsed->Value("--format"));
  auto fail_on = ParseFailOn(parsed->Value("--fail-on"));
  auto lang = ParseLang(parsed->Value("--lang"));
  for (const Error* e : {format.ok() ? nullptr : &format.error(),
                         fail_on.ok() ? nullptr : &fail_on.error(), lang.ok() ? nullptr : &lang.error()}) {
    if (e != nullptr) {
      io.err << "roce-lint plan: " << e->message << '\n';
      return kExitUnusable;
    }
  }
  if (parsed->positional.size() != 1) {
    io.err << "roce-lint plan: expected one plan file, got " << parsed->positional.size() << "\n"
           << Usage();
    return kExitUnusable;
  }
  const std::string& path = parsed->positional.front();
  auto loaded = plan::LoadPlan(path);
  if (!loaded.ok()) {
    io.err << "roce-lint plan: " << loaded.error().message << '\n';
    return kExitUnusable;
  }
  std::vector<Finding> findings = std::move(loaded->findings);
  std::vector<Finding> semantic = plan::ValidatePlan(loaded->plan);
  findings.insert(findings.end(), std::make_move_iterator(semantic.begin()),
                  std::make_move_iterator(semantic.end()));

  const bool failed = CountAtOrAbove(findings, *fail_on) > 0;
  if (*format == OutputFormat::kJson) {
    io.out << report::JsonReport(findings, {"plan", path, *fail_on, *lang}).dump(2) << '\n';
  } else {
    report::WriteTextFindings(io.out, findings, *lang);
    std::size_t nics = 0;
    for (const auto& node : loaded->plan.nodes) nics += node.nics.size();
    io.out << i18n::Render(*lang, "plan.summary",
                           {{"path", path},
                            {"counts", report::SeverityCounts(findings, *lang)},
                            {"nodes", Count(*lang, loaded->plan.nodes.size(), "plan.nodes.one", "plan.nodes.many")},
                            {"nics", Count(*lang, nics, "plan.nics.one", "plan.nics.many")},
                            {"profiles", Count(*lang, loaded->plan.profiles.size(), "plan.profiles.one",
                                               "plan.profiles.many")}})
           << "\n";
  }
  return failed ? kExitFindings : kExitClean;
}

}  // namespace rocewatch::lint::cli
