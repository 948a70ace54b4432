#include "lint/run/evaluate.h"

#include <algorithm>
#include <chrono>

#include "lint/checks/check.h"
#include "lint/checks/peer/group.h"
#include "lint/fix/fix_hints.h"
#include "lint/metric_contract.h"
#include "lint/observe/observe.h"

namespace rocewatch::lint::run {

Result<Evaluation> Evaluate(const plan::Plan& plan, observe::ObserveSettings settings,
                            const SwitchSides& sides, const EvaluateOptions& options) {
  Evaluation e;
  switch_config::SwitchConfigs switches = sides.configs;
  // The switches' pause counters over the counter window, at the same time as the nodes'.
  if (settings.mode == observe::ObserveSettings::Mode::kPrometheus && settings.window_seconds > 0 &&
      !sides.counter_profiles.empty()) {
    if (!settings.prometheus.at)
      settings.prometheus.at =
          std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    e.switch_counters_queried = true;
    auto pauses = observe::QuerySwitchPauses(sides.counter_profiles, settings.prometheus, settings.scrape,
                                             &e.switch_stats);
    if (pauses) {
      e.switch_counter_ports = pauses->size();
      switches.SetPauses(std::move(*pauses));
    } else if (options.switch_counters_required) {
      return pauses.error();
    } else {
      e.switch_counters_error = pauses.error().message;
    }
  }

  // Each node is checked as soon as it is observed and its metrics dropped (unless kept): at
  // 10,000 nodes only the interned settings that drift compares stay in memory.
  checks::CheckRunner runner(plan, &switches);
  std::vector<std::string> without_window;
  e.nic_drivers.resize(plan.nodes.size());
  auto add = [&](std::size_t i, observe::NodeView&& view) {
    if (view.reachable() && !view.has_increase()) without_window.push_back(view.node());
    if (i < plan.nodes.size()) {
      const plan::Node& node = plan.nodes[i];
      for (const plan::Nic& nic : node.nics) {
        std::string driver;
        for (const auto& d : view.Select(metric::roce_device_info, {{label::device, nic.ib_dev}}))
          driver = std::string(d.Label(label::driver));
        e.nic_drivers[i].push_back(std::move(driver));
      }
      for (const std::string& netdev : checks::peer::NicsWithoutSwitchSide(node, view, &switches))
        e.switch_side_unchecked.push_back(node.name + " " + netdev);
      for (const std::string& netdev : checks::peer::NicsWithoutSwitchCounters(node, view, &switches))
        e.switch_counters_unchecked.push_back(node.name + " " + netdev);
      runner.AddNode(i, view);
    }
    if (options.keep_views) e.views.push_back(std::move(view));
  };
  if (options.previous != nullptr) {
    // Counters compare this run with the one before: every view is needed at once.
    auto observed = observe::Observe(plan, settings);
    if (!observed) return observed.error();
    if (!options.previous->empty())
      observe::AttachIncrease(observed->views, *options.previous, options.previous_seconds);
    for (std::size_t i = 0; i < observed->views.size(); ++i) add(i, std::move(observed->views[i]));
    e.observed = std::move(static_cast<observe::ObservedInput&>(*observed));
  } else {
    auto observed = observe::ObserveEach(plan, settings, add);
    if (!observed) return observed.error();
    e.observed = std::move(*observed);
  }

  e.findings = runner.Finish();
  fix::RenderFixes(e.findings);
  std::sort(e.switch_side_unchecked.begin(), e.switch_side_unchecked.end());
  std::sort(e.switch_counters_unchecked.begin(), e.switch_counters_unchecked.end());
  e.switch_counters_read = switches.pauses().read();
  if (e.observed.counters) {
    std::sort(without_window.begin(), without_window.end());
    e.counters_unobserved = std::move(without_window);
  }
  return e;
}

}  // namespace rocewatch::lint::run
