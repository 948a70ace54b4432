// The IEEE 802.1Qaz DCBX decoders (lldp/dcbx.h) on any information string: the first byte picks
// the subtype, the rest is the TLV's information string. Checked: each decoder accepts exactly
// the lengths of its layout and keeps every field within its bit width; DecodeDcbx agrees with
// the decoder of the subtype; lldpd's hex text round-trips.

#include <cstddef>
#include <cstdint>
#include <span>

#include "exporter/lldp/dcbx.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace lldp = rocewatch::lldp;
  if (size == 0) return 0;
  const std::uint8_t subtype = data[0];
  const std::span<const std::uint8_t> info(data + 1, size - 1);

  auto pfc = lldp::DecodePfcConfiguration(info);
  FUZZ_CHECK(pfc.ok() == (info.size() == lldp::kPfcInfoBytes));
  if (pfc.ok()) FUZZ_CHECK(pfc->capability <= 15);
  auto app = lldp::DecodeApplicationPriority(info);
  FUZZ_CHECK(app.ok() == (!info.empty() && info.size() <= lldp::kMaxTlvInfoBytes &&
                          (info.size() - 1) % lldp::kAppEntryBytes == 0));
  if (app.ok()) {
    FUZZ_CHECK(app->size() * lldp::kAppEntryBytes + 1 == info.size());
    for (const auto& e : *app) FUZZ_CHECK(e.priority <= 7 && e.selector <= 7);
  }
  for (auto ets : {lldp::DecodeEtsConfiguration(info), lldp::DecodeEtsRecommendation(info)}) {
    FUZZ_CHECK(ets.ok() == (info.size() == lldp::kEtsInfoBytes));
    if (!ets.ok()) continue;
    FUZZ_CHECK(ets->max_tcs <= 7);
    for (auto tc : ets->priority_tc) FUZZ_CHECK(tc <= 15);
  }

  lldp::LldpUnknownTlv tlv;
  tlv.oui = lldp::kIeee8021Oui;
  tlv.subtype = subtype;
  tlv.info.assign(info.begin(), info.end());
  const lldp::PeerDcbx once = lldp::DecodeDcbx({tlv});
  const bool known =
      subtype >= lldp::kSubtypeEtsConfiguration && subtype <= lldp::kSubtypeApplicationPriority;
  FUZZ_CHECK(once.sent == known);
  FUZZ_CHECK(once.errors.size() <= 1);
  if (subtype == lldp::kSubtypePfcConfiguration) FUZZ_CHECK(once.pfc.has_value() == pfc.ok());
  if (subtype == lldp::kSubtypeApplicationPriority) FUZZ_CHECK(once.app.has_value() == app.ok());
  // The same TLV twice: the first kept, the second said once.
  const lldp::PeerDcbx twice = lldp::DecodeDcbx({tlv, tlv});
  if (known) FUZZ_CHECK(twice.errors.size() == once.errors.size() + 1);
  // Another OUI is not DCBX.
  tlv.oui = {0x00, 0x12, 0x0F};
  FUZZ_CHECK(!lldp::DecodeDcbx({tlv}).sent);

  const std::string hex = lldp::FormatLldpHex(info);
  auto back = lldp::ParseLldpHex(hex, info.size());
  FUZZ_CHECK(back.has_value() && back->size() == info.size());
  for (std::size_t i = 0; i < info.size(); ++i) FUZZ_CHECK((*back)[i] == info[i]);
  auto text = lldp::ParseLldpHex(rocewatch::fuzz::Text(data, size), lldp::kMaxTlvInfoBytes);
  if (text) FUZZ_CHECK(text->size() <= lldp::kMaxTlvInfoBytes);
  return 0;
}
