// Durations as Prometheus writes them ("500ms", "1h30m"), which flags such as
// --web.timeout and --interval take: an accepted duration is finite and not negative.

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "fuzz_check.h"
#include "rocewatch/duration.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto seconds = rocewatch::ParseDuration(rocewatch::fuzz::Text(data, size));
  if (seconds.ok()) FUZZ_CHECK(std::isfinite(*seconds) && *seconds >= 0);
  return 0;
}
