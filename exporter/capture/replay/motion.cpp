#include "exporter/capture/replay/motion.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include <nlohmann/json.hpp>

#include "exporter/fs/beneath.h"
#include "exporter/netlink/attributes.h"
#include "rocewatch/json_duplicate_key.h"
#include "rocewatch/strings.h"

namespace rocewatch::replay {

Motion::Motion() {
  auto start = std::chrono::steady_clock::now();
  clock_ = [start] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
}

Result<std::shared_ptr<Motion>> Motion::Load(const std::string& capture_dir, const fs::Tree& sysfs) {
  std::string path = capture_dir + "/motion.json";
  // Beneath the capture directory, like every read of a replay; a few kilobytes of JSON.
  auto text = fs::ReadFileBeneath(capture_dir, "motion.json", 4u << 20);
  if (!text) {
    if (text.error().code == ENOENT) return std::shared_ptr<Motion>(new Motion());
    return text.error();
  }
  return Parse(*text, path, sysfs);
}

Result<std::shared_ptr<Motion>> Motion::Parse(const std::string& text, const std::string& where,
                                              const fs::Tree& sysfs) {
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return Error{where + ": not a JSON object"};
  // Every key named in an error is shown as it is when it is a plain word, else quoted by Quote
  // (printable ASCII, the rest \xHH, at most 200 characters): a capture's text never reaches the
  // terminal or log raw (docs/security.md).
  if (auto dup = FindDuplicateJsonKey(text)) return Error{where + ": " + DuplicateKeyMessage(*dup)};
  auto key = [](std::string_view k) {
    bool plain = !k.empty() && k.size() <= 200;
    for (char c : k) plain = plain && c > 0x20 && c < 0x7f && c != '"' && c != '\\';
    return plain ? std::string(k) : Quote(k, 200);
  };
  // Compared, not value<int>()'d: a version that is not a number must be an error, not a throw.
  if (!doc.contains("version") || doc["version"] != 1)
    return Error{where + ": \"version\" must be 1"};
  std::shared_ptr<Motion> m(new Motion());
  auto rate_of = [&](const nlohmann::json& v, const std::string& what) -> Result<double> {
    if (!v.is_number() || v.get<double>() < 0 || !std::isfinite(v.get<double>()))
      return Error{where + ": " + what + ": rate must be a non-negative number"};
    return v.get<double>();
  };
  if (doc.contains("sysfs")) {
    if (!doc["sysfs"].is_object()) return Error{where + ": \"sysfs\" must be an object"};
    for (auto it = doc["sysfs"].begin(); it != doc["sysfs"].end(); ++it) {
      auto rate = rate_of(it.value(), "sysfs/" + key(it.key()));
      if (!rate) return rate.error();
      const std::string& name = it.key();
      auto dir = sysfs.Resolve(std::string(fs::DirName(name)));
      if (!dir) return Error{where + ": sysfs/" + key(name) + ": " + dir.error().message};
      m->sysfs_[fs::Join(*dir, fs::BaseName(name))] = *rate;
      // class/infiniband/DEV/ports/N/hw_counters/NAME: the same counter in STAT_GET.
      auto parts = Split(name, '/');
      if (parts.size() == 7 && parts[0] == "class" && parts[1] == "infiniband" &&
          parts[3] == "ports" && parts[5] == "hw_counters")
        m->rdma_[std::string(parts[2]) + "/" + std::string(parts[4])][std::string(parts[6])] = *rate;
    }
  }
  if (doc.contains("ethtool")) {
    if (!doc["ethtool"].is_object()) return Error{where + ": \"ethtool\" must be an object"};
    for (auto nd = doc["ethtool"].begin(); nd != doc["ethtool"].end(); ++nd) {
      if (!nd.value().is_object()) return Error{where + ": ethtool/" + key(nd.key()) + " must be an object"};
      for (auto st = nd.value().begin(); st != nd.value().end(); ++st) {
        auto rate = rate_of(st.value(), "ethtool/" + key(nd.key()) + "/" + key(st.key()));
        if (!rate) return rate.error();
        m->ethtool_[nd.key()][st.key()] = *rate;
      }
    }
  }
  if (doc.contains("fec")) {
    if (!doc["fec"].is_object()) return Error{where + ": \"fec\" must be an object"};
    const std::map<std::string, std::uint16_t> counters = {
        {"corrected", ETHTOOL_A_FEC_STAT_CORRECTED},
        {"uncorrectable", ETHTOOL_A_FEC_STAT_UNCORR},
        {"corrected_bits", ETHTOOL_A_FEC_STAT_CORR_BITS}};
    for (auto nd = doc["fec"].begin(); nd != doc["fec"].end(); ++nd) {
      if (!nd.value().is_object()) return Error{where + ": fec/" + key(nd.key()) + " must be an object"};
      for (auto st = nd.value().begin(); st != nd.value().end(); ++st) {
        auto counter = counters.find(st.key());
        if (counter == counters.end())
          return Error{where + ": fec/" + key(nd.key()) + "/" + key(st.key()) +
                       ": not a FEC counter (corrected, uncorrectable, corrected_bits)"};
        auto rate = rate_of(st.value(), "fec/" + key(nd.key()) + "/" + key(st.key()));
        if (!rate) return rate.error();
        m->fec_[nd.key()][counter->second] = *rate;
      }
    }
  }
  return m;
}

std::uint64_t Motion::Delta(double rate) const {
  double t = clock_();
  const double delta = t <= 0 ? 0 : std::floor(rate * t);
  // A rate (or a replay) so large that the delta leaves uint64 saturates: converting it would be
  // undefined behaviour. The counter then wraps, as a real 64-bit counter does.
  if (!(delta < 18446744073709551616.0)) return UINT64_MAX;
  return static_cast<std::uint64_t>(delta);
}

fs::ValueTransform Motion::SysfsTransform() const {
  return [this](std::string_view rel, std::string& text) {
    auto it = sysfs_.find(std::string(rel));
    if (it == sysfs_.end()) return;
    auto v = ParseU64(text);
    if (!v) return;  // not a number: leave it to the parser to complain
    text = std::to_string(*v + Delta(it->second)) + "\n";
  };
}

void Motion::ApplyToStats(const std::string& netdev, const std::vector<std::uint8_t>& strings,
                          std::vector<std::uint8_t>& stats) const {
  ApplyRates(StatsRates(netdev, strings), stats);
}

// struct ethtool_gstrings {u32 cmd, string_set, len; u8 data[len * 32]}
// struct ethtool_stats {u32 cmd, n_stats; u64 data[n_stats]}
constexpr std::size_t kStringsHeader = 12, kStatsHeader = 8, kNameBytes = 32;

std::vector<Motion::StatRate> Motion::StatsRates(const std::string& netdev,
                                                 const std::vector<std::uint8_t>& strings) const {
  std::vector<StatRate> rates;
  auto nd = ethtool_.find(netdev);
  if (nd == ethtool_.end() || strings.size() < kStringsHeader) return rates;
  std::uint32_t count = 0;
  std::memcpy(&count, strings.data() + 8, 4);
  for (std::uint32_t i = 0; i < count; ++i) {
    std::size_t name_at = kStringsHeader + std::size_t{i} * kNameBytes;
    if (name_at + kNameBytes > strings.size()) break;
    const char* name = reinterpret_cast<const char*>(strings.data() + name_at);
    std::string key(name, ::strnlen(name, kNameBytes));
    auto rate = nd->second.find(key);
    if (rate != nd->second.end()) rates.push_back({i, rate->second});
  }
  return rates;
}

void Motion::ApplyRates(const std::vector<StatRate>& rates, std::vector<std::uint8_t>& stats) const {
  if (stats.size() < kStatsHeader) return;
  for (const StatRate& r : rates) {
    std::size_t value_at = kStatsHeader + std::size_t{r.index} * 8;
    if (value_at + 8 > stats.size()) return;  // rates are in index order
    std::uint64_t v = 0;
    std::memcpy(&v, stats.data() + value_at, 8);
    v += Delta(r.rate);
    std::memcpy(stats.data() + value_at, &v, 8);
  }
}

namespace {

// Adds `delta` to the u64 that the attribute parser saw at `where`, inside `answer`.
void AddToU64(std::vector<std::uint8_t>& answer, const std::uint8_t* where, std::uint64_t delta) {
  const std::size_t at = static_cast<std::size_t>(where - answer.data());
  std::uint64_t v = 0;
  std::memcpy(&v, answer.data() + at, 8);
  v += delta;
  std::memcpy(answer.data() + at, &v, 8);
}

}  // namespace

void Motion::ApplyToFec(const std::string& netdev, std::vector<std::uint8_t>& answer) const {
  auto nd = fec_.find(netdev);
  constexpr std::size_t kHeaders = NLMSG_HDRLEN + GENL_HDRLEN;
  if (nd == fec_.end() || answer.size() < kHeaders) return;
  const netlink::Bytes whole(answer.data(), answer.size());
  auto top = netlink::ParseAttributes(whole.subspan(kHeaders), "FEC_GET");
  if (!top) return;
  const netlink::Attribute* stats = netlink::FindAttribute(*top, ETHTOOL_A_FEC_STATS);
  if (stats == nullptr) return;
  auto counters = netlink::ParseAttributes(stats->payload, "ETHTOOL_A_FEC_STATS");
  if (!counters) return;
  for (const netlink::Attribute& a : *counters) {
    auto rate = nd->second.find(a.type);
    if (rate == nd->second.end()) continue;
    // The total, then lane 0: each a u64 of the array, patched where it lies in the answer.
    const std::uint64_t delta = Delta(rate->second);
    for (std::size_t i = 0; i < 2 && 8 * (i + 1) <= a.payload.size(); ++i)
      AddToU64(answer, a.payload.data() + 8 * i, delta);
  }
}

void Motion::ApplyToRdmaStat(const std::string& device, std::uint32_t port,
                             std::vector<std::uint8_t>& answer) const {
  auto it = rdma_.find(device + "/" + std::to_string(port));
  if (it == rdma_.end() || answer.size() < NLMSG_HDRLEN) return;
  const netlink::Bytes whole(answer.data(), answer.size());
  auto top = netlink::ParseAttributes(whole.subspan(NLMSG_HDRLEN), "STAT_GET");
  if (!top) return;
  const netlink::Attribute* table = netlink::FindAttribute(*top, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
  if (table == nullptr) return;
  auto entries = netlink::ParseAttributes(table->payload, "RDMA_NLDEV_ATTR_STAT_HWCOUNTERS");
  if (!entries) return;
  for (const netlink::Attribute& entry : *entries) {
    auto fields = netlink::ParseAttributes(entry.payload, "RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY");
    if (!fields) continue;
    const netlink::Attribute* name =
        netlink::FindAttribute(*fields, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME);
    const netlink::Attribute* value =
        netlink::FindAttribute(*fields, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE);
    if (name == nullptr || value == nullptr || value->payload.size() != 8) continue;
    auto text = netlink::GetString(*name, "ENTRY_NAME");
    if (!text) continue;
    auto rate = it->second.find(*text);
    if (rate == it->second.end()) continue;
    AddToU64(answer, value->payload.data(), Delta(rate->second));
  }
}

}  // namespace rocewatch::replay
