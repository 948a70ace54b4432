#include "exporter/collectors/dcb/source.h"

#include <cerrno>
#include <algorithm>
#include <cstdint>
#include <vector>

#include "exporter/collectors/detail_options.h"
#include "exporter/collectors/kernel_reader.h"
#include "exporter/netlink/dcbnl.h"

namespace rocewatch::collectors {
namespace {

using Outcome = KernelReader::Outcome;

// dcbnl DCB_CMD_IEEE_GET per netdev (plus DCB_CMD_GDCBX when the IEEE reply has no
// DCB_ATTR_DCBX): the QoS settings as the kernel holds them. A netdev without DCB
// (veth, IPoIB, a NIC whose driver has no dcbnl_ops) answers EOPNOTSUPP: it is served
// as supported=false only.
// The entries of an APP table that repeat an earlier one (same selector, protocol and
// priority): one series each, the first kept. Sorted keys instead of a set: a scrape decodes
// every netdev's table, and a set would allocate a node per entry.
std::vector<bool> RepeatedAppEntries(const std::vector<dcbnl::AppEntry>& table) {
  std::vector<std::uint64_t> keys;
  keys.reserve(table.size());
  for (std::size_t i = 0; i < table.size(); ++i) {
    const std::uint64_t key = (std::uint64_t{table[i].selector} << 24) | (std::uint64_t{table[i].protocol} << 8) |
                              table[i].priority;
    keys.push_back((key << 32) | i);
  }
  std::sort(keys.begin(), keys.end());
  std::vector<bool> repeat(table.size(), false);
  for (std::size_t j = 1; j < keys.size(); ++j)
    if ((keys[j] >> 32) == (keys[j - 1] >> 32)) repeat[keys[j] & 0xffffffffu] = true;
  return repeat;
}

class DcbSource final : public Source {
 public:
  DcbSource(const SourceEnv& env, bool full_tables, std::vector<std::uint32_t> dscps)
      : kernel_(*env.kernel), sysfs_(*env.sysfs), full_tables_(full_tables), dscps_(std::move(dscps)) {}

  void Prepare(const Inventory&) override {}

  void Collect(const Inventory& inventory, NodeSnapshot& out, SourceStatus& status) override {
    for (const auto& ref : inventory.netdevs) {
      DcbSnapshot snap;
      snap.netdev = ref.name;
      snap.full_tables = full_tables_;
      snap.exported_dscps = dscps_;
      if (ref.is_vf) {
        // A VF's DCB is its PF's (mlx5 gives a VF no dcbnl_ops: EOPNOTSUPP; other drivers echo
        // the PF's): not asked, served as roce_dcb_supported 0 only, not a failure
        // (docs/metrics.md#pci-functions).
        out.dcb.push_back(std::move(snap));
        continue;
      }
      switch (CollectOne(ref.name, snap, status)) {
        case Verdict::kServe:
          out.dcb.push_back(std::move(snap));
          break;
        case Verdict::kGone:
          if (!reader_.NetdevGone(sysfs_, ref, "dcbnl", status)) out.dcb.push_back(std::move(snap));
          break;
        case Verdict::kSkip:
          break;
      }
    }
    reader_.Finish(status);
  }

 private:
  enum class Verdict { kServe, kGone, kSkip };

  Verdict CollectOne(const std::string& netdev, DcbSnapshot& snap, SourceStatus& status) {
    const std::string subject = "netdev " + netdev;
    kernel::Answer a = kernel_.Ask(kernel::call::DcbIeee{netdev});
    Outcome o = reader_.Check(a, "dcbnl IEEE_GET", subject, status);
    if (o == Outcome::kGone) return Verdict::kGone;
    if (o == Outcome::kFailed) return Verdict::kSkip;
    if (o == Outcome::kUnsupported) {
      // ENODATA (not in a capture) says nothing; EOPNOTSUPP says "no DCB".
      return a.error == ENODATA ? Verdict::kSkip : Verdict::kServe;
    }
    auto state = dcbnl::DecodeIeeeReply(a.bytes);
    if (!state) {
      o = reader_.CheckDecoded(state.error(), "dcbnl IEEE_GET", subject, status);
      return o == Outcome::kGone ? Verdict::kGone : Verdict::kSkip;
    }
    if (!state->supported) return Verdict::kServe;  // EOPNOTSUPP in the reply
    Fill(*state, snap);
    if (!state->dcbx) {
      // Drivers put DCB_ATTR_DCBX in the IEEE reply when they have getdcbx; ask on its own
      // only when it is missing (older kernels, or a driver without it answers EOPNOTSUPP).
      a = kernel_.Ask(kernel::call::DcbDcbx{netdev});
      o = reader_.Check(a, "dcbnl GDCBX", subject, status);
      if (o == Outcome::kGone) return Verdict::kGone;
      if (o == Outcome::kOk) {
        auto dcbx = dcbnl::DecodeDcbxReply(a.bytes);
        if (!dcbx) {
          o = reader_.CheckDecoded(dcbx.error(), "dcbnl GDCBX", subject, status);
          if (o == Outcome::kGone) return Verdict::kGone;
        } else if (dcbx->supported) {
          for (auto name : dcbx->mode.Names()) snap.dcbx_modes.emplace_back(name);
        }
      }
    }
    return Verdict::kServe;
  }

  static void Fill(const dcbnl::DcbState& state, DcbSnapshot& snap) {
    snap.supported = true;
    if (state.pfc) {
      std::array<bool, 8> enabled{};
      std::array<double, 8> tx{}, rx{};
      for (int p = 0; p < dcbnl::kPriorities; ++p) {
        enabled[p] = state.pfc->enabled[p];
        tx[p] = static_cast<double>(state.pfc->tx_pause_frames[p]);
        rx[p] = static_cast<double>(state.pfc->rx_pause_frames[p]);
      }
      snap.pfc_enabled = enabled;
      snap.pfc_capability = state.pfc->capability;
      snap.pfc_tx_pause_frames = tx;
      snap.pfc_rx_pause_frames = rx;
    }
    if (state.ets) {
      std::array<std::uint32_t, 8> prio_tc{};
      std::array<double, 8> bw{};
      std::array<std::string_view, 8> tsa{};
      for (int i = 0; i < 8; ++i) {
        prio_tc[i] = state.ets->priority_tc[i];
        bw[i] = state.ets->tc_tx_bandwidth_percent[i];
        tsa[i] = dcbnl::TsaName(state.ets->tc_tsa[i]);
      }
      snap.priority_tc = prio_tc;
      snap.tc_tx_bandwidth_percent = bw;
      snap.tc_tsa = tsa;
    }
    if (state.tc_max_rate_bytes_per_second) {
      std::array<double, 8> rate{};
      for (int tc = 0; tc < 8; ++tc) {
        rate[tc] = static_cast<double>((*state.tc_max_rate_bytes_per_second)[tc]);
      }
      snap.tc_max_rate_bytes_per_second = rate;
    }
    snap.trust = dcbnl::TrustMode(state);
    const std::vector<bool> repeat = RepeatedAppEntries(state.app_table);
    snap.app_table.reserve(state.app_table.size());
    for (std::size_t i = 0; i < state.app_table.size(); ++i) {
      const auto& app = state.app_table[i];
      if (repeat[i]) continue;
      snap.app_table.push_back({dcbnl::SelectorName(app.selector), app.protocol, app.priority});
    }
    for (const auto& d : dcbnl::DscpToPriority(state))
      snap.dscp_priority.push_back({d.dscp, d.priority, d.ambiguous});
    if (state.buffer) {
      std::array<std::uint32_t, 8> prio_buffer{};
      std::array<double, 8> size{};
      for (int i = 0; i < 8; ++i) {
        prio_buffer[i] = state.buffer->priority_buffer[i];
        size[i] = static_cast<double>(state.buffer->buffer_size_bytes[i]);
      }
      snap.priority_buffer = prio_buffer;
      snap.buffer_size_bytes = size;
      snap.buffer_total_bytes = static_cast<double>(state.buffer->total_size_bytes);
    }
    if (state.dcbx) {
      for (auto name : state.dcbx->Names()) snap.dcbx_modes.emplace_back(name);
    }
  }

  kernel::KernelAnswers& kernel_;
  const fs::Tree& sysfs_;  // tells a vanished netdev from a driver's ENODEV
  KernelReader reader_;
  bool full_tables_;
  std::vector<std::uint32_t> dscps_;
};

}  // namespace

Result<std::unique_ptr<Source>> MakeDcbSource(const SourceEnv& env) {
  if (env.kernel == nullptr) return Error{"collector dcb: no kernel answers to read"};
  auto full = BoolOption(env, "dcb", "full-tables", false);
  if (!full) return full.error();
  auto dscps = DscpListOption(env, "dcb", "dscps");
  if (!dscps) return dscps.error();
  return std::unique_ptr<Source>(std::make_unique<DcbSource>(env, *full, std::move(*dscps)));
}

}  // namespace rocewatch::collectors
