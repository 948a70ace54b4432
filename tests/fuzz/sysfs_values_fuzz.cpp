// The parsers of RDMA, netdev and PCI sysfs attribute text (exporter/collectors/sysfs_values.h):
// every parser sees every input, and what they accept is in range.

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "exporter/collectors/sysfs_values.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rocewatch;
  const auto text = fuzz::Text(data, size);

  if (auto state = collectors::ParseNumberedState(text); state.ok()) {
    FUZZ_CHECK(state->name.size() < size);
  }
  // Rates and speeds become gauges in bytes or transfers per second: finite, not negative.
  if (auto rate = collectors::ParseRateBytesPerSecond(text); rate.ok()) {
    FUZZ_CHECK(std::isfinite(*rate) && *rate >= 0);
  }
  (void)collectors::ParseCounterValue(text);
  if (auto speed = collectors::ParsePcieSpeed(text); speed.ok() && speed->has_value()) {
    FUZZ_CHECK(std::isfinite(**speed) && **speed > 0);
  }
  if (auto width = collectors::ParsePcieWidth(text); width.ok() && width->has_value()) {
    FUZZ_CHECK(**width >= 1 && **width <= 254);
  }
  if (auto gid = collectors::ParseGid(text); gid.ok()) {
    // The canonical spelling parses back to the same GID.
    const std::string formatted = collectors::FormatGid(*gid);
    FUZZ_CHECK(formatted.size() == 39);
    auto again = collectors::ParseGid(formatted);
    FUZZ_CHECK(again.ok() && *again == *gid);
    FUZZ_CHECK(!collectors::GidToIp(*gid).empty());
    (void)collectors::IsZeroGid(*gid);
  }
  FUZZ_CHECK(collectors::ParseGidType(text).size() <= size);
  if (auto lid = collectors::ParseLid(text); lid.ok()) FUZZ_CHECK(*lid <= 0xffff);
  if (auto mode = collectors::ParseRoceMode(text); mode.ok()) {
    FUZZ_CHECK(*mode == "RoCE v2" || *mode == "IB/RoCE v1");
  }
  if (auto oper = collectors::ParseOperState(text); oper.ok()) FUZZ_CHECK(*oper >= 1 && *oper <= 7);
  if (auto speed = collectors::ParseNetdevSpeed(text); speed.ok() && speed->has_value()) {
    FUZZ_CHECK(std::isfinite(**speed) && **speed > 0);
  }
  return 0;
}
