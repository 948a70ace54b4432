#pragma once

// One evaluation of a plan against the cluster, for every command that evaluates (`check`,
// `fix --only-findings`, `serve`): the switches' pause counters over the counter window, every
// node observed and checked as it comes in (its metrics dropped after), the fleet checks, and
// the fixes rendered into the findings (fix::RenderFixes). A command parses its flags, calls
// Evaluate and picks a report; none of them runs a check itself, so they cannot disagree on the
// same cluster.

#include <string>
#include <vector>

#include "lint/core/finding.h"
#include "lint/observe/orchestrate.h"
#include "lint/observe/switch_counter_query.h"
#include "lint/plan/model.h"
#include "lint/switch/counter_profiles.h"
#include "lint/switch/switch_config.h"
#include "rocewatch/result.h"

namespace rocewatch::lint::run {

// The switch side of the links (check's and serve's --switch-config, --switch-counters).
struct SwitchSides {
  const switch_config::SwitchConfigs& configs;
  // Read from the store over the counter window (--prometheus with a window); none: not read.
  const std::vector<switch_config::CounterProfile>& counter_profiles;
};

struct EvaluateOptions {
  // The views of the evaluation before and how long ago it was: the counters compare the two
  // (serve, reading exporters or files, which keep no history).
  const std::vector<observe::NodeView>* previous = nullptr;
  double previous_seconds = 0;
  bool keep_views = false;  // Evaluation::views keeps every node's view (serve's next `previous`)
  // An error reading the switches' counters fails the evaluation (check); else it is noted in
  // Evaluation::switch_counters_error and the run goes on without them (serve).
  bool switch_counters_required = true;
};

struct Evaluation {
  std::vector<Finding> findings;  // by node (plan order), device, check; fixes rendered
  observe::ObservedInput observed;
  // Reachable nodes whose counters showed no increase (only when observed.counters), sorted.
  std::vector<std::string> counters_unobserved;
  // "node netdev" of the NICs whose switch side has no source, and of those whose switch port has
  // no pause counters, sorted.
  std::vector<std::string> switch_side_unchecked, switch_counters_unchecked;
  bool switch_counters_read = false;
  bool switch_counters_queried = false;  // the store was asked (switch_stats says what it cost)
  observe::SwitchQueryStats switch_stats;
  std::size_t switch_counter_ports = 0;  // switch ports whose counters were read
  std::string switch_counters_error;  // !switch_counters_required: why they are missing
  std::vector<observe::NodeView> views;  // with keep_views
  // nic_drivers[node][nic]: the driver the kernel reports for each planned NIC (roce_device_info's
  // driver label); "" when not observed. `fix --only-findings` picks each NIC's tools by it.
  std::vector<std::vector<std::string>> nic_drivers;
};

// `settings.prometheus.at` is set to now when the switches' counters are read and it is unset,
// so both sides are read at one time.
Result<Evaluation> Evaluate(const plan::Plan& plan, observe::ObserveSettings settings,
                            const SwitchSides& switches, const EvaluateOptions& options = {});

}  // namespace rocewatch::lint::run
