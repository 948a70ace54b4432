// dcbnl (RTM_GETDCB) replies: DecodeIeeeReply (ETS, PFC, maxrate, buffer, APP table, trust
// order, peer objects, DCBX) and DecodeDcbxReply, then what the dcb source derives from them
// (trust mode, DSCP -> priority map).

#include <cstddef>
#include <cstdint>

#include "exporter/netlink/dcbnl.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rocewatch;
  const auto reply = fuzz::Bytes(data, size);
  auto state = dcbnl::DecodeIeeeReply(reply);
  if (state.ok()) {
    if (!state->supported) {
      FUZZ_CHECK(!state->pfc && !state->ets && state->app_table.empty());
    }
    for (const auto* pfc :
         {state->pfc ? &*state->pfc : nullptr, state->peer_pfc ? &*state->peer_pfc : nullptr}) {
      if (pfc == nullptr) continue;
      for (int p = 0; p < dcbnl::kPriorities; ++p) {
        FUZZ_CHECK(pfc->enabled[p] == (((pfc->enabled_bitmap >> p) & 1) != 0));
      }
    }
    if (state->ets) {
      for (auto tsa : state->ets->tc_tsa) FUZZ_CHECK(!dcbnl::TsaName(tsa).empty());
    }
    for (const auto& app : state->app_table) FUZZ_CHECK(!dcbnl::SelectorName(app.selector).empty());
    const auto trust = dcbnl::TrustMode(*state);
    FUZZ_CHECK(trust == "dscp" || trust == "pcp");
    const auto map = dcbnl::DscpToPriority(*state);
    for (std::size_t i = 0; i < map.size(); ++i) {
      FUZZ_CHECK(map[i].dscp <= 63);
      // The first priority the table gives this DSCP (with the same selector).
      bool found = false;
      for (const auto& app : state->app_table)
        if (app.selector == dcbnl::kSelectorDscp && app.protocol == map[i].dscp) {
          FUZZ_CHECK(app.priority == map[i].priority);
          found = true;
          break;
        }
      FUZZ_CHECK(found);
      if (i > 0) FUZZ_CHECK(map[i - 1].dscp < map[i].dscp);
    }
    FUZZ_CHECK(map.size() <= state->app_table.size());
    if (state->dcbx) (void)state->dcbx->Names();
  } else {
    FUZZ_CHECK(state.error().code >= 0);
  }
  auto dcbx = dcbnl::DecodeDcbxReply(reply);
  if (dcbx.ok() && dcbx->supported) {
    FUZZ_CHECK(dcbx->mode.Names().size() <= 5);
  }
  return 0;
}
