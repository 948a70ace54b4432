#pragma once

// The flags that say where roce-lint gets the nodes' metrics, shared by
// `check`, `serve` and `fix --only-findings`:
//   --metrics-dir DIR [--previous-metrics-dir DIR --window 30s]   saved /metrics files
//   --prometheus URL [--window 5m] [--prometheus.* …]            a Prometheus-compatible API
//   (default) direct scrapes of the exporters the plan names [--counter-window 30s]
//   --timeout 5s, --concurrency 32, --max-bytes N, --scheme http|https,
//   --ca-file, --cert-file, --key-file, --username, --password-file
// Only their declaration lives here; what they mean and the observing itself are
// lint/observe/orchestrate.h.

#include <string>
#include <vector>

#include "lint/cli/args.h"
#include "lint/observe/orchestrate.h"

namespace rocewatch::lint::cli {

const std::vector<FlagSpec>& ObserveFlagSpecs();
// The observe flags' part of a command's --help (a heading, then FlagUsage of the specs).
const std::string& ObserveFlagsHelp();
extern const char* const kObserveFlagsHelp;  // ObserveFlagsHelp().c_str()

// The names the commands used before the orchestration moved to lint/observe/.
using observe::Observe;
using observe::Observed;
using observe::ObservedInput;
using observe::ObserveEach;
using observe::ObserveSettings;
using observe::ParseByteSize;
inline Result<ObserveSettings> ObserveSettingsFromArgs(const ParsedArgs& args) {
  return observe::SettingsFromFlags(args);
}

}  // namespace rocewatch::lint::cli
