#include "exporter/netlink/ethtool_fec.h"

#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>

#include <cstring>
#include <string>

#include "exporter/netlink/ethtool_reply.h"

namespace rocewatch::ethtool_nl {
namespace {

using detail::Prefixed;
using netlink::Attribute;
using netlink::Bytes;

// Newer than the installed UAPI headers (linux-libc-dev 6.1): the FEC histogram, from the
// kernel's include/uapi/linux/ethtool_netlink_generated.h (6.18): ETHTOOL_A_FEC_STAT_HIST
// follows _CORR_BITS, and its bins are their own attribute space.
static_assert(ETHTOOL_A_FEC_STAT_CORR_BITS == 4, "FEC_STAT enum changed");
constexpr std::uint16_t kFecStatHist = ETHTOOL_A_FEC_STAT_CORR_BITS + 1;
constexpr std::uint16_t kHistPad = 1;         // ETHTOOL_A_FEC_HIST_PAD
constexpr std::uint16_t kHistBinLow = 2;      // ETHTOOL_A_FEC_HIST_BIN_LOW, u32
constexpr std::uint16_t kHistBinHigh = 3;     // ETHTOOL_A_FEC_HIST_BIN_HIGH, u32
constexpr std::uint16_t kHistBinVal = 4;      // ETHTOOL_A_FEC_HIST_BIN_VAL, uint (u32 or u64)
constexpr std::uint16_t kHistBinPerLane = 5;  // ETHTOOL_A_FEC_HIST_BIN_VAL_PER_LANE, u64s

constexpr std::size_t kMaxLanes = 8;              // ETHTOOL_MAX_LANES (include/linux/ethtool.h)
constexpr std::size_t kMaxHistBins = 16;          // ETHTOOL_FEC_HIST_MAX - 1: 802.3ck's 16 bins
constexpr std::uint32_t kMaxLinkModeBits = 1024;  // far above __ETHTOOL_LINK_MODE_MASK_NBITS

constexpr std::string_view kWhere = "ethtool FEC_GET reply";

std::uint64_t LoadU64(const std::uint8_t* p) {
  std::uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// An array of u64 (nla_put_64bit of `count` u64s): the payload must be a whole number of them.
Result<std::vector<std::uint64_t>> GetU64Array(const Attribute& a, std::string_view name,
                                               std::size_t max_count) {
  if (a.payload.size() % 8 != 0) {
    return Error{std::string(name) + ": payload is " + std::to_string(a.payload.size()) +
                 " bytes, not a whole number of u64"};
  }
  const std::size_t count = a.payload.size() / 8;
  if (count > max_count) {
    return Error{std::string(name) + ": " + std::to_string(count) + " values, at most " +
                 std::to_string(max_count) + " (ETHTOOL_MAX_LANES)"};
  }
  std::vector<std::uint64_t> values(count);
  for (std::size_t i = 0; i < count; ++i) values[i] = LoadU64(a.payload.data() + 8 * i);
  return values;
}

// The total then one value per lane; an empty array is a counter the driver does not keep.
Result<std::optional<FecCounter>> GetCounter(const Attribute& a, std::string_view name) {
  auto values = GetU64Array(a, name, 1 + kMaxLanes);
  if (!values) return values.error();
  if (values->empty()) return std::optional<FecCounter>{};
  FecCounter counter;
  counter.total = values->front();
  counter.lanes.assign(values->begin() + 1, values->end());
  return std::optional<FecCounter>{std::move(counter)};
}

// nla_put_uint: a u32 when the value fits, else a u64.
Result<std::uint64_t> GetUint(const Attribute& a, std::string_view name) {
  if (a.payload.size() == 4) {
    auto v = netlink::GetU32(a, name);
    if (!v) return v.error();
    return std::uint64_t{*v};
  }
  return netlink::GetU64(a, name);
}

Result<FecHistogramBin> DecodeBin(const Attribute& nest, std::size_t index) {
  const std::string name = "ETHTOOL_A_FEC_STAT_HIST[" + std::to_string(index) + "]";
  auto attributes = netlink::GetNested(nest, name);
  if (!attributes) return attributes.error();
  FecHistogramBin bin;
  bool have_low = false, have_high = false, have_value = false;
  for (const Attribute& a : *attributes) {
    switch (a.type) {
      case kHistBinLow: {
        auto v = netlink::GetU32(a, name + " ETHTOOL_A_FEC_HIST_BIN_LOW");
        if (!v) return v.error();
        bin.low = *v;
        have_low = true;
        break;
      }
      case kHistBinHigh: {
        auto v = netlink::GetU32(a, name + " ETHTOOL_A_FEC_HIST_BIN_HIGH");
        if (!v) return v.error();
        bin.high = *v;
        have_high = true;
        break;
      }
      case kHistBinVal: {
        auto v = GetUint(a, name + " ETHTOOL_A_FEC_HIST_BIN_VAL");
        if (!v) return v.error();
        bin.codewords = *v;
        have_value = true;
        break;
      }
      case kHistBinPerLane: {
        // One u64 array (nla_put_64bit); repeated attributes of whole u64s append.
        auto v = GetU64Array(a, name + " ETHTOOL_A_FEC_HIST_BIN_VAL_PER_LANE", kMaxLanes);
        if (!v) return v.error();
        bin.lanes.insert(bin.lanes.end(), v->begin(), v->end());
        if (bin.lanes.size() > kMaxLanes) {
          return Error{name + ": more than " + std::to_string(kMaxLanes) + " lanes"};
        }
        break;
      }
      case kHistPad:
      default:
        break;
    }
  }
  if (!have_low || !have_high || !have_value) {
    return Error{name + ": missing " +
                 std::string(!have_low    ? "ETHTOOL_A_FEC_HIST_BIN_LOW"
                             : !have_high ? "ETHTOOL_A_FEC_HIST_BIN_HIGH"
                                          : "ETHTOOL_A_FEC_HIST_BIN_VAL")};
  }
  if (bin.low > bin.high) {
    return Error{name + ": bin low " + std::to_string(bin.low) + " is above high " +
                 std::to_string(bin.high)};
  }
  return bin;
}

Status DecodeStats(const Attribute& nest, Fec& fec) {
  auto attributes = netlink::GetNested(nest, "ETHTOOL_A_FEC_STATS");
  if (!attributes) return attributes.error();
  fec.stats = true;
  for (const Attribute& a : *attributes) {
    std::optional<FecCounter>* target = nullptr;
    std::string_view name;
    switch (a.type) {
      case ETHTOOL_A_FEC_STAT_CORRECTED:
        target = &fec.corrected_blocks;
        name = "ETHTOOL_A_FEC_STAT_CORRECTED";
        break;
      case ETHTOOL_A_FEC_STAT_UNCORR:
        target = &fec.uncorrectable_blocks;
        name = "ETHTOOL_A_FEC_STAT_UNCORR";
        break;
      case ETHTOOL_A_FEC_STAT_CORR_BITS:
        target = &fec.corrected_bits;
        name = "ETHTOOL_A_FEC_STAT_CORR_BITS";
        break;
      case kFecStatHist: {
        if (fec.histogram.size() == kMaxHistBins) {
          return Error{"ETHTOOL_A_FEC_STATS: more than " + std::to_string(kMaxHistBins) +
                       " ETHTOOL_A_FEC_STAT_HIST bins"};
        }
        auto bin = DecodeBin(a, fec.histogram.size());
        if (!bin) return bin.error();
        fec.histogram.push_back(std::move(*bin));
        continue;
      }
      default:
        continue;  // ETHTOOL_A_FEC_STAT_PAD aligns the u64 arrays; anything newer
    }
    auto counter = GetCounter(a, name);
    if (!counter) return counter.error();
    *target = std::move(*counter);
  }
  return {};
}

// A bitset (net/ethtool/bitset.c): compact (ETHTOOL_A_BITSET_SIZE + _VALUE words) or verbose
// (ETHTOOL_A_BITSET_BITS of BIT {INDEX, NAME, VALUE flag}). Without ETHTOOL_A_BITSET_NOMASK a
// verbose bit is set only with its VALUE flag, a compact one where _VALUE has it.
Result<std::vector<std::uint32_t>> DecodeBitset(const Attribute& nest, std::string_view name) {
  auto attributes = netlink::GetNested(nest, name);
  if (!attributes) return attributes.error();
  bool nomask = false;
  std::optional<std::uint32_t> size;
  const Attribute* value = nullptr;
  const Attribute* bits = nullptr;
  for (const Attribute& a : *attributes) {
    if (a.type == ETHTOOL_A_BITSET_NOMASK) {
      nomask = true;
    } else if (a.type == ETHTOOL_A_BITSET_SIZE) {
      auto v = netlink::GetU32(a, std::string(name) + " ETHTOOL_A_BITSET_SIZE");
      if (!v) return v.error();
      size = *v;
    } else if (a.type == ETHTOOL_A_BITSET_VALUE) {
      value = &a;
    } else if (a.type == ETHTOOL_A_BITSET_BITS) {
      bits = &a;
    }
  }
  const std::string where(name);
  if (size && *size > kMaxLinkModeBits) {
    return Error{where + ": ETHTOOL_A_BITSET_SIZE " + std::to_string(*size) + " is above " +
                 std::to_string(kMaxLinkModeBits)};
  }
  std::vector<std::uint32_t> set;
  if (value != nullptr) {
    if (!size) return Error{where + ": compact bitset without ETHTOOL_A_BITSET_SIZE"};
    const std::size_t want = (*size + 31) / 32 * 4;
    if (value->payload.size() != want) {
      return Error{where + ": ETHTOOL_A_BITSET_VALUE is " + std::to_string(value->payload.size()) +
                   " bytes, expected " + std::to_string(want) + " for " + std::to_string(*size) +
                   " bits"};
    }
    for (std::uint32_t bit = 0; bit < *size; ++bit) {
      std::uint32_t word;
      std::memcpy(&word, value->payload.data() + bit / 32 * 4, sizeof word);
      if ((word >> (bit % 32)) & 1u) set.push_back(bit);
    }
    return set;
  }
  if (bits == nullptr) return set;  // an empty verbose bitset carries no BITS nest
  auto list = netlink::GetNested(*bits, where + " ETHTOOL_A_BITSET_BITS");
  if (!list) return list.error();
  for (const Attribute& b : *list) {
    if (b.type != ETHTOOL_A_BITSET_BITS_BIT) continue;
    auto fields = netlink::GetNested(b, where + " ETHTOOL_A_BITSET_BITS_BIT");
    if (!fields) return fields.error();
    std::optional<std::uint32_t> index;
    bool on = false;
    for (const Attribute& f : *fields) {
      if (f.type == ETHTOOL_A_BITSET_BIT_INDEX) {
        auto v = netlink::GetU32(f, where + " ETHTOOL_A_BITSET_BIT_INDEX");
        if (!v) return v.error();
        index = *v;
      } else if (f.type == ETHTOOL_A_BITSET_BIT_VALUE) {
        on = true;
      }
    }
    if (!index) return Error{where + ": a bit without ETHTOOL_A_BITSET_BIT_INDEX"};
    const std::uint32_t limit = size ? *size : kMaxLinkModeBits;
    if (*index >= limit) {
      return Error{where + ": bit index " + std::to_string(*index) + " is outside the " +
                   std::to_string(limit) + "-bit set"};
    }
    if (nomask || on) set.push_back(*index);
  }
  return set;
}

}  // namespace

std::string FecModeName(std::uint32_t link_mode_bit) {
  switch (link_mode_bit) {
    case ETHTOOL_LINK_MODE_FEC_NONE_BIT:
      return "off";  // ethtool prints the link mode "None" as "Off" (FEC supported, disabled)
    case ETHTOOL_LINK_MODE_FEC_RS_BIT:
      return "rs";
    case ETHTOOL_LINK_MODE_FEC_BASER_BIT:
      return "baser";
    case ETHTOOL_LINK_MODE_FEC_LLRS_BIT:
      return "llrs";
    default:
      return "bit" + std::to_string(link_mode_bit);
  }
}

Result<std::vector<std::uint8_t>> BuildFecRequest(std::uint16_t family_id, std::string_view ifname,
                                                  std::uint32_t seq, bool with_stats) {
  auto builder = detail::StartRequest(family_id, ETHTOOL_MSG_FEC_GET, ETHTOOL_A_FEC_HEADER, ifname,
                                      with_stats ? ETHTOOL_FLAG_STATS : 0, seq, "ethtool FEC_GET");
  if (!builder) return builder.error();
  return std::move(*builder).Finish();
}

Result<Fec> DecodeFecReply(Bytes reply) {
  auto attributes = detail::EthtoolReply(reply, ETHTOOL_MSG_FEC_GET_REPLY, kWhere);
  if (!attributes) return attributes.error();
  Fec fec;
  bool have_modes = false;
  for (const Attribute& a : *attributes) {
    switch (a.type) {
      case ETHTOOL_A_FEC_HEADER: {
        auto header = detail::DecodeHeader(a, "ETHTOOL_A_FEC_HEADER");
        if (!header) return Prefixed(kWhere, header.error());
        fec.header = std::move(*header);
        break;
      }
      case ETHTOOL_A_FEC_MODES: {
        auto bits = DecodeBitset(a, "ETHTOOL_A_FEC_MODES");
        if (!bits) return Prefixed(kWhere, bits.error());
        fec.configured.clear();
        for (std::uint32_t bit : *bits) fec.configured.push_back(FecModeName(bit));
        have_modes = true;
        break;
      }
      case ETHTOOL_A_FEC_AUTO: {
        auto v = netlink::GetU8(a, "ETHTOOL_A_FEC_AUTO");
        if (!v) return Prefixed(kWhere, v.error());
        fec.auto_mode = *v != 0;
        break;
      }
      case ETHTOOL_A_FEC_ACTIVE: {
        auto v = netlink::GetU32(a, "ETHTOOL_A_FEC_ACTIVE");
        if (!v) return Prefixed(kWhere, v.error());
        if (*v >= kMaxLinkModeBits) {
          return Error{std::string(kWhere) + ": ETHTOOL_A_FEC_ACTIVE " + std::to_string(*v) +
                       " is not a link-mode bit"};
        }
        // fec_fill_reply() leaves the attribute out when none is active; 0 means the same.
        fec.active = *v == 0 ? std::string() : FecModeName(*v);
        break;
      }
      case ETHTOOL_A_FEC_STATS: {
        fec.stats = false;
        fec.corrected_blocks.reset();
        fec.uncorrectable_blocks.reset();
        fec.corrected_bits.reset();
        fec.histogram.clear();
        if (Status s = DecodeStats(a, fec); !s) return Prefixed(kWhere, s.error());
        break;
      }
      default:
        break;
    }
  }
  if (!have_modes) return Error{std::string(kWhere) + ": no ETHTOOL_A_FEC_MODES attribute"};
  return fec;
}

}  // namespace rocewatch::ethtool_nl
