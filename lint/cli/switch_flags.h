#pragma once

// The flags that give roce-lint the switch side of each link, shared by `check` and `serve`:
//   --switch-config FILE     a switch's configuration (SONiC config_db.json, NVUE JSON); repeatable
//   --switch-counters FILE   counter profiles added to the built-in ones; repeatable
// Each file is read once, as hostile input; an error names the flag and the file.

#include <string>
#include <vector>

#include "lint/cli/args.h"
#include "lint/switch/counter_profiles.h"
#include "lint/switch/switch_config.h"
#include "rocewatch/result.h"

namespace rocewatch::lint::cli {

const std::vector<FlagSpec>& SwitchFlagSpecs();

struct SwitchInputs {
  switch_config::SwitchConfigs configs;                  // from --switch-config
  std::vector<switch_config::CounterProfile> profiles;   // the built-in ones and --switch-counters'
  bool counters_added = false;                           // --switch-counters was given
};

Result<SwitchInputs> SwitchInputsFromArgs(const ParsedArgs& args);

}  // namespace rocewatch::lint::cli
