// The parsers of RDMA, netdev and PCI sysfs attribute text (exporter/parse/sysfs_values.h):
// every parser sees every input, and what they accept is in range.

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "fuzz_check.h"
#include "parse/sysfs_values.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rocewatch;
  const auto text = fuzz::Text(data, size);

  if (auto state = parse::ParseNumberedState(text); state.ok()) {
    FUZZ_CHECK(state->name.size() < size);
  }
  // Rates and speeds become gauges in bytes or transfers per second: finite, not negative.
  if (auto rate = parse::ParseRateBytesPerSecond(text); rate.ok()) {
    FUZZ_CHECK(std::isfinite(*rate) && *rate >= 0);
  }
  (void)parse::ParseCounterValue(text);
  if (auto speed = parse::ParsePcieSpeed(text); speed.ok() && speed->has_value()) {
    FUZZ_CHECK(std::isfinite(**speed) && **speed > 0);
  }
  if (auto width = parse::ParsePcieWidth(text); width.ok() && width->has_value()) {
    FUZZ_CHECK(**width >= 1 && **width <= 254);
  }
  if (auto gid = parse::ParseGid(text); gid.ok()) {
    // The canonical spelling parses back to the same GID.
    const std::string formatted = parse::FormatGid(*gid);
    FUZZ_CHECK(formatted.size() == 39);
    auto again = parse::ParseGid(formatted);
    FUZZ_CHECK(again.ok() && *again == *gid);
    FUZZ_CHECK(!parse::GidToIp(*gid).empty());
    (void)parse::IsZeroGid(*gid);
  }
  FUZZ_CHECK(parse::ParseGidType(text).size() <= size);
  if (auto lid = parse::ParseLid(text); lid.ok()) FUZZ_CHECK(*lid <= 0xffff);
  if (auto mode = parse::ParseRoceMode(text); mode.ok()) {
    FUZZ_CHECK(*mode == "RoCE v2" || *mode == "IB/RoCE v1");
  }
  if (auto oper = parse::ParseOperState(text); oper.ok()) FUZZ_CHECK(*oper >= 1 && *oper <= 7);
  if (auto speed = parse::ParseNetdevSpeed(text); speed.ok() && speed->has_value()) {
    FUZZ_CHECK(std::isfinite(**speed) && **speed > 0);
  }
  return 0;
}
