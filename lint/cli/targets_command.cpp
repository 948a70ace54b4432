// roce-lint targets PLAN: the plan's exporters as Prometheus file_sd targets.

#include <fstream>

#include "lint/cli/commands.h"
#include "lint/cli/common_flags.h"
#include "lint/cli/exit_codes.h"
#include "lint/cli/usable_plan.h"
#include "lint/plan/load.h"
#include "lint/targets/file_sd.h"

namespace rocewatch::lint::cli {
namespace {

constexpr const char* kUsage =
    "usage: roce-lint targets PLAN [--output FILE] [--scrape-config FILE] [--job NAME]\n"
    "\n"
    "Writes the plan's exporters as Prometheus file_sd JSON: one target per node, labelled\n"
    "with the plan's names (cluster, node, and the node's labels: rack, pod, ...), so the\n"
    "series, dashboards and alerts carry them. Prometheus re-reads the file when it changes.\n"
    "\n";

constexpr const char* kExitCodes =
    "\n"
    "Exit codes: 0 written, 2 unusable input (plan errors, a label Prometheus refuses).\n";

const std::vector<FlagSpec>& Specs() {
  static const std::vector<FlagSpec> kSpecs = {
      kHelpFlag,
      {"--output", "-o", true,
       "the file_sd JSON (default: standard output); written to a\n"
       "temporary name and renamed, so Prometheus never reads half",
       "FILE"},
      {"--scrape-config", "", true, "also write a scrape_configs snippet that reads --output",
       "FILE"},
      {"--job", "", true,
       "the job name in the snippet (default roce_exporter, as the\nbundled rules expect)",
       "NAME"}};
  return kSpecs;
}

std::string Usage() { return kUsage + FlagUsage(Specs()) + kExitCodes; }

bool WriteFile(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::trunc);
    if (!(f << text)) return false;
  }
  return std::rename(tmp.c_str(), path.c_str()) == 0;
}

}  // namespace

int RunTargetsCommand(const std::vector<std::string>& args, CommandIo io) {
  auto parsed = ParseArgs(args, Specs());
  if (!parsed.ok()) {
    io.err << "roce-lint targets: " << parsed.error().message << "\n" << Usage();
    return kExitUnusable;
  }
  if (parsed->Has("--help")) {
    io.out << Usage();
    return kExitClean;
  }
  if (parsed->positional.size() != 1) {
    io.err << "roce-lint targets: expected one plan file (see --help)\n";
    return kExitUnusable;
  }
  const std::string& plan_path = parsed->positional.front();
  auto loaded = LoadUsablePlan("targets", plan_path, io.err);
  if (!loaded) return kExitUnusable;
  auto groups = targets::FileSdTargets(loaded->plan);
  if (!groups) {
    io.err << "roce-lint targets: " << plan_path << ": " << groups.error().message << "\n";
    return kExitUnusable;
  }
  const std::string json = groups->dump(2) + "\n";
  auto output = parsed->Value("--output");
  if (auto snippet = parsed->Value("--scrape-config")) {
    if (!output) {
      io.err << "roce-lint targets: --scrape-config needs --output (the file the snippet reads)\n";
      return kExitUnusable;
    }
    if (!WriteFile(*snippet, targets::ScrapeConfigSnippet(parsed->Value("--job").value_or("roce_exporter"), *output))) {
      io.err << "roce-lint targets: cannot write " << *snippet << "\n";
      return kExitUnusable;
    }
  }
  if (!output) {
    io.out << json;
    return kExitClean;
  }
  if (!WriteFile(*output, json)) {
    io.err << "roce-lint targets: cannot write " << *output << "\n";
    return kExitUnusable;
  }
  return kExitClean;
}

}  // namespace rocewatch::lint::cli
