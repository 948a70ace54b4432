// ethtool generic netlink replies: LINKSTATE_GET, PAUSE_GET (with statistics),
// MODULE_EEPROM_GET, and the controller's GETFAMILY answer. Every decoder sees every input.

#include <cstddef>
#include <cstdint>

#include "exporter/netlink/ethtool_genl.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rocewatch;
  const auto reply = fuzz::Bytes(data, size);

  auto link = ethtool_nl::DecodeLinkStateReply(reply);
  if (link.ok()) {
    if (link->ext_state) {
      FUZZ_CHECK(!link->ext_state->name.empty());
      FUZZ_CHECK(link->ext_state->name == ethtool_nl::LinkExtStateName(link->ext_state->value));
    }
    if (link->ext_substate) FUZZ_CHECK(!link->ext_substate->name.empty());
  } else {
    FUZZ_CHECK(link.error().code >= 0);
  }

  auto pause = ethtool_nl::DecodePauseReply(reply);
  if (!pause.ok()) FUZZ_CHECK(pause.error().code >= 0);

  auto eeprom = ethtool_nl::DecodeModuleEepromReply(reply);
  if (eeprom.ok()) {
    // One read is 1-128 bytes (a read may not cross a half page), taken from the reply.
    FUZZ_CHECK(!eeprom->data.empty() && eeprom->data.size() <= 128 && eeprom->data.size() <= size);
  }

  auto family = ethtool_nl::DecodeGetFamilyReply(reply);
  if (family.ok()) FUZZ_CHECK(family->name.find('\0') == std::string::npos);
  return 0;
}
