#include "sources/dcb.h"

namespace rocewatch::sources {
namespace {

// Placeholder until the source is written: reads nothing.
class DcbSource final : public Source {
 public:
  void Prepare(const Inventory&) override {}
  void Collect(const Inventory&, NodeSnapshot&, SourceStatus&) override {}
};

}  // namespace

Result<std::unique_ptr<Source>> MakeDcbSource(const SourceEnv&) {
  return std::unique_ptr<Source>(std::make_unique<DcbSource>());
}

}  // namespace rocewatch::sources
