#pragma once

// SIOCETHTOOL string sets and statistics, decoded from the raw buffers the ioctl fills.
//
//   ETHTOOL_GSSET_INFO: struct ethtool_sset_info {u32 cmd; u32 reserved; u64 sset_mask;
//                       u32 data[]}: one count per bit left set in sset_mask.
//   ETHTOOL_GSTRINGS:   struct ethtool_gstrings {u32 cmd; u32 string_set; u32 len;
//                       u8 data[len * ETH_GSTRING_LEN]}, names NUL-padded to 32 bytes.
//   ETHTOOL_GSTATS:     struct ethtool_stats {u32 cmd; u32 n_stats; u64 data[n_stats]}.
//
// The kernel writes as many entries as the driver has *now* and sets len / n_stats to that
// count, even if the caller sized the buffer for fewer: allocate some headroom and check
// that the strings and stats counts agree (DecodeNamedStats does).

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "rocewatch/result.h"

namespace rocewatch::ethtool {

using Bytes = std::span<const std::uint8_t>;

inline constexpr std::size_t kGstringBytes = 32;  // ETH_GSTRING_LEN
// Refuse requests for more entries than any driver has (mlx5 with 256 channels has ~20k).
inline constexpr std::uint32_t kMaxEntries = 1u << 20;

// ETHTOOL_GSSET_INFO for one string set (ETH_SS_STATS = 1, ETH_SS_PRIV_FLAGS = 2…).
std::vector<std::uint8_t> BuildSsetInfoRequest(std::uint32_t string_set);
// The number of strings in the set; 0 when the driver does not have the set (the kernel
// clears its bit in sset_mask).
Result<std::uint32_t> DecodeSsetInfo(Bytes answer, std::uint32_t string_set);

// ETHTOOL_GSTRINGS for `count` strings of `string_set`, with `headroom` extra entries.
Result<std::vector<std::uint8_t>> BuildStringsRequest(std::uint32_t string_set, std::uint32_t count,
                                                      std::uint32_t headroom = 0);
// The names, in order. Rejects a len whose strings do not fit in the buffer. A name fills
// at most 32 bytes; one without a NUL (a 32-character name) is kept whole.
Result<std::vector<std::string>> DecodeStrings(Bytes answer);

// ETHTOOL_GSTATS for `count` values with `headroom` extra entries.
Result<std::vector<std::uint8_t>> BuildStatsRequest(std::uint32_t count,
                                                    std::uint32_t headroom = 0);
// The values of a GSTATS answer read where they lie in it, not copied out: a 64-channel mlx5
// netdev answers ~7,000 values (55 KB) of which a pass uses a few dozen. Also over values
// already decoded (tests). Valid while the answer (or the values) it views lives.
class StatsView {
 public:
  StatsView() = default;
  StatsView(std::span<const std::uint64_t> values)  // NOLINT(google-explicit-constructor)
      : data_(reinterpret_cast<const std::uint8_t*>(values.data())), size_(values.size()) {}
  StatsView(const std::vector<std::uint64_t>& values)  // NOLINT(google-explicit-constructor)
      : StatsView(std::span<const std::uint64_t>(values)) {}

  std::size_t size() const { return size_; }
  std::uint64_t operator[](std::size_t i) const {  // i < size()
    std::uint64_t v;
    std::memcpy(&v, data_ + i * sizeof v, sizeof v);  // an answer's values need not be aligned
    return v;
  }

 private:
  friend Result<StatsView> ViewStats(Bytes answer);
  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
};

// The values, in order. Rejects an n_stats whose values do not fit in the buffer.
Result<StatsView> ViewStats(Bytes answer);
// The same, copied out.
Result<std::vector<std::uint64_t>> DecodeStats(Bytes answer);

struct NamedStat {
  std::string name;
  std::uint64_t value = 0;
};
// GSTRINGS(ETH_SS_STATS) and GSTATS decoded and paired; an Error when the two counts differ
// (the driver's set changed between the calls: read both again).
Result<std::vector<NamedStat>> DecodeNamedStats(Bytes strings_answer, Bytes stats_answer);

}  // namespace rocewatch::ethtool
