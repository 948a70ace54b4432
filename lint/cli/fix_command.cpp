// roce-lint fix PLAN: per node, the POSIX sh script that brings every planned NIC to its profile
// (docs/fix.md), optionally with the systemd unit and udev rule that re-apply it (--persist), or
// limited to what the checks found wrong (--only-findings).

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include "lint/checks/specs.h"
#include "lint/cli/commands.h"
#include "lint/cli/common_flags.h"
#include "lint/cli/exit_codes.h"
#include "lint/cli/usable_plan.h"
#include "lint/cli/observe_flags.h"
#include "lint/cli/switch_flags.h"
#include "lint/fix/persist.h"
#include "lint/fix/script.h"
#include "lint/fix/target.h"
#include "lint/plan/load.h"
#include "lint/run/evaluate.h"
#include "rocewatch/escape.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* kUsage =
    "usage: roce-lint fix PLAN [--node NAME] [--tool upstream|mlnx] [--output-dir DIR] "
    "[--persist]\n"
    "                          [--only-findings [observe flags]]\n"
    "\n"
    "Renders, per node, an idempotent POSIX sh script that brings every planned NIC to its\n"
    "profile: trust, PFC, DSCP priorities, ECN, CNP marking, DCQCN parameters, global pause,\n"
    "MTU, rdma_cm defaults. The script runs a precheck first (devices, netdevs, driver, versions,\n"
    "tools), reads every setting and changes only what differs; `--dry-run` only reports\n"
    "(docs/fix.md).\n"
    "\n";

const std::vector<FlagSpec>& CommandSpecs() {
  static const std::vector<FlagSpec> kSpecs = {
      kHelpFlag,
      {"--node", "", true, "only this node (default: every node of the plan)", "NAME"},
      {"--tool", "", true,
       "iproute2 dcb/ip, ethtool, sysfs and configfs (default), or the\n"
       "MLNX_OFED tools mlnx_qos, cma_roce_mode, cma_roce_tos",
       "upstream|mlnx"},
      {"--output-dir", "-o", true,
       "write DIR/<node>/rocewatch-roce-config.sh (without it: the one\n"
       "selected node's script on standard output)",
       "DIR"},
      {"--persist", "", false,
       "also DIR/<node>/{rocewatch-roce-config.service,\n"
       "99-rocewatch-roce-config.rules, install.sh}: apply at boot and after\n"
       "a driver reload"},
      {"--only-findings", "", false,
       "observe the nodes like `roce-lint check` and limit each script to\n"
       "the settings the checks found wrong; nodes without such findings\n"
       "get no script"}};
  return kSpecs;
}

void RemoveIfExists(const fs::path& p) {
  std::error_code ec;
  fs::remove(p, ec);
}

Status WriteFile(const fs::path& path, const std::string& text, bool executable) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) return Error{"cannot write " + path.string()};
  f << text;
  f.close();
  if (!f) return Error{"cannot write " + path.string()};
  std::error_code ec;
  fs::permissions(path,
                  executable
                      ? fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                            fs::perms::others_read | fs::perms::others_exec
                      : fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                            fs::perms::others_read,
                  ec);
  return {};
}

}  // namespace

int RunFixCommand(const std::vector<std::string>& args, CommandIo io) {
  std::vector<FlagSpec> specs = ObserveFlagSpecs();
  specs.insert(specs.end(), SwitchFlagSpecs().begin(), SwitchFlagSpecs().end());
  specs.insert(specs.end(), CommandSpecs().begin(), CommandSpecs().end());
  auto parsed = ParseArgs(args, specs);
  if (!parsed.ok()) {
    io.err << "roce-lint fix: " << parsed.error().message << "\n";
    return kExitUnusable;
  }
  if (parsed->Has("--help")) {
    io.out << kUsage << FlagUsage(CommandSpecs()) << "\nWith --only-findings:\n"
           << ObserveFlagsHelp() << FlagUsage(SwitchFlagSpecs())
           << "\nExit codes: 0 scripts rendered, 2 unusable input (bad flags, plan with errors).\n";
    return kExitClean;
  }
  if (parsed->positional.size() != 1) {
    io.err << "roce-lint fix: expected one plan file, got " << parsed->positional.size()
           << " (see --help)\n";
    return kExitUnusable;
  }
  fix::ScriptOptions options;
  std::string tool = parsed->Value("--tool").value_or("upstream");
  if (tool == "mlnx") {
    options.tools = fix::Toolset::kMlnx;
  } else if (tool != "upstream") {
    io.err << "roce-lint fix: --tool \"" << tool << "\" is not one of: upstream, mlnx\n";
    return kExitUnusable;
  }
  const bool persist = parsed->Has("--persist");
  options.only_findings = parsed->Has("--only-findings");
  auto output_dir = parsed->Value("--output-dir");
  if (persist && !output_dir) {
    io.err << "roce-lint fix: --persist writes several files per node: give --output-dir DIR\n";
    return kExitUnusable;
  }
  if (persist && options.only_findings) {
    io.err
        << "roce-lint fix: --persist installs the whole profile to apply at every boot; render it "
           "without --only-findings\n";
    return kExitUnusable;
  }
  bool observe_flag = false;
  for (const auto& spec : ObserveFlagSpecs())
    observe_flag = observe_flag || parsed->Value(spec.name);
  for (const auto& spec : SwitchFlagSpecs())
    observe_flag = observe_flag || parsed->Value(spec.name);
  if (observe_flag && !options.only_findings) {
    io.err << "roce-lint fix: the metrics and switch flags go with --only-findings\n";
    return kExitUnusable;
  }

  const std::string& plan_path = parsed->positional.front();
  auto loaded = LoadUsablePlan("fix", plan_path, io.err);
  if (!loaded) return kExitUnusable;
  const plan::Plan& plan = loaded->plan;
  options.plan_name = fs::path(plan_path).filename().string();
  options.cluster = plan.cluster;

  std::vector<const plan::Node*> nodes;
  if (auto name = parsed->Value("--node")) {
    std::vector<std::string> names;
    for (const auto& n : plan.nodes) {
      names.push_back(n.name);
      if (n.name == *name) nodes.push_back(&n);
    }
    if (nodes.empty()) {
      io.err << "roce-lint fix: no node " << Quote(*name) << " in " << plan_path;
      if (auto s = DidYouMean(*name, names)) io.err << "; did you mean \"" << *s << "\"?";
      io.err << "\n";
      return kExitUnusable;
    }
  } else {
    for (const auto& n : plan.nodes) nodes.push_back(&n);
  }
  if (!output_dir && nodes.size() != 1) {
    io.err << "roce-lint fix: " << nodes.size()
           << " nodes: give --node NAME for one script on standard output, or --output-dir DIR\n";
    return kExitUnusable;
  }

  // --only-findings: this node's findings (the checks run on the whole plan: drift needs peers).
  std::map<std::string, std::vector<Finding>> findings_by_node;
  std::vector<std::vector<std::string>> nic_drivers;  // [node][nic], from the metrics
  std::string observed_input;
  if (options.only_findings) {
    auto settings = ObserveSettingsFromArgs(*parsed);
    if (!settings) {
      io.err << "roce-lint fix: " << settings.error().message << "\n";
      return kExitUnusable;
    }
    auto switch_inputs = SwitchInputsFromArgs(*parsed);
    if (!switch_inputs) {
      io.err << "roce-lint fix: " << switch_inputs.error().message << "\n";
      return kExitUnusable;
    }
    auto evaluation = run::Evaluate(plan, *settings, {switch_inputs->configs, switch_inputs->profiles});
    if (!evaluation) {
      io.err << "roce-lint fix: " << escape::TerminalText(evaluation.error().message) << "\n";
      return kExitUnusable;
    }
    observed_input = evaluation->observed.input;
    for (auto& f : evaluation->findings) findings_by_node[f.node].push_back(std::move(f));
    nic_drivers = std::move(evaluation->nic_drivers);
  }

  // Where the report goes: standard error when standard output carries the script.
  std::ostream& report = output_dir ? io.out : io.err;
  if (options.only_findings) report << "findings from " << observed_input << "\n";
  for (const plan::Node* node : nodes) {
    // The node's name is a directory under --output-dir: never one that leaves it.
    if (!escape::PathComponent(node->name)) {
      io.err << "roce-lint fix: node name " << Quote(node->name)
             << " cannot be a directory name: " << escape::PathComponentProblem(node->name)
             << "\n";
      return kExitUnusable;
    }
    // Each NIC's tools follow its driver: what the metrics say it is, else the profile's.
    const std::size_t node_index = static_cast<std::size_t>(node - plan.nodes.data());
    std::vector<fix::NicTarget> targets;
    for (std::size_t n = 0; n < node->nics.size(); ++n) {
      const plan::Nic& nic = node->nics[n];
      const plan::Profile* p = plan.FindProfile(nic.profile);
      if (p == nullptr) continue;
      fix::NicTarget target = fix::TargetFromProfile(nic, *p);
      if (node_index < nic_drivers.size() && n < nic_drivers[node_index].size() &&
          !nic_drivers[node_index][n].empty())
        target.kernel_driver = nic_drivers[node_index][n];
      targets.push_back(std::move(target));
    }
    std::vector<fix::Unfixable> unfixable;
    bool observed = true;
    if (options.only_findings) {
      auto restricted = fix::RestrictToFindings(targets, findings_by_node[node->name]);
      targets = std::move(restricted.nics);
      unfixable = std::move(restricted.unfixable);
      const auto& found = findings_by_node[node->name];
      observed = std::none_of(found.begin(), found.end(), [](const Finding& f) {
        return f.check == checks::kExporterUnreachable.id;
      });
    }
    const fs::path dir = output_dir ? fs::path(*output_dir) / node->name : fs::path();
    if (targets.empty()) {
      report << escape::TerminalText(node->name) << ": no script: "
             << (!observed               ? "the node could not be observed"
                 : options.only_findings ? "no finding the script can fix"
                                         : "no planned NIC has a setting to configure")
             << "\n";
      // A script left from an earlier run must not be applied by `roce-lint apply`.
      if (output_dir) RemoveIfExists(dir / fix::kScriptFileName);
    }
    for (const auto& u : unfixable) {
      report << "  "
             << escape::TerminalText(u.finding->check +
                                     (u.finding->device.empty() ? "" : " " + u.finding->device) +
                                     ": " + u.why + " (" + u.finding->message + ")")
             << "\n";
    }
    if (targets.empty()) continue;

    auto script = fix::RenderScript(*node, targets, options);
    if (!script) {
      io.err << "roce-lint fix: " << script.error().message << "\n";
      return kExitUnusable;
    }
    std::size_t settings = 0;
    for (const auto& t : targets) settings += t.SettingCount();
    if (!output_dir) {
      io.out << *script;
      report << escape::TerminalText(node->name) << ": " << targets.size() << " NIC" << (targets.size() == 1 ? "" : "s")
             << ", " << settings << (settings == 1 ? " setting (" : " settings (")
             << fix::ToolsetName(options.tools) << " tools)\n";
      continue;
    }
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) {
      io.err << "roce-lint fix: cannot create " << dir.string() << ": " << ec.message() << "\n";
      return kExitUnusable;
    }
    if (auto s = WriteFile(dir / fix::kScriptFileName, *script, true); !s) {
      io.err << "roce-lint fix: " << s.error().message << "\n";
      return kExitUnusable;
    }
    report << escape::TerminalText(node->name + ": " + (dir / fix::kScriptFileName).string())
           << " (" << targets.size()
           << " NIC" << (targets.size() == 1 ? "" : "s") << ", " << settings
           << (settings == 1 ? " setting, " : " settings, ")
           << fix::ToolsetName(options.tools) << " tools)\n";
    if (persist) {
      auto files = fix::RenderPersistFiles(*node, targets, plan.cluster);
      if (!files) {
        io.err << "roce-lint fix: " << files.error().message << "\n";
        return kExitUnusable;
      }
      for (auto [name, text, exec] :
           {std::tuple{fix::kUnitName, &files->unit, false},
            std::tuple{fix::kUdevRuleName, &files->udev_rule, false},
            std::tuple{fix::kInstallScriptName, &files->install_script, true}}) {
        if (auto s = WriteFile(dir / name, *text, exec); !s) {
          io.err << "roce-lint fix: " << s.error().message << "\n";
          return kExitUnusable;
        }
      }
      report << escape::TerminalText(node->name + ": " + (dir / fix::kUnitName).string()) << ", " << fix::kUdevRuleName
             << ", " << fix::kInstallScriptName << " (sh install.sh on the node)\n";
    }
  }
  return kExitClean;
}

}  // namespace rocewatch::lint::cli
