// Plan checks on RoCE profiles: ranges and the contradictions that break lossless RoCE.

#include <algorithm>
#include <cmath>

#include "lint/i18n/catalogue.h"
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

using i18n::Phrase;
using i18n::StoredArgs;

class ProfileChecker {
 public:
  ProfileChecker(const Profile& profile, FindingSink& sink)
      : p_(profile),
        sink_(sink),
        pointer_(ProfilePointer(profile.name)),
        label_("profile " + Quote(profile.name)) {
    i18n::AddMessageArg(profile_, "profile", "plan.label.profile", {{"name", Quote(profile.name)}});
  }

  void Run() {
    Ranges();
    Mtu();
    Lossless();
    Cnp();
  }

 private:
  // {profile} and `more`, for a catalogue message.
  StoredArgs Args(StoredArgs more) const {
    StoredArgs args = profile_;
    args.insert(args.end(), more.begin(), more.end());
    return args;
  }

  void Add(const lint::CheckSpec& id, std::string_view key, Phrase message, Phrase expected,
           Phrase found, Phrase fix) {
    sink_.Add(
        MakeFinding(id, std::move(message), std::move(expected), std::move(found), std::move(fix)),
        pointer_ + "/" + std::string(key));
  }

  void Priority(std::string_view key, std::string_view name, std::int64_t v) {
    if (v >= 0 && v <= 7) return;
    Add(kPlanPriorityRange, key,
        Phrase::Of("plan.priority_range.message", Args({{"name", std::string(name)}, {"value", std::to_string(v)}})),
        "0-7", std::to_string(v), Phrase::Of("plan.priority_range.fix", {{"name", std::string(name)}}));
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
        Phrase::Of("plan.dscp_range.message", Args({{"name", std::string(name)}, {"value", std::to_string(v)}})),
        "0-63", std::to_string(v), Phrase::Of("plan.dscp_range.fix", {{"name", std::string(name)}}));
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
          Phrase::Of("plan.link_speed.message", Args({{"value", std::to_string(*p_.link_speed_gbps)}})),
          Phrase::Of("plan.link_speed.expected", {}), std::to_string(*p_.link_speed_gbps),
          Phrase::Of("plan.link_speed.fix", {}));
    }
    if (p_.netdev_mtu && (*p_.netdev_mtu < 68 || *p_.netdev_mtu > 65535)) {
      Add(kPlanValueRange, "netdev_mtu",
          Phrase::Of("plan.netdev_mtu_range.message", Args({{"value", std::to_string(*p_.netdev_mtu)}})),
          "68-65535", std::to_string(*p_.netdev_mtu), Phrase::Of("plan.netdev_mtu_range.fix", {}));
    }
    if (p_.pcie) Pcie(*p_.pcie);
    if (p_.optics) Optics(*p_.optics);
    Verify(p_.verify);
  }

  void VerifyRange(std::string_view key, const std::optional<double>& v, double lo, double hi,
                   bool lo_open, i18n::MessageId meaning) {
    if (!v || ((lo_open ? *v > lo : *v >= lo) && *v <= hi)) return;
    StoredArgs args = Args({{"key", std::string(key)}, {"value", FormatDouble(*v)}});
    const StoredArgs bounds = {{"lo", FormatDouble(lo)}, {"hi", FormatDouble(hi)}};
    if (lo_open)
      i18n::AddMessageArg(args, "range", "plan.range.above", bounds);
    else
      i18n::AddMessageArg(args, "range", "plan.range.closed", bounds);
    i18n::AddMessageArg(args, "meaning", meaning, {});
    Add(kPlanValueRange, "verify/" + std::string(key), Phrase::Of("plan.verify_range.message", args),
        lo_open ? Phrase::Of("plan.range.above", bounds) : Phrase::Of("plan.range.closed", bounds),
        FormatDouble(*v), Phrase::Of("plan.verify_range.fix", args));
  }

  void Verify(const VerifySettings& s) {
    VerifyRange("min_bandwidth_fraction", s.min_bandwidth_fraction, 0, 1, true,
                "plan.meaning.bandwidth_fraction");
    VerifyRange("max_latency_us", s.max_latency_us, 0, 1e6, true, "plan.meaning.microseconds");
    VerifyRange("max_pause_duration_fraction", s.max_pause_duration_fraction, 0, 1, false,
                "plan.meaning.test_fraction");
    VerifyRange("max_retransmissions_per_second", s.max_retransmissions_per_second, 0, 1e12, false,
                "plan.meaning.rate");
    auto as_double = [](const std::optional<std::int64_t>& i) {
      return i ? std::optional<double>(static_cast<double>(*i)) : std::nullopt;
    };
    VerifyRange("max_discards", as_double(s.max_discards), 0, 1e15, false, "plan.meaning.packet_count");
    VerifyRange("queue_pairs", as_double(s.queue_pairs), 1, 1024, false,
                "plan.meaning.queue_pairs");
    VerifyRange("message_bytes", as_double(s.message_bytes), 1, 1 << 30, false,
                "plan.meaning.message_bytes");
  }

  void Pcie(const PcieSettings& pcie) {
    static const double kSpeeds[] = {2.5, 5, 8, 16, 32, 64};
    if (pcie.speed_gts && std::none_of(std::begin(kSpeeds), std::end(kSpeeds), [&](double s) {
          return std::fabs(s - *pcie.speed_gts) < 1e-9;
        })) {
      Add(kPlanValueRange, "pcie/speed_gts",
          Phrase::Of("plan.pcie_speed.message", Args({{"value", FormatDouble(*pcie.speed_gts)}})),
          Phrase::Of("plan.pcie_speed.expected", {}), FormatDouble(*pcie.speed_gts),
          Phrase::Of("plan.pcie_speed.fix", {}));
    }
    static const std::int64_t kWidths[] = {1, 2, 4, 8, 12, 16, 32};
    if (pcie.width &&
        std::find(std::begin(kWidths), std::end(kWidths), *pcie.width) == std::end(kWidths)) {
      Add(kPlanValueRange, "pcie/width",
          Phrase::Of("plan.pcie_width.message", Args({{"value", std::to_string(*pcie.width)}})),
          Phrase::Of("plan.pcie_width.expected", {}), std::to_string(*pcie.width),
          Phrase::Of("plan.pcie_width.fix", {}));
    }
  }

  void Bounds(std::string_view quantity, const std::optional<double>& min,
              const std::optional<double>& max) {
    if (!min || !max || *min <= *max) return;
    std::string qmin = std::string(quantity) + "_min", qmax = std::string(quantity) + "_max";
    Add(kPlanValueRange, "optics/" + qmin,
        Phrase::Of("plan.optics_bounds.message", Args({{"min_key", qmin},
                                                       {"min", FormatDouble(*min)},
                                                       {"max_key", qmax},
                                                       {"max", FormatDouble(*max)}})),
        qmin + " <= " + qmax, FormatDouble(*min) + " > " + FormatDouble(*max),
        Phrase::Of("plan.optics_bounds.fix", {}));
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
          Phrase::Of("plan.fec_ber.message", Args({{"value", FormatDouble(*f.max_pre_fec_ber)}})),
          Phrase::Of("plan.fec_ber.expected", {}), FormatDouble(*f.max_pre_fec_ber),
          Phrase::Of("plan.fec_ber.fix", {}));
    }
    if (f.max_uncorrectable_blocks && *f.max_uncorrectable_blocks < 0) {
      Add(kPlanValueRange, "fec/max_uncorrectable_blocks",
          Phrase::Of("plan.fec_uncorrectable.message", Args({{"value", std::to_string(*f.max_uncorrectable_blocks)}})),
          Phrase::Of("plan.fec_uncorrectable.expected", {}), std::to_string(*f.max_uncorrectable_blocks),
          Phrase::Of("plan.fec_uncorrectable.fix", {}));
    }
  }

  void Mtu() {
    if (!p_.roce_mtu) return;
    const std::int64_t roce = *p_.roce_mtu;
    if (!IsRdmaMtu(roce)) {
      Add(kPlanRoceMtuInvalid, "roce_mtu",
          Phrase::Of("plan.roce_mtu_invalid.message", Args({{"value", std::to_string(roce)}})),
          Phrase::Of("plan.roce_mtu_invalid.expected", {}), std::to_string(roce),
          Phrase::Of("plan.roce_mtu_invalid.fix", {}));
      return;
    }
    if (!p_.netdev_mtu || *p_.netdev_mtu - kRoceHeaderBytes >= roce) return;
    const std::int64_t needed = roce + kRoceHeaderBytes;
    const std::int64_t active = ActiveRoceMtu(*p_.netdev_mtu);
    StoredArgs args = Args({{"roce", std::to_string(roce)},
                            {"needed", std::to_string(needed)},
                            {"headers", std::to_string(kRoceHeaderBytes)},
                            {"netdev", std::to_string(*p_.netdev_mtu)},
                            {"active", std::to_string(active)}});
    Add(kPlanRoceMtuExceedsNetdevMtu, "roce_mtu",
        active == 0 ? Phrase::Of("plan.roce_mtu_exceeds.message_no_roce", args)
                    : Phrase::Of("plan.roce_mtu_exceeds.message", args),
        "netdev_mtu >= " + std::to_string(needed), "netdev_mtu " + std::to_string(*p_.netdev_mtu),
        Phrase::Of("plan.roce_mtu_exceeds.fix", args));
  }

  void Lossless() {
    if (!p_.pfc_priorities || p_.pfc_priorities->empty()) return;  // [] plans lossy RoCE
    const auto& pfc = *p_.pfc_priorities;
    if (p_.roce_priority && !Contains(pfc, *p_.roce_priority)) {
      std::string prio = std::to_string(*p_.roce_priority);
      StoredArgs args = Args({{"priority", prio}, {"pfc", List(pfc)}, {"first", std::to_string(pfc.front())}});
      if (p_.roce_dscp) args.emplace_back("dscp", std::to_string(*p_.roce_dscp));
      Add(kPlanRocePriorityNotLossless, "roce_priority",
          p_.roce_dscp ? Phrase::Of("plan.roce_not_lossless.message_dscp", args)
                       : Phrase::Of("plan.roce_not_lossless.message", args),
          "roce_priority in " + List(pfc), prio, Phrase::Of("plan.roce_not_lossless.fix", args));
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
            Phrase::Of("plan.ecn_not_lossless.message",
                       Args({{"key", key}, {"priority", std::to_string(v)}, {"pfc", List(pfc)}})),
            Phrase::Of("plan.ecn_not_lossless.expected", {{"pfc", List(pfc)}}), std::to_string(v),
            Phrase::Of("plan.ecn_not_lossless.fix", {{"key", key}, {"priority", std::to_string(v)}}));
      }
    }
    if (ecn && p_.roce_priority && !Contains(*ecn, *p_.roce_priority)) {
      std::string prio = std::to_string(*p_.roce_priority);
      Add(kPlanEcnMissingRocePriority, "ecn/" + std::string(point) + "_priorities",
          point == "np" ? Phrase::Of("plan.ecn_missing_roce.message_np", Args({{"key", key}, {"priority", prio}}))
                        : Phrase::Of("plan.ecn_missing_roce.message_rp", Args({{"key", key}, {"priority", prio}})),
          Phrase::Of("plan.ecn_missing_roce.expected", {{"key", key}, {"priority", prio}}), List(*ecn),
          Phrase::Of("plan.ecn_missing_roce.fix", {{"key", key}, {"priority", prio}}));
    }
  }

  void Cnp() {
    if (p_.cnp_priority && p_.pfc_priorities && Contains(*p_.pfc_priorities, *p_.cnp_priority)) {
      std::string prio = std::to_string(*p_.cnp_priority);
      Add(kPlanCnpOnLossless, "cnp_priority",
          Phrase::Of("plan.cnp_on_lossless.message", Args({{"priority", prio}})),
          "cnp_priority outside " + List(*p_.pfc_priorities), prio,
          Phrase::Of("plan.cnp_on_lossless.fix", {}));
    }
    if (p_.cnp_dscp && p_.roce_dscp && *p_.cnp_dscp == *p_.roce_dscp) {
      std::string dscp = std::to_string(*p_.cnp_dscp);
      Add(kPlanCnpDscpEqualsRoceDscp, "cnp_dscp",
          Phrase::Of("plan.cnp_dscp_equal.message", Args({{"dscp", dscp}})),
          Phrase::Of("plan.cnp_dscp_equal.expected", {{"dscp", dscp}}), dscp,
          Phrase::Of("plan.cnp_dscp_equal.fix", {}));
    }
    if (!p_.dcqcn) return;
    const auto& np = p_.dcqcn->np;
    auto Mismatch = [&](std::string_view param, const std::optional<std::int64_t>& profile_value,
                        std::string_view profile_key) {
      auto it = np.find(std::string(param));
      if (it == np.end() || !profile_value || it->second == *profile_value) return;
      Add(kPlanDcqcnCnpMismatch, "dcqcn/np/" + std::string(param),
          Phrase::Of("plan.dcqcn_cnp_mismatch.message",
                     Args({{"param", std::string(param)},
                           {"value", std::to_string(it->second)},
                           {"key", std::string(profile_key)},
                           {"profile_value", std::to_string(*profile_value)}})),
          std::to_string(*profile_value), std::to_string(it->second),
          Phrase::Of("plan.dcqcn_cnp_mismatch.fix", {{"param", std::string(param)}, {"key", std::string(profile_key)}}));
    };
    Mismatch("cnp_dscp", p_.cnp_dscp, "cnp_dscp");
    Mismatch("cnp_802p_prio", p_.cnp_priority, "cnp_priority");
  }

  const Profile& p_;
  FindingSink& sink_;
  std::string pointer_;
  std::string label_;
  StoredArgs profile_;  // {profile}: "profile "roce-400g"" in every language
};

}  // namespace

void CheckProfiles(const Plan& plan, FindingSink& sink) {
  for (const auto& [name, profile] : plan.profiles) ProfileChecker(profile, sink).Run();
}

}  // namespace rocewatch::lint::plan::internal
