// counters.fec-ber: the pre-FEC bit error ratio over the window is above the profile's
// fec.max_pre_fec_ber. BER = bits FEC corrected / bits received = increase of the corrected-bits
// counter / (link speed in bit/s × window in s). The link speed is what the netdev reports
// (ethtool), else the port's rate, else the profile's link_speed_gbps. docs/checks.md explains it.

#include <cstdio>

#include "lint/checks/counters/group.h"
#include "lint/checks/observed.h"
#include "lint/checks/specs.h"
#include "lint/metric_contract.h"

namespace rocewatch::lint::checks::counters {
namespace {

std::string Ratio(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

}  // namespace

void FecBer(const NicContext& c, FindingSink& sink) {
  const plan::Profile* p = c.profile;
  if (p == nullptr || !p->fec || !p->fec->max_pre_fec_ber) return;
  const auto& v = c.view;
  if (!v.has_increase()) return;
  const double w = v.window_seconds();
  if (w <= 0) return;
  const std::string& nd = c.nic.netdev;
  // ethtool netlink's corrected bits, else the driver's own counter (mlx5 rx_corrected_bits_phy,
  // which its FEC_GET answer leaves out).
  auto bits = v.Increase(metric::roce_fec_corrected_bits_total, {{label::netdev, nd}});
  if (!bits) bits = v.Increase(metric::roce_ethtool_rx_fec_corrected_bit_errors_total, {{label::netdev, nd}});
  if (!bits) return;
  std::optional<double> speed_bytes =
      v.Value(metric::roce_ethtool_link_speed_bytes_per_second, {{label::netdev, nd}});
  if (!speed_bytes || *speed_bytes <= 0) {
    speed_bytes =
        v.Value(metric::roce_port_rate_bytes_per_second, {{label::device, c.nic.ib_dev}, {label::port, c.port}});
  }
  if ((!speed_bytes || *speed_bytes <= 0) && p->link_speed_gbps) {
    speed_bytes = static_cast<double>(*p->link_speed_gbps) * 1e9 / 8;
  }
  if (!speed_bytes || *speed_bytes <= 0) return;
  const double received_bits = *speed_bytes * 8 * w;
  const double ber = *bits / received_bits;
  const double limit = *p->fec->max_pre_fec_ber;
  if (ber <= limit) return;
  i18n::StoredArgs args = {{"netdev", nd},
                           {"bits", FormatNumber(*bits)},
                           {"window", Window(w)},
                           {"gbps", FormatNumber(*speed_bytes * 8 / 1e9)},
                           {"ber", Ratio(ber)},
                           {"limit", Ratio(limit)}};
  AddAndSwitchPortArg(args, c);
  sink.Nic(kFecBer, c, i18n::Phrase::Of("check.counters.fec_ber.expected", args),
           i18n::Phrase::Of("check.counters.fec_ber.found", args), i18n::Phrase::Of("check.counters.fec_ber.message", args),
           i18n::Phrase::Of("check.counters.fec_ber.fix", args));
}

}  // namespace rocewatch::lint::checks::counters
