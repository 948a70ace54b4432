#pragma once

// Test-only: ETHTOOL_MSG_FEC_GET replies built the way the kernel builds them, attribute by
// attribute: ethnl_fill_reply_header (net/ethtool/netlink.c), fec_fill_reply / fec_put_stats /
// fec_put_hist (net/ethtool/fec.c) and ethnl_put_bitset32 (net/ethtool/bitset.c), over
// KernelSkb's nla_* mirrors. The values are the test's; the layout is the kernel's.

#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "exporter/netlink/kernel_skb.h"

namespace rocewatch::testing {

struct FecReplyHist {
  std::uint32_t low = 0, high = 0;
  std::uint64_t value = 0;
  std::vector<std::uint64_t> lanes;
};

struct FecReplySpec {
  std::string ifname = "ens1f0np0";
  std::uint32_t ifindex = 4;
  std::vector<std::uint32_t> modes;  // link-mode bits set in ETHTOOL_A_FEC_MODES
  bool compact = false;              // ETHTOOL_FLAG_COMPACT_BITSETS in the request
  std::uint8_t fec_auto = 0;
  std::uint32_t active = 0;  // link-mode bit; 0 = attribute left out, as fec_fill_reply does
  bool stats = true;         // ETHTOOL_FLAG_STATS in the request
  // Each: total then per lane; empty = cnt 0 (driver does not count): an empty array.
  std::vector<std::uint64_t> corrected, uncorrectable, corrected_bits;
  std::vector<FecReplyHist> hist;
  std::uint16_t family = 21;
  std::uint32_t seq = 7;
};

inline constexpr std::uint32_t kLinkModeBits = 121;  // __ETHTOOL_LINK_MODE_MASK_NBITS (6.18)

inline void PutFecBitset(KernelSkb& skb, const FecReplySpec& s) {
  const std::size_t bitset = skb.NestStart(ETHTOOL_A_FEC_MODES);
  skb.NlaPut(ETHTOOL_A_BITSET_NOMASK, nullptr, 0);  // mask NULL: a list of the set bits
  skb.NlaPutU32(ETHTOOL_A_BITSET_SIZE, kLinkModeBits);
  if (s.compact) {
    std::vector<std::uint32_t> words((kLinkModeBits + 31) / 32, 0);
    for (std::uint32_t bit : s.modes) words[bit / 32] |= 1u << (bit % 32);
    skb.NlaPut(ETHTOOL_A_BITSET_VALUE, words.data(), words.size() * 4);
  } else {
    const std::size_t bits = skb.NestStart(ETHTOOL_A_BITSET_BITS);
    for (std::uint32_t bit : s.modes) {
      const std::size_t one = skb.NestStart(ETHTOOL_A_BITSET_BITS_BIT);
      skb.NlaPutU32(ETHTOOL_A_BITSET_BIT_INDEX, bit);
      const char* name = bit == ETHTOOL_LINK_MODE_FEC_NONE_BIT    ? "None"
                         : bit == ETHTOOL_LINK_MODE_FEC_RS_BIT    ? "RS"
                         : bit == ETHTOOL_LINK_MODE_FEC_BASER_BIT ? "BASER"
                         : bit == ETHTOOL_LINK_MODE_FEC_LLRS_BIT  ? "LLRS"
                                                                  : "other";
      skb.NlaPutString(ETHTOOL_A_BITSET_BIT_NAME, name);
      skb.NestEnd(one);
    }
    skb.NestEnd(bits);
  }
  skb.NestEnd(bitset);
}

inline std::vector<std::uint8_t> BuildFecReply(const FecReplySpec& s) {
  KernelSkb skb;
  const std::size_t msg =
      skb.GenlmsgPut(15338, s.seq, s.family, ETHTOOL_MSG_FEC_GET_REPLY, ETHTOOL_GENL_VERSION);
  const std::size_t header = skb.NestStart(ETHTOOL_A_FEC_HEADER);
  skb.NlaPutU32(ETHTOOL_A_HEADER_DEV_INDEX, s.ifindex);
  skb.NlaPutString(ETHTOOL_A_HEADER_DEV_NAME, s.ifname);
  skb.NestEnd(header);
  PutFecBitset(skb, s);
  skb.NlaPutU8(ETHTOOL_A_FEC_AUTO, s.fec_auto);
  if (s.active != 0) skb.NlaPutU32(ETHTOOL_A_FEC_ACTIVE, s.active);
  if (s.stats) {
    const std::size_t stats = skb.NestStart(ETHTOOL_A_FEC_STATS);
    // nla_put_64bit: x86-64 has efficient unaligned access, so no ETHTOOL_A_FEC_STAT_PAD.
    skb.NlaPut(ETHTOOL_A_FEC_STAT_CORRECTED, s.corrected.data(), s.corrected.size() * 8);
    skb.NlaPut(ETHTOOL_A_FEC_STAT_UNCORR, s.uncorrectable.data(), s.uncorrectable.size() * 8);
    skb.NlaPut(ETHTOOL_A_FEC_STAT_CORR_BITS, s.corrected_bits.data(), s.corrected_bits.size() * 8);
    for (const auto& bin : s.hist) {
      const std::size_t nest = skb.NestStart(ETHTOOL_A_FEC_STAT_CORR_BITS + 1);  // _STAT_HIST
      skb.NlaPutU32(2, bin.low);                                                 // _BIN_LOW
      skb.NlaPutU32(3, bin.high);                                                // _BIN_HIGH
      if (bin.value <= 0xffffffffu) {  // nla_put_uint: u32 when it fits
        skb.NlaPutU32(4, static_cast<std::uint32_t>(bin.value));
      } else {
        skb.NlaPut(4, &bin.value, 8);
      }
      if (!bin.lanes.empty()) skb.NlaPut(5, bin.lanes.data(), bin.lanes.size() * 8);  // _PER_LANE
      skb.NestEnd(nest);
    }
    skb.NestEnd(stats);
  }
  skb.NlmsgEnd(msg);
  return skb.bytes();
}

}  // namespace rocewatch::testing
