#include "exporter/ethtool/string_set.h"

#include <linux/ethtool.h>

#include <bit>
#include <cstring>
#include <string>

namespace rocewatch::ethtool {
namespace {

static_assert(ETH_GSTRING_LEN == kGstringBytes);
static_assert(sizeof(ethtool_sset_info) == 16);
static_assert(sizeof(ethtool_gstrings) == 12);
static_assert(sizeof(ethtool_stats) == 8);

template <class T>
std::vector<std::uint8_t> AsBytes(const T& value, std::size_t total_size) {
  std::vector<std::uint8_t> out(total_size, 0);
  std::memcpy(out.data(), &value, sizeof(T));
  return out;
}

std::string SetName(std::uint32_t string_set) {
  switch (string_set) {
    case ETH_SS_TEST:
      return "ETH_SS_TEST";
    case ETH_SS_STATS:
      return "ETH_SS_STATS";
    case ETH_SS_PRIV_FLAGS:
      return "ETH_SS_PRIV_FLAGS";
    default:
      return "string set " + std::to_string(string_set);
  }
}

}  // namespace

std::vector<std::uint8_t> BuildSsetInfoRequest(std::uint32_t string_set) {
  ethtool_sset_info info{};
  info.cmd = ETHTOOL_GSSET_INFO;
  info.sset_mask = string_set < 64 ? (std::uint64_t{1} << string_set) : 0;
  return AsBytes(info, sizeof(info) + sizeof(std::uint32_t));
}

Result<std::uint32_t> DecodeSsetInfo(Bytes answer, std::uint32_t string_set) {
  const std::string where = "ethtool GSSET_INFO answer for " + SetName(string_set);
  if (string_set >= 64) return Error{where + ": string set number is out of range"};
  if (answer.size() < sizeof(ethtool_sset_info)) {
    return Error{where + ": " + std::to_string(answer.size()) +
                 " bytes, too short for struct ethtool_sset_info"};
  }
  ethtool_sset_info info;
  std::memcpy(&info, answer.data(), sizeof(info));
  const std::uint64_t bit = std::uint64_t{1} << string_set;
  if ((info.sset_mask & bit) == 0) return std::uint32_t{0};
  // data[] holds one count per set bit below ours, then ours.
  const auto index = static_cast<std::size_t>(std::popcount(info.sset_mask & (bit - 1)));
  const std::size_t offset = sizeof(ethtool_sset_info) + index * sizeof(std::uint32_t);
  if (answer.size() < offset + sizeof(std::uint32_t)) {
    return Error{where + ": " + std::to_string(answer.size()) +
                 " bytes, too short for the count at offset " + std::to_string(offset)};
  }
  std::uint32_t count = 0;
  std::memcpy(&count, answer.data() + offset, sizeof(count));
  return count;
}

Result<std::vector<std::uint8_t>> BuildStringsRequest(std::uint32_t string_set, std::uint32_t count,
                                                      std::uint32_t headroom) {
  if (count > kMaxEntries || headroom > kMaxEntries) {
    return Error{"ethtool GSTRINGS request: " + std::to_string(count) + " + " +
                 std::to_string(headroom) + " strings is more than any driver has"};
  }
  ethtool_gstrings header{};
  header.cmd = ETHTOOL_GSTRINGS;
  header.string_set = string_set;
  header.len = count;
  return AsBytes(header, sizeof(header) + std::size_t{count + headroom} * kGstringBytes);
}

Result<std::vector<std::string>> DecodeStrings(Bytes answer) {
  const std::string where = "ethtool GSTRINGS answer";
  if (answer.size() < sizeof(ethtool_gstrings)) {
    return Error{where + ": " + std::to_string(answer.size()) +
                 " bytes, too short for struct ethtool_gstrings"};
  }
  ethtool_gstrings header;
  std::memcpy(&header, answer.data(), sizeof(header));
  const std::size_t room = (answer.size() - sizeof(header)) / kGstringBytes;
  if (header.len > room) {
    return Error{where + " (" + SetName(header.string_set) + "): len " +
                 std::to_string(header.len) + " strings do not fit in the " +
                 std::to_string(answer.size()) + "-byte buffer (room for " + std::to_string(room) +
                 ")"};
  }
  std::vector<std::string> names;
  names.reserve(header.len);
  const auto* base = reinterpret_cast<const char*>(answer.data() + sizeof(header));
  for (std::size_t i = 0; i < header.len; ++i) {
    const char* slot = base + i * kGstringBytes;
    const void* nul = std::memchr(slot, '\0', kGstringBytes);
    const std::size_t length = nul == nullptr
                                   ? kGstringBytes
                                   : static_cast<std::size_t>(static_cast<const char*>(nul) - slot);
    names.emplace_back(slot, length);
  }
  return names;
}

Result<std::vector<std::uint8_t>> BuildStatsRequest(std::uint32_t count, std::uint32_t headroom) {
  if (count > kMaxEntries || headroom > kMaxEntries) {
    return Error{"ethtool GSTATS request: " + std::to_string(count) + " + " +
                 std::to_string(headroom) + " values is more than any driver has"};
  }
  ethtool_stats header{};
  header.cmd = ETHTOOL_GSTATS;
  header.n_stats = count;
  return AsBytes(header, sizeof(header) + std::size_t{count + headroom} * sizeof(std::uint64_t));
}

Result<StatsView> ViewStats(Bytes answer) {
  const std::string_view where = "ethtool GSTATS answer";
  if (answer.size() < sizeof(ethtool_stats)) {
    return Error{std::string(where) + ": " + std::to_string(answer.size()) +
                 " bytes, too short for struct ethtool_stats"};
  }
  ethtool_stats header;
  std::memcpy(&header, answer.data(), sizeof(header));
  const std::size_t room = (answer.size() - sizeof(header)) / sizeof(std::uint64_t);
  if (header.n_stats > room) {
    return Error{std::string(where) + ": n_stats " + std::to_string(header.n_stats) +
                 " values do not fit in the " + std::to_string(answer.size()) +
                 "-byte buffer (room for " + std::to_string(room) + ")"};
  }
  StatsView view;
  view.data_ = answer.data() + sizeof(header);
  view.size_ = header.n_stats;
  return view;
}

Result<std::vector<std::uint64_t>> DecodeStats(Bytes answer) {
  auto view = ViewStats(answer);
  if (!view) return view.error();
  std::vector<std::uint64_t> values(view->size());
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = (*view)[i];
  return values;
}

Result<std::vector<NamedStat>> DecodeNamedStats(Bytes strings_answer, Bytes stats_answer) {
  auto names = DecodeStrings(strings_answer);
  if (!names) return names.error();
  auto values = DecodeStats(stats_answer);
  if (!values) return values.error();
  if (names->size() != values->size()) {
    return Error{"ethtool statistics: " + std::to_string(names->size()) + " names but " +
                 std::to_string(values->size()) +
                 " values (the driver's statistics changed between GSTRINGS and GSTATS)"};
  }
  std::vector<NamedStat> out;
  out.reserve(names->size());
  for (std::size_t i = 0; i < names->size(); ++i) {
    out.push_back(NamedStat{std::move((*names)[i]), (*values)[i]});
  }
  return out;
}

}  // namespace rocewatch::ethtool
