// What the ecn.* checks share (group.h).

#include <algorithm>

#include "lint/checks/ecn/group.h"
#include "lint/checks/observed.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::ecn {

void PointPriorities(const NicContext& c, FindingSink& sink, const CheckSpec& spec,
                     const char* point, const std::optional<std::vector<std::int64_t>>& planned) {
  const std::string& nd = c.nic.netdev;
  if (!planned) return;
  auto on = EnabledPriorities(c.view, metric::roce_ecn_enabled, nd, point);
  // A driver with one switch for every priority (bnxt_re: priority="all") is as planned when
  // it is on and the plan wants ECN somewhere, or off and the plan wants it nowhere.
  auto all = c.view.Select(metric::roce_ecn_enabled, {{label::netdev, nd}, {label::point, point},
                                                       {label::priority, "all"}});
  if (!all.empty()) {
    const bool all_on = all.front().value() == 1;
    if (all_on == !planned->empty()) return;
    on = all_on ? std::vector<std::int64_t>{0, 1, 2, 3, 4, 5, 6, 7} : std::vector<std::int64_t>{};
  }
  if (!on || *on == *planned) return;
  FixText fixes;
  for (int prio = 0; prio < 8; ++prio) {
    bool want = std::find(planned->begin(), planned->end(), prio) != planned->end();
    bool have = std::find(on->begin(), on->end(), prio) != on->end();
    if (want == have) continue;
    if (!fixes.empty()) fixes += i18n::Phrase::Of("fix.separator", {});
    fixes += SettingChange{"ecn." + std::string(point) + "." + std::to_string(prio), std::int64_t{want ? 1 : 0}};
  }
  sink.Nic(spec, c, FormatPriorities(*planned), FormatPriorities(*on),
           i18n::Phrase::Of(std::string_view(point) == "np" ? i18n::MessageId("check.ecn.np_priorities.message")
                                                            : i18n::MessageId("check.ecn.rp_priorities.message"),
                            {{"netdev", nd},
                             {"point", point},
                             {"found", FormatPriorities(*on)},
                             {"expected", FormatPriorities(*planned)}}),
           fixes);
}

}  // namespace rocewatch::lint::checks::ecn
