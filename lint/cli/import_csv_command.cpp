// roce-lint import-csv CSV --profiles PROFILES.json: a spreadsheet export into a plan.

#include <cstdio>
#include <fstream>

#include "lint/cli/commands.h"
#include "lint/cli/common_flags.h"
#include "lint/cli/exit_codes.h"
#include "lint/plan/csv_import.h"
#include "lint/plan/load.h"
#include "lint/plan/validate.h"
#include "rocewatch/read_file.h"
#include "lint/report/text_report.h"

namespace rocewatch::lint::cli {
namespace {

constexpr const char* kUsage =
    "usage: roce-lint import-csv CSV --profiles PROFILES.json [--cluster NAME] [-o PLAN.json]\n"
    "                            [--fail-on SEVERITY]\n"
    "\n"
    "Turns a spreadsheet export, one row per NIC (columns: node, management_ip, exporter,\n"
    "ib_dev, netdev, profile, roce_ip, rail, switch_port, label.<key>; any order), into a\n"
    "plan. The profiles come from PROFILES.json: a plan without \"nodes\" (cluster, defaults,\n"
    "profiles). See docs/plan.md.\n"
    "\n";

constexpr const char* kFooter =
    "\n"
    "The new plan is validated like `roce-lint plan`; its findings go to standard error.\n"
    "Exit codes: 0 clean, 1 the plan was written but has findings at or above --fail-on,\n"
    "2 unusable input (nothing written).\n";

const std::vector<FlagSpec>& Specs() {
  static const std::vector<FlagSpec> kSpecs = {
      {"--profiles", "", true, "the RoCE profiles (required)", "FILE"},
      {"--cluster", "", true, "cluster name (default: \"cluster\" of the profiles file)", "NAME"},
      {"--output", "-o", true, "write the plan there (default: standard output)", "FILE"},
      kFailOnFlag,
      kHelpFlag};
  return kSpecs;
}

std::string Usage() { return kUsage + FlagUsage(Specs()) + kFooter; }

constexpr std::size_t kMaxCsvBytes = 64u << 20;

// Writes through a temporary file and a rename, so a failed write leaves no half plan.
Status WriteFileAtomically(const std::string& path, const std::string& data) {
  std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) return Error{"cannot write " + tmp};
    f << data;
    f.flush();
    if (!f) return Error{"cannot write " + tmp};
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return Error{"cannot rename " + tmp + " to " + path};
  }
  return {};
}

}  // namespace

int RunImportCsvCommand(const std::vector<std::string>& args, CommandIo io) {
  auto parsed = ParseArgs(args, Specs());
  if (!parsed.ok()) {
    io.err << "roce-lint import-csv: " << parsed.error().message << "\n" << Usage();
    return kExitUnusable;
  }
  if (parsed->Has("--help")) {
    io.out << Usage();
    return kExitClean;
  }
  auto fail_on = ParseFailOn(parsed->Value("--fail-on"));
  if (!fail_on.ok()) {
    io.err << "roce-lint import-csv: " << fail_on.error().message << '\n';
    return kExitUnusable;
  }
  auto profiles_path = parsed->Value("--profiles");
  if (parsed->positional.size() != 1 || !profiles_path) {
    io.err << "roce-lint import-csv: expected one CSV file and --profiles FILE\n" << Usage();
    return kExitUnusable;
  }
  const std::string& csv_path = parsed->positional.front();
  auto csv = ReadFileCapped(csv_path, kMaxCsvBytes);
  auto profiles = ReadFileCapped(*profiles_path, plan::kMaxPlanBytes);
  for (const auto* r : {&csv, &profiles}) {
    if (!r->ok()) {
      io.err << "roce-lint import-csv: " << r->error().message << '\n';
      return kExitUnusable;
    }
  }

  plan::CsvImportInput input{*csv, csv_path, *profiles, *profiles_path,
                             parsed->Value("--cluster").value_or("")};
  plan::CsvImport imported = plan::ImportCsvPlan(input);
  if (!imported.ok()) {
    for (const auto& e : imported.errors) io.err << "roce-lint import-csv: " << e.message << '\n';
    return kExitUnusable;
  }
  const std::string text = imported.plan.dump(2) + "\n";
  auto output = parsed->Value("--output");
  const std::string plan_name = output.value_or("<stdout>");

  // Validate what we are about to write, with positions in the written text.
  auto loaded = plan::LoadPlanText(text, plan_name);
  if (!loaded.ok()) {  // cannot happen for JSON we generated; treat as unusable
    io.err << "roce-lint import-csv: " << loaded.error().message << '\n';
    return kExitUnusable;
  }
  std::vector<Finding> findings = std::move(loaded->findings);
  std::vector<Finding> semantic = plan::ValidatePlan(loaded->plan);
  findings.insert(findings.end(), semantic.begin(), semantic.end());

  if (output) {
    if (auto st = WriteFileAtomically(*output, text); !st.ok()) {
      io.err << "roce-lint import-csv: " << st.error().message << '\n';
      return kExitUnusable;
    }
  } else {
    io.out << text;
  }
  report::WriteTextFindings(io.err, findings);
  std::size_t nics = 0;
  for (const auto& node : loaded->plan.nodes) nics += node.nics.size();
  io.err << plan_name << ": " << loaded->plan.nodes.size() << " nodes, " << nics
         << " NICs imported from " << csv_path << "; " << report::SeverityCounts(findings) << '\n';
  return CountAtOrAbove(findings, *fail_on) > 0 ? kExitFindings : kExitClean;
}

}  // namespace rocewatch::lint::cli
