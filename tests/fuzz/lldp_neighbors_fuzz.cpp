// lldpd's neighbour answer as the lldp collector decodes it (lldpcli -f json0 form, from a
// capture or the live path): an accepted answer has named interfaces, bounded values, a TTL
// in range, and encodes back to text that decodes to the same neighbours.

#include <cstddef>
#include <cstdint>

#include "exporter/lldp/neighbors_json.h"
#include "fuzz_check.h"

namespace {

bool SameTlvs(const rocewatch::lldp::Neighbor& a, const rocewatch::lldp::Neighbor& b) {
  if (a.unknown_tlvs.size() != b.unknown_tlvs.size()) return false;
  for (std::size_t i = 0; i < a.unknown_tlvs.size(); ++i) {
    const auto &x = a.unknown_tlvs[i], &y = b.unknown_tlvs[i];
    if (x.oui != y.oui || x.subtype != y.subtype || x.info != y.info) return false;
  }
  return true;
}

bool Same(const rocewatch::lldp::Neighbor& a, const rocewatch::lldp::Neighbor& b) {
  return a.netdev == b.netdev && a.protocol == b.protocol &&
         a.chassis_id_subtype == b.chassis_id_subtype && a.chassis_id == b.chassis_id &&
         a.system_name == b.system_name && a.system_description == b.system_description &&
         a.port_id_subtype == b.port_id_subtype && a.port_id == b.port_id &&
         a.port_description == b.port_description && a.management_address == b.management_address &&
         a.ttl_seconds == b.ttl_seconds && a.age_seconds == b.age_seconds && SameTlvs(a, b);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace lldp = rocewatch::lldp;
  auto decoded = lldp::DecodeNeighborsJson(rocewatch::fuzz::Text(data, size));
  if (!decoded.ok()) return 0;
  FUZZ_CHECK(decoded->size() <= lldp::kMaxNeighbors);
  for (const auto& n : *decoded) {
    FUZZ_CHECK(!n.netdev.empty());
    for (const auto* v : {&n.netdev, &n.chassis_id, &n.system_name, &n.port_id,
                          &n.port_description, &n.management_address, &n.system_description})
      FUZZ_CHECK(v->size() <= lldp::kMaxValueBytes);
    if (n.ttl_seconds) FUZZ_CHECK(*n.ttl_seconds >= 0 && *n.ttl_seconds <= 65535);
    FUZZ_CHECK(n.unknown_tlvs.size() <= lldp::kMaxUnknownTlvs);
    for (const auto& t : n.unknown_tlvs)
      FUZZ_CHECK(t.info.size() <= rocewatch::lldp::kMaxTlvInfoBytes);
  }
  auto again = lldp::DecodeNeighborsJson(lldp::EncodeNeighborsJson(*decoded));
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(again->size() == decoded->size());
  for (std::size_t i = 0; i < decoded->size(); ++i) FUZZ_CHECK(Same((*decoded)[i], (*again)[i]));
  return 0;
}
