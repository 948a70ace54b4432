// counters.fec-uncorrectable: FEC blocks FEC could not correct rose over the window (each is a
// lost frame: a retransmission for RoCE). A link normally has none.

#include "lint/checks/counters/group.h"
#include "lint/checks/observed.h"
#include "lint/checks/specs.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::counters {

void FecUncorrectable(const NicContext& c, FindingSink& sink) {
  const auto& v = c.view;
  if (!v.has_increase()) return;
  const std::string& nd = c.nic.netdev;
  auto blocks = v.Increase(metric::roce_fec_uncorrectable_blocks_total, {{label::netdev, nd}});
  if (!blocks) return;
  const double allowed =
      c.profile != nullptr && c.profile->fec && c.profile->fec->max_uncorrectable_blocks
          ? static_cast<double>(*c.profile->fec->max_uncorrectable_blocks)
          : 0;
  if (*blocks <= allowed) return;
  const double w = v.window_seconds();
  std::vector<i18n::Phrase> lanes;
  for (const auto& s :
       v.SelectIncrease(metric::roce_fec_lane_uncorrectable_blocks_total, {{label::netdev, nd}})) {
    if (s.value() > 0) {
      lanes.push_back(i18n::Phrase::Of("check.counters.fec_uncorrectable.lane",
                                       {{"lane", std::string(s.Label(label::lane))}, {"count", FormatNumber(s.value())}}));
    }
  }
  i18n::StoredArgs args = {{"netdev", nd},
                           {"allowed", FormatNumber(allowed)},
                           {"count", FormatNumber(*blocks)},
                           {"window", Window(w)},
                           {"rate", PerSecond(*blocks, w)}};
  if (lanes.empty()) {
    args.emplace_back("lanes", "");
  } else {
    i18n::StoredArgs list;
    i18n::AddListArg(list, "lanes", lanes, "check.counters.fec_uncorrectable.lane_joiner");
    i18n::AddMessageArg(args, "lanes", "check.counters.fec_uncorrectable.lanes", list);
  }
  AddAndSwitchPortArg(args, c);
  sink.Nic(kFecUncorrectable, c, i18n::Phrase::Of("check.counters.fec_uncorrectable.expected", args),
           i18n::Phrase::Of("check.counters.count_in_window", args),
           i18n::Phrase::Of("check.counters.fec_uncorrectable.message", args),
           i18n::Phrase::Of("check.counters.fec_uncorrectable.fix", args));
}

}  // namespace rocewatch::lint::checks::counters
