// Plan checks on RoCE profiles: ranges and the contradictions that break lossless RoCE.

#include <algorithm>
#include <cmath>

#include "lint/plan/checks_internal.h"
#include "lint/plan/plan_checks.h"
#include "lint/plan/validate.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::plan::internal {
namespace {

std::string List(const std::vector<std::int64_t>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(values[i]);
  }
  return out + "]";
}

bool Contains(const std::vector<std::int64_t>& values, std::int64_t v) {
  return std::find(values.begin(), values.end(), v) != values.end();
}

class ProfileChecker {
 public:
  ProfileChecker(const Profile& profile, FindingSink& sink)
      : p_(profile),
        sink_(sink),
        pointer_(ProfilePointer(profile.name)),
        label_("profile " + Quote(profile.name)) {}

  void Run() {
    Ranges();
    Mtu();
    Lossless();
    Cnp();
  }

 private:
  void Add(const lint::CheckSpec& id, std::string_view key, std::string message, std::string expected,
           std::string found, std::string fix) {
    sink_.Add(
        MakeFinding(id, std::move(message), std::move(expected), std::move(found), std::move(fix)),
        pointer_ + "/" + std::string(key));
  }

  void Priority(std::string_view key, std::string_view name, std::int64_t v) {
    if (v >= 0 && v <= 7) return;
    Add(kPlanPriorityRange, key,
        std::string(name) + " of " + label_ + " is " + std::to_string(v) +
            "; priorities are 0 to 7",
        "0-7", std::to_string(v), "set " + std::string(name) + " to a priority from 0 to 7");
  }

  void Priorities(std::string_view key, std::string_view name,
                  const std::optional<std::vector<std::int64_t>>& values) {
    if (!values) return;
    for (std::size_t i = 0; i < values->size(); ++i) {
      std::string index = "[" + std::to_string(i) + "]";
      Priority(std::string(key) + "/" + std::to_string(i), std::string(name) + index, (*values)[i]);
    }
  }

  void Dscp(std::string_view key, std::string_view name, std::int64_t v) {
    if (v >= 0 && v <= 63) return;
    Add(kPlanDscpRange, key,
        std::string(name) + " of " + label_ + " is " + std::to_string(v) +
            "; DSCP values are 0 to 63",
        "0-63", std::to_string(v), "set " + std::string(name) + " to a DSCP value from 0 to 63");
  }

  void Ranges() {
    if (p_.roce_priority) Priority("roce_priority", "roce_priority", *p_.roce_priority);
    if (p_.cnp_priority) Priority("cnp_priority", "cnp_priority", *p_.cnp_priority);
    Priorities("pfc_priorities", "pfc_priorities", p_.pfc_priorities);
    Priorities("ecn/np_priorities", "ecn.np_priorities", p_.ecn.np_priorities);
    Priorities("ecn/rp_priorities", "ecn.rp_priorities", p_.ecn.rp_priorities);
    if (p_.roce_dscp) Dscp("roce_dscp", "roce_dscp", *p_.roce_dscp);
    if (p_.cnp_dscp) Dscp("cnp_dscp", "cnp_dscp", *p_.cnp_dscp);
    if (p_.dcqcn) {
      const auto& np = p_.dcqcn->np;
      if (auto it = np.find("cnp_dscp"); it != np.end()) {
        Dscp("dcqcn/np/cnp_dscp", "dcqcn.np.cnp_dscp", it->second);
      }
      if (auto it = np.find("cnp_802p_prio"); it != np.end()) {
        Priority("dcqcn/np/cnp_802p_prio", "dcqcn.np.cnp_802p_prio", it->second);
      }
    }
    if (p_.fec) Fec(*p_.fec);
    if (p_.link_speed_gbps && *p_.link_speed_gbps <= 0) {
      Add(kPlanValueRange, "link_speed_gbps",
          "link_speed_gbps of " + label_ + " is " + std::to_string(*p_.link_speed_gbps) +
              "; a link speed is a positive number of Gb/s",
          "a positive number", std::to_string(*p_.link_speed_gbps),
          "set link_speed_gbps to the port speed, e.g. 400");
    }
    if (p_.netdev_mtu && (*p_.netdev_mtu < 68 || *p_.netdev_mtu > 65535)) {
      Add(kPlanValueRange, "netdev_mtu",
          "netdev_mtu of " + label_ + " is " + std::to_string(*p_.netdev_mtu) +
              "; an Ethernet MTU is 68 to 65535 bytes",
          "68-65535", std::to_string(*p_.netdev_mtu),
          "set netdev_mtu to the interface MTU, e.g. 9000");
    }
    if (p_.pcie) Pcie(*p_.pcie);
    if (p_.optics) Optics(*p_.optics);
    Verify(p_.verify);
  }

  void VerifyRange(std::string_view key, const std::optional<double>& v, double lo, double hi,
                   bool lo_open, std::string_view meaning) {
    if (!v || ((lo_open ? *v > lo : *v >= lo) && *v <= hi)) return;
    std::string range = (lo_open ? "above " : "") + FormatDouble(lo) + " to " + FormatDouble(hi);
    Add(kPlanValueRange, "verify/" + std::string(key),
        "verify." + std::string(key) + " of " + label_ + " is " + FormatDouble(*v) + "; it is " +
            std::string(meaning) + ", " + range,
        range, FormatDouble(*v), "set verify." + std::string(key) + " within " + range);
  }

  void Verify(const VerifySettings& s) {
    VerifyRange("min_bandwidth_fraction", s.min_bandwidth_fraction, 0, 1, true,
                "a fraction of the link speed");
    VerifyRange("max_latency_us", s.max_latency_us, 0, 1e6, true, "microseconds");
    VerifyRange("max_pause_duration_fraction", s.max_pause_duration_fraction, 0, 1, false,
                "a fraction of the test time");
    VerifyRange("max_retransmissions_per_second", s.max_retransmissions_per_second, 0, 1e12, false,
                "a rate");
    auto as_double = [](const std::optional<std::int64_t>& i) {
      return i ? std::optional<double>(static_cast<double>(*i)) : std::nullopt;
    };
    VerifyRange("max_discards", as_double(s.max_discards), 0, 1e15, false, "a packet count");
    VerifyRange("queue_pairs", as_double(s.queue_pairs), 1, 1024, false,
                "a number of queue pairs (perftest -q)");
    VerifyRange("message_bytes", as_double(s.message_bytes), 1, 1 << 30, false,
                "a message size in bytes (perftest -s)");
  }

  void Pcie(const PcieSettings& pcie) {
    static const double kSpeeds[] = {2.5, 5, 8, 16, 32, 64};
    if (pcie.speed_gts && std::none_of(std::begin(kSpeeds), std::end(kSpeeds), [&](double s) {
          return std::fabs(s - *pcie.speed_gts) < 1e-9;
        })) {
      Add(kPlanValueRange, "pcie/speed_gts",
          "pcie.speed_gts of " + label_ + " is " + FormatDouble(*pcie.speed_gts) +
              "; PCIe runs at 2.5, 5, 8, 16, 32 or 64 GT/s",
          "2.5, 5, 8, 16, 32 or 64", FormatDouble(*pcie.speed_gts),
          "set pcie.speed_gts to the slot's generation speed, e.g. 32 for Gen5");
    }
    static const std::int64_t kWidths[] = {1, 2, 4, 8, 12, 16, 32};
    if (pcie.width &&
        std::find(std::begin(kWidths), std::end(kWidths), *pcie.width) == std::end(kWidths)) {
      Add(kPlanValueRange, "pcie/width",
          "pcie.width of " + label_ + " is " + std::to_string(*pcie.width) +
              "; PCIe links are x1, x2, x4, x8, x12, x16 or x32",
          "1, 2, 4, 8, 12, 16 or 32", std::to_string(*pcie.width),
          "set pcie.width to the lane count, e.g. 16");
    }
  }

  void Bounds(std::string_view quantity, const std::optional<double>& min,
              const std::optional<double>& max) {
    if (!min || !max || *min <= *max) return;
    std::string qmin = std::string(quantity) + "_min", qmax = std::string(quantity) + "_max";
    Add(kPlanValueRange, "optics/" + qmin,
        "optics." + qmin + " of " + label_ + " (" + FormatDouble(*min) + ") is above optics." +
            qmax + " (" + FormatDouble(*max) + "), so every module would fail",
        qmin + " <= " + qmax, FormatDouble(*min) + " > " + FormatDouble(*max),
        "swap the two limits");
  }

  void Optics(const OpticsLimits& o) {
    Bounds("temperature_celsius", o.temperature_celsius_min, o.temperature_celsius_max);
    Bounds("voltage_volts", o.voltage_volts_min, o.voltage_volts_max);
    Bounds("tx_bias_milliamperes", o.tx_bias_milliamperes_min, o.tx_bias_milliamperes_max);
    Bounds("tx_power_dbm", o.tx_power_dbm_min, o.tx_power_dbm_max);
    Bounds("rx_power_dbm", o.rx_power_dbm_min, o.rx_power_dbm_max);
  }

  void Fec(const FecSettings& f) {
    if (f.max_pre_fec_ber && !(*f.max_pre_fec_ber > 0 && *f.max_pre_fec_ber < 1)) {
      Add(kPlanValueRange, "fec/max_pre_fec_ber",
          "fec.max_pre_fec_ber of " + label_ + " is " + FormatDouble(*f.max_pre_fec_ber) +
              "; a bit error ratio is above 0 and below 1",
          "a ratio in (0, 1)", FormatDouble(*f.max_pre_fec_ber),
          "set fec.max_pre_fec_ber to the FEC's limit, e.g. 2.4e-4 for RS(544,514)");
    }
    if (f.max_uncorrectable_blocks && *f.max_uncorrectable_blocks < 0) {
      Add(kPlanValueRange, "fec/max_uncorrectable_blocks",
          "fec.max_uncorrectable_blocks of " + label_ + " is " +
              std::to_string(*f.max_uncorrectable_blocks) + "; a count is 0 or more",
          "0 or more", std::to_string(*f.max_uncorrectable_blocks),
          "set fec.max_uncorrectable_blocks to 0");
    }
  }

  void Mtu() {
    if (!p_.roce_mtu) return;
    const std::int64_t roce = *p_.roce_mtu;
    if (!IsRdmaMtu(roce)) {
      Add(kPlanRoceMtuInvalid, "roce_mtu",
          "roce_mtu of " + label_ + " is " + std::to_string(roce) +
              "; RDMA MTUs are 256, 512, 1024, 2048 and 4096 bytes",
          "256, 512, 1024, 2048 or 4096", std::to_string(roce),
          "set roce_mtu to 4096 (with a netdev MTU of at least 4192)");
      return;
    }
    if (!p_.netdev_mtu || *p_.netdev_mtu - kRoceHeaderBytes >= roce) return;
    const std::int64_t needed = roce + kRoceHeaderBytes;
    const std::int64_t active = ActiveRoceMtu(*p_.netdev_mtu);
    std::string consequence = active == 0 ? "RoCE could not run at all"
                                          : "the port would run RoCE MTU " + std::to_string(active);
    Add(kPlanRoceMtuExceedsNetdevMtu, "roce_mtu",
        "roce_mtu " + std::to_string(roce) + " of " + label_ + " needs a netdev MTU of at least " +
            std::to_string(needed) + " (" + std::to_string(kRoceHeaderBytes) +
            " bytes of RoCEv2 headers), but netdev_mtu is " + std::to_string(*p_.netdev_mtu) +
            ": " + consequence,
        "netdev_mtu >= " + std::to_string(needed), "netdev_mtu " + std::to_string(*p_.netdev_mtu),
        "raise netdev_mtu to 9000 (or at least " + std::to_string(needed) + ")");
  }

  void Lossless() {
    if (!p_.pfc_priorities || p_.pfc_priorities->empty()) return;  // [] plans lossy RoCE
    const auto& pfc = *p_.pfc_priorities;
    if (p_.roce_priority && !Contains(pfc, *p_.roce_priority)) {
      std::string prio = std::to_string(*p_.roce_priority);
      std::string dscp = p_.roce_dscp ? " (DSCP " + std::to_string(*p_.roce_dscp) + ")" : "";
      Add(kPlanRocePriorityNotLossless, "roce_priority",
          "RoCE traffic" + dscp + " of " + label_ + " goes to priority " + prio +
              ", which has no PFC (pfc_priorities " + List(pfc) +
              "), so RoCE drops packets under congestion",
          "roce_priority in " + List(pfc), prio,
          "set roce_priority to " + std::to_string(pfc.front()) + " or add " + prio +
              " to pfc_priorities");
    }
    EcnOutsideLossless("np", p_.ecn.np_priorities, pfc);
    EcnOutsideLossless("rp", p_.ecn.rp_priorities, pfc);
  }

  void EcnOutsideLossless(std::string_view point,
                          const std::optional<std::vector<std::int64_t>>& ecn,
                          const std::vector<std::int64_t>& pfc) {
    std::string key = "ecn." + std::string(point) + "_priorities";
    if (ecn) {
      for (std::size_t i = 0; i < ecn->size(); ++i) {
        std::int64_t v = (*ecn)[i];
        if (v < 0 || v > 7 || Contains(pfc, v)) continue;  // out of range: reported already
        Add(kPlanEcnNotLossless,
            "ecn/" + std::string(point) + "_priorities/" + std::to_string(i),
            key + " of " + label_ + " enables ECN on priority " + std::to_string(v) +
                ", which is not lossless (pfc_priorities " + List(pfc) + ")",
            "priorities in " + List(pfc), std::to_string(v),
            "remove " + std::to_string(v) + " from " + key + " or add it to pfc_priorities");
      }
    }
    if (ecn && p_.roce_priority && !Contains(*ecn, *p_.roce_priority)) {
      std::string prio = std::to_string(*p_.roce_priority);
      Add(kPlanEcnMissingRocePriority, "ecn/" + std::string(point) + "_priorities",
          key + " of " + label_ + " does not include the RoCE priority " + prio +
              ", so DCQCN does not " +
              (point == "np" ? "send congestion notifications for" : "slow down") + " RoCE traffic",
          "priority " + prio + " in " + key, List(*ecn), "add " + prio + " to " + key);
    }
  }

  void Cnp() {
    if (p_.cnp_priority && p_.pfc_priorities && Contains(*p_.pfc_priorities, *p_.cnp_priority)) {
      std::string prio = std::to_string(*p_.cnp_priority);
      Add(kPlanCnpOnLossless, "cnp_priority",
          "CNPs of " + label_ + " go to priority " + prio +
              ", a lossless priority, so congestion notifications wait behind the paused traffic "
              "they should slow down",
          "cnp_priority outside " + List(*p_.pfc_priorities), prio,
          "set cnp_priority to a priority without PFC, e.g. 6");
    }
    if (p_.cnp_dscp && p_.roce_dscp && *p_.cnp_dscp == *p_.roce_dscp) {
      std::string dscp = std::to_string(*p_.cnp_dscp);
      Add(kPlanCnpDscpEqualsRoceDscp, "cnp_dscp",
          "CNPs of " + label_ + " use DSCP " + dscp +
              ", the RoCE data DSCP, so switches cannot queue them apart from the data",
          "cnp_dscp different from roce_dscp " + dscp, dscp,
          "set cnp_dscp to its own value, e.g. 48");
    }
    if (!p_.dcqcn) return;
    const auto& np = p_.dcqcn->np;
    auto Mismatch = [&](std::string_view param, const std::optional<std::int64_t>& profile_value,
                        std::string_view profile_key) {
      auto it = np.find(std::string(param));
      if (it == np.end() || !profile_value || it->second == *profile_value) return;
      Add(kPlanDcqcnCnpMismatch, "dcqcn/np/" + std::string(param),
          "dcqcn.np." + std::string(param) + " of " + label_ + " is " + std::to_string(it->second) +
              " but " + std::string(profile_key) + " is " + std::to_string(*profile_value) +
              "; the NIC marks CNPs with the dcqcn.np value",
          std::to_string(*profile_value), std::to_string(it->second),
          "make dcqcn.np." + std::string(param) + " equal to " + std::string(profile_key));
    };
    Mismatch("cnp_dscp", p_.cnp_dscp, "cnp_dscp");
    Mismatch("cnp_802p_prio", p_.cnp_priority, "cnp_priority");
  }

  const Profile& p_;
  FindingSink& sink_;
  std::string pointer_;
  std::string label_;
};

}  // namespace

void CheckProfiles(const Plan& plan, FindingSink& sink) {
  for (const auto& [name, profile] : plan.profiles) ProfileChecker(profile, sink).Run();
}

}  // namespace rocewatch::lint::plan::internal
