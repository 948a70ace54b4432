// ethtool generic netlink FEC_GET replies: the configured/active encoding bitset, the FEC
// counters (total and per lane) and the FEC histogram bins.

#include <cstddef>
#include <cstdint>

#include "exporter/netlink/ethtool_fec.h"
#include "fuzz_check.h"

namespace {

void CheckCounter(const std::optional<rocewatch::ethtool_nl::FecCounter>& counter) {
  if (counter) FUZZ_CHECK(counter->lanes.size() <= 8);  // ETHTOOL_MAX_LANES
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rocewatch;
  auto fec = ethtool_nl::DecodeFecReply(fuzz::Bytes(data, size));
  if (!fec.ok()) {
    FUZZ_CHECK(fec.error().code >= 0);
    FUZZ_CHECK(!fec.error().message.empty());
    return 0;
  }
  // Every mode is a FEC name or "bit<N>"; one per set bit, so no more than the reply has bits
  // (a compact bitset sets up to eight a byte: regression-more-modes-than-bytes).
  FUZZ_CHECK(fec->configured.size() <= 8 * size);
  for (const auto& mode : fec->configured) {
    FUZZ_CHECK(mode == "off" || mode == "rs" || mode == "baser" || mode == "llrs" ||
               mode.rfind("bit", 0) == 0);
  }
  FUZZ_CHECK(fec->active.empty() || fec->active == "off" || fec->active == "rs" ||
             fec->active == "baser" || fec->active == "llrs" || fec->active.rfind("bit", 0) == 0);
  CheckCounter(fec->corrected_blocks);
  CheckCounter(fec->uncorrectable_blocks);
  CheckCounter(fec->corrected_bits);
  if (!fec->stats) {
    FUZZ_CHECK(!fec->corrected_blocks && !fec->uncorrectable_blocks && !fec->corrected_bits);
    FUZZ_CHECK(fec->histogram.empty());
  }
  FUZZ_CHECK(fec->histogram.size() <= 16);
  for (const auto& bin : fec->histogram) {
    FUZZ_CHECK(bin.low <= bin.high);
    FUZZ_CHECK(bin.lanes.size() <= 8);
  }
  return 0;
}
