// A --switch-config file (SONiC config_db.json, NVUE JSON; lint/switch/switch_config.h):
// ParseSwitchConfig on any bytes either refuses them with an error naming the file, or gives
// ports whose settings stay in their ranges, each found again by its name.

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.h"
#include "lint/switch/switch_config.h"

namespace {

// SONiC maps a DSCP to a traffic class (0-15, its YANG model), NVUE to a switch priority (0-7).
void CheckPort(const rocewatch::lint::switch_config::PortQos& port, int max_class) {
  if (port.pfc_priorities) {
    for (auto p : *port.pfc_priorities) FUZZ_CHECK(p >= 0 && p < 8);
  }
  if (port.ecn_priorities) {
    for (auto p : *port.ecn_priorities) FUZZ_CHECK(p >= 0 && p < 8);
  }
  if (port.dscp_priority) {
    for (auto p : *port.dscp_priority) FUZZ_CHECK(p >= -1 && p <= max_class);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rocewatch::lint::switch_config;
  auto parsed = ParseSwitchConfig(rocewatch::fuzz::Text(data, size), "fuzz.json");
  if (!parsed.ok()) {
    FUZZ_CHECK(parsed.error().message.rfind("fuzz.json", 0) == 0);
    return 0;
  }
  const int max_class = parsed->nos == Nos::kSonic ? 15 : 7;
  for (const auto& port : parsed->ports) {
    CheckPort(port, max_class);
    FUZZ_CHECK(parsed->FindPort(port.name) != nullptr);
  }
  if (parsed->every_port) CheckPort(*parsed->every_port, max_class);
  return 0;
}
