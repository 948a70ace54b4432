#include "exporter/collectors/ethtool_netlink/source.h"

#include "exporter/collectors/detail_options.h"
#include "exporter/collectors/kernel_reader.h"
#include "exporter/netlink/ethtool_genl.h"

namespace rocewatch::collectors {
namespace {

using Outcome = KernelReader::Outcome;

// ethtool over generic netlink, per netdev: LINKSTATE_GET (link, the link-down reason
// as ext_state/ext_substate, the link-down count, SQI) and PAUSE_GET with statistics
// (802.3x global pause, which must be off where PFC is used). A kernel without the
// ethtool family, or a driver without the operation (veth has no pause), answers
// EOPNOTSUPP: those values are left out and the collector still succeeds.
class EthtoolNetlinkSource final : public Source {
 public:
  EthtoolNetlinkSource(const SourceEnv& env, bool repeats)
      : kernel_(*env.kernel), sysfs_(*env.sysfs), repeats_(repeats) {}

  void Prepare(const Inventory&) override {}

  void Collect(const Inventory& inventory, NodeSnapshot& out, SourceStatus& status) override {
    for (const auto& ref : inventory.netdevs) {
      LinkStateSnapshot snap;
      snap.netdev = ref.name;
      snap.repeats = repeats_;
      bool served = false;
      if (CollectOne(ref.name, snap, served, status) ||
          !reader_.NetdevGone(sysfs_, ref, "ethtool netlink", status)) {
        if (served) out.link_state.push_back(std::move(snap));
      }
    }
    reader_.Finish(status);
  }

 private:
  // The outcome of one netlink call with its reply decoded; kOk sets `value`.
  template <class T, class Decode>
  Outcome Ask(const kernel::Answer& answer, Decode decode, std::string_view call,
              std::string_view subject, std::optional<T>& value, SourceStatus& status) {
    Outcome o = reader_.Check(answer, call, subject, status);
    if (o != Outcome::kOk) return o;
    auto decoded = decode(answer.bytes);
    if (!decoded) return reader_.CheckDecoded(decoded.error(), call, subject, status);
    value = std::move(*decoded);
    return Outcome::kOk;
  }

  // False when the netdev went away. `served` is set when any value was read.
  bool CollectOne(const std::string& netdev, LinkStateSnapshot& snap, bool& served,
                  SourceStatus& status) {
    const std::string subject = "netdev " + netdev;
    std::optional<ethtool_nl::LinkState> state;
    Outcome o = Ask(kernel_.Ask(kernel::call::LinkState{netdev}), &ethtool_nl::DecodeLinkStateReply,
                    "ethtool netlink LINKSTATE_GET", subject, state, status);
    if (o == Outcome::kGone) return false;
    if (state) {
      served = true;
      snap.link = state->link;
      if (state->ext_state) {
        snap.ext_state = std::string(state->ext_state->name);
        if (state->ext_substate) snap.ext_substate = std::string(state->ext_substate->name);
      }
      if (state->ext_down_count) snap.link_down_events = *state->ext_down_count;
      if (state->sqi) snap.sqi = *state->sqi;
      if (state->sqi_max) snap.sqi_max = *state->sqi_max;
    }

    std::optional<ethtool_nl::Pause> pause;
    o = Ask(kernel_.Ask(kernel::call::Pause{netdev}), &ethtool_nl::DecodePauseReply,
            "ethtool netlink PAUSE_GET", subject, pause, status);
    if (o == Outcome::kGone) return false;
    if (pause) {
      served = true;
      snap.pause_autoneg = pause->autoneg;
      snap.pause_rx = pause->rx;
      snap.pause_tx = pause->tx;
      if (pause->stats) {
        if (pause->stats->rx_pause_frames) {
          snap.pause_rx_frames = static_cast<double>(*pause->stats->rx_pause_frames);
        }
        if (pause->stats->tx_pause_frames) {
          snap.pause_tx_frames = static_cast<double>(*pause->stats->tx_pause_frames);
        }
      }
    }
    return true;
  }

  kernel::KernelAnswers& kernel_;
  const fs::Tree& sysfs_;  // tells a vanished netdev from a driver's ENODEV
  bool repeats_ = false;
  KernelReader reader_;
};

}  // namespace

Result<std::unique_ptr<Source>> MakeEthtoolNetlinkSource(const SourceEnv& env) {
  if (env.kernel == nullptr) return Error{"collector ethtool_netlink: no kernel answers to read"};
  auto repeats = BoolOption(env, "ethtool_netlink", "repeats", false);
  if (!repeats) return repeats.error();
  return std::unique_ptr<Source>(std::make_unique<EthtoolNetlinkSource>(env, *repeats));
}

}  // namespace rocewatch::collectors
