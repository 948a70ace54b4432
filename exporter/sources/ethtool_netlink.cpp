#include "sources/ethtool_netlink.h"

namespace rocewatch::sources {
namespace {

// Placeholder until the source is written: reads nothing.
class EthtoolNetlinkSource final : public Source {
 public:
  void Prepare(const Inventory&) override {}
  void Collect(const Inventory&, NodeSnapshot&, SourceStatus&) override {}
};

}  // namespace

Result<std::unique_ptr<Source>> MakeEthtoolNetlinkSource(const SourceEnv&) {
  return std::unique_ptr<Source>(std::make_unique<EthtoolNetlinkSource>());
}

}  // namespace rocewatch::sources
