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
  std::string lanes;
  for (const auto& s :
       v.SelectIncrease(metric::roce_fec_lane_uncorrectable_blocks_total, {{label::netdev, nd}})) {
    if (s.value() > 0) {
      lanes += (lanes.empty() ? "" : ", ") + std::string("lane ") + std::string(s.Label(label::lane)) +
               ": " + FormatNumber(s.value());
    }
  }
  sink.Nic(
      kFecUncorrectable, c, "at most " + FormatNumber(allowed) + " uncorrectable FEC blocks",
      FormatNumber(*blocks) + " in " + Window(w),
      nd + " received " + FormatNumber(*blocks) + " FEC blocks it could not correct in " +
          Window(w) + " (" + PerSecond(*blocks, w) + ")" +
          (lanes.empty() ? std::string() : "; " + lanes) +
          ": frames are lost before the link goes down.",
      "ethtool -I --show-fec " + nd + "; ethtool -m " + nd +
          " (RX power); reseat or replace the cable/transceiver" +
          (c.nic.switch_port ? " and check switch port " + *c.nic.switch_port : std::string()));
}

}  // namespace rocewatch::lint::checks::counters
