#include "exporter/collectors/fec/source.h"

#include <set>
#include <string>

#include "exporter/collectors/kernel_reader.h"
#include "exporter/netlink/ethtool_fec.h"

namespace rocewatch::collectors {
namespace {

using Outcome = KernelReader::Outcome;

std::optional<FecCounterSnapshot> Served(const std::optional<ethtool_nl::FecCounter>& counter) {
  if (!counter) return std::nullopt;
  FecCounterSnapshot out;
  out.total = static_cast<double>(counter->total);
  for (std::uint64_t lane : counter->lanes) out.lanes.push_back(static_cast<double>(lane));
  return out;
}

// ethtool netlink FEC_GET with statistics, per netdev: the configured and active encoding,
// corrected and uncorrectable blocks and corrected bits (total and per lane where the driver
// counts them) and the FEC histogram (kernels from 6.18). A driver without FEC (veth, IPoIB)
// or a kernel without the ethtool family answers EOPNOTSUPP: that netdev has no FEC series,
// the collector still succeeds, and it is not asked again until the inventory changes (a
// netdev appearing or leaving, a driver reload). An answer that does not decode fails that
// netdev's FEC values only (success 0, the error names the netdev); the others are served.
class FecSource final : public Source {
 public:
  explicit FecSource(const SourceEnv& env) : kernel_(*env.kernel), sysfs_(*env.sysfs) {}

  void Prepare(const Inventory&) override { without_fec_.clear(); }

  void Collect(const Inventory& inventory, NodeSnapshot& out, SourceStatus& status) override {
    for (const auto& ref : inventory.netdevs) {
      if (without_fec_.count(ref.name) != 0) continue;
      const std::string subject = "netdev " + ref.name;
      const kernel::Answer answer = kernel_.Ask(kernel::call::Fec{ref.name});
      Outcome o = reader_.Check(answer, kCall, subject, status);
      std::optional<ethtool_nl::Fec> fec;
      if (o == Outcome::kOk) {
        auto decoded = ethtool_nl::DecodeFecReply(answer.bytes);
        if (decoded) {
          fec = std::move(*decoded);
        } else {
          o = reader_.CheckDecoded(decoded.error(), kCall, subject, status);
        }
      }
      if (o == Outcome::kUnsupported) without_fec_.insert(ref.name);
      if (o == Outcome::kGone) reader_.NetdevGone(sysfs_, ref, kCall, status);
      if (fec) out.fec.push_back(ToSnapshot(ref.name, *fec));
    }
    reader_.Finish(status);
  }

 private:
  static constexpr std::string_view kCall = "ethtool netlink FEC_GET";

  static FecSnapshot ToSnapshot(const std::string& netdev, const ethtool_nl::Fec& fec) {
    FecSnapshot snap;
    snap.netdev = netdev;
    snap.configured = fec.configured;
    snap.auto_mode = fec.auto_mode;
    snap.active = fec.active;
    snap.corrected_blocks = Served(fec.corrected_blocks);
    snap.uncorrectable_blocks = Served(fec.uncorrectable_blocks);
    snap.corrected_bits = Served(fec.corrected_bits);
    for (const auto& bin : fec.histogram) {
      snap.histogram.push_back({bin.low, bin.high, static_cast<double>(bin.codewords)});
    }
    return snap;
  }

  kernel::KernelAnswers& kernel_;
  const fs::Tree& sysfs_;  // tells a vanished netdev from a driver's ENODEV
  KernelReader reader_;
  std::set<std::string> without_fec_;  // answered EOPNOTSUPP since the inventory was built
};

}  // namespace

Result<std::unique_ptr<Source>> MakeFecSource(const SourceEnv& env) {
  if (env.kernel == nullptr) return Error{"collector fec: no kernel answers to read"};
  return std::unique_ptr<Source>(std::make_unique<FecSource>(env));
}

}  // namespace rocewatch::collectors
