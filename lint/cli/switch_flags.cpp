#include "lint/cli/switch_flags.h"

#include "rocewatch/escape.h"

namespace rocewatch::lint::cli {

const std::vector<FlagSpec>& SwitchFlagSpecs() {
  static const std::vector<FlagSpec> kSpecs = {
      {"--switch-config", "", true,
       "a switch's configuration (SONiC config_db.json, NVUE `nv config show -o json`),\n"
       "joined to NICs by their LLDP neighbour for the peer.* checks; repeatable",
       "FILE"},
      {"--switch-counters", "", true,
       "switch counter profiles (JSON) added to the built-in ones: where the switches'\n"
       "PFC pause counters are in --prometheus, for peer.switch-pause-non-pfc and\n"
       "peer.pause-mismatch (docs/operations.md \"The switch side\"); repeatable",
       "FILE"}};
  return kSpecs;
}

Result<SwitchInputs> SwitchInputsFromArgs(const ParsedArgs& args) {
  SwitchInputs in;
  for (const std::string& path : args.All("--switch-config")) {
    auto config = switch_config::ReadSwitchConfigFile(path);
    if (!config) return Error{"--switch-config " + escape::TerminalText(config.error().message)};
    if (config->hostname.empty())
      return Error{"--switch-config " + escape::TerminalText(path) +
                   ": no hostname (SONiC: DEVICE_METADATA/localhost/hostname; NVUE: system/hostname), "
                   "which joins it to the NICs' LLDP neighbours"};
    in.configs.Add(std::move(*config));
  }
  std::vector<switch_config::CounterProfile> added;
  for (const std::string& path : args.All("--switch-counters")) {
    auto profiles = switch_config::ReadCounterProfilesFile(path);
    if (!profiles) return Error{"--switch-counters " + escape::TerminalText(profiles.error().message)};
    added.insert(added.end(), profiles->begin(), profiles->end());
  }
  in.counters_added = !args.All("--switch-counters").empty();
  in.profiles = switch_config::MergeProfiles(switch_config::BuiltinCounterProfiles(), added);
  return in;
}

}  // namespace rocewatch::lint::cli
