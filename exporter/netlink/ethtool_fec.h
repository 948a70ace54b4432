#pragma once

// ethtool netlink ETHTOOL_MSG_FEC_GET (kernel net/ethtool/fec.c, kernels 5.14 and later for
// the statistics): the configured and active FEC encoding and, with ETHTOOL_FLAG_STATS, the
// FEC counters and the FEC histogram (IEEE 802.3ck bins, kernels from 6.18).
//
// The reply (attributes from include/uapi/linux/ethtool_netlink*.h):
//   ETHTOOL_A_FEC_HEADER  (1)  nest: the reply header
//   ETHTOOL_A_FEC_MODES   (2)  bitset of link-mode bits: the configured encodings
//                              (FEC_NONE 49 = "Off", FEC_RS 50, FEC_BASER 51, FEC_LLRS 74)
//   ETHTOOL_A_FEC_AUTO    (3)  u8: the driver picks the encoding
//   ETHTOOL_A_FEC_ACTIVE  (4)  u32: link-mode bit of the active encoding; absent = none
//   ETHTOOL_A_FEC_STATS   (5)  nest:
//     ETHTOOL_A_FEC_STAT_PAD (1), _CORRECTED (2), _UNCORR (3), _CORR_BITS (4): each an array
//     of u64, the total first then one per lane (empty when the driver does not count);
//     _HIST (5), repeated: one bin each, nest of ETHTOOL_A_FEC_HIST_PAD (1), _BIN_LOW (2,
//     u32), _BIN_HIGH (3, u32), _BIN_VAL (4, u32 or u64), _BIN_VAL_PER_LANE (5, u64 array).
// `ethtool --show-fec` / `ethtool -I --show-fec` (ethtool netlink/fec.c) print the same.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "exporter/netlink/attributes.h"
#include "exporter/netlink/ethtool_genl.h"
#include "rocewatch/result.h"

namespace rocewatch::ethtool_nl {

// ETHTOOL_MSG_FEC_GET for `ifname`; `with_stats` sets ETHTOOL_FLAG_STATS (kernels before 5.14
// refuse the flag on FEC_GET with EINVAL).
Result<std::vector<std::uint8_t>> BuildFecRequest(std::uint16_t family_id, std::string_view ifname,
                                                  std::uint32_t seq, bool with_stats = true);

// A FEC counter: the total and, where the driver counts per lane, each lane (lane 0 first).
struct FecCounter {
  std::uint64_t total = 0;
  std::vector<std::uint64_t> lanes;
};

// One histogram bin: codewords seen with low..high (inclusive) symbol errors.
struct FecHistogramBin {
  std::uint32_t low = 0;
  std::uint32_t high = 0;
  std::uint64_t codewords = 0;
  std::vector<std::uint64_t> lanes;
};

struct Fec {
  ReplyHeader header;
  // The configured encodings, lower-case as ethtool names them ("off", "rs", "baser",
  // "llrs"; "bit<N>" for a link-mode bit that is not a FEC bit), in bit order.
  std::vector<std::string> configured;
  bool auto_mode = false;  // ETHTOOL_A_FEC_AUTO
  std::string active;      // "" when no encoding is active (or the kernel sent none)
  bool stats = false;      // the reply held ETHTOOL_A_FEC_STATS
  std::optional<FecCounter> corrected_blocks;
  std::optional<FecCounter> uncorrectable_blocks;
  std::optional<FecCounter> corrected_bits;
  std::vector<FecHistogramBin> histogram;
};

// "off" for ETHTOOL_LINK_MODE_FEC_NONE_BIT, "rs", "baser", "llrs"; "bit<N>" for any other bit.
std::string FecModeName(std::uint32_t link_mode_bit);

// Errors name the attribute and what was wrong (an array not made of u64s, a histogram bin
// without its bounds, low above high, more lanes than ETHTOOL_MAX_LANES...).
Result<Fec> DecodeFecReply(netlink::Bytes reply);

}  // namespace rocewatch::ethtool_nl
