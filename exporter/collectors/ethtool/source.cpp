#include "exporter/collectors/ethtool/source.h"

#include <linux/ethtool.h>

#include <algorithm>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <tuple>
#include <utility>

#include "exporter/collectors/detail_options.h"
#include "exporter/collectors/kernel_reader.h"
#include "exporter/drivers/driver.h"
#include "exporter/ethtool/classify.h"
#include "exporter/ethtool/driver_info.h"
#include "exporter/ethtool/link_settings.h"
#include "exporter/ethtool/string_set.h"
#include "exporter/log.h"

namespace rocewatch::collectors {
namespace {

using Outcome = KernelReader::Outcome;

// The statistics names of one netdev, classified once and kept across scrapes: the
// names change only when the driver reconfigures (channels, PFC priorities), which
// changes their number, so they are read again only when GDRVINFO's n_stats or the
// number of GSTATS values differs from what was classified. Only what a scrape uses
// is kept: not the names themselves nor the per-queue entries (about 6,900 of them
// on a 64-channel mlx5 netdev: 1 MiB a netdev), unless --collector.ethtool.metrics-include
// selects some, which are kept by index and name.
struct StatSet {
  std::string driver;                        // GDRVINFO driver when classified
  const drivers::Driver* unit = nullptr;     // its table (drivers/all.h); null: served raw
  std::optional<std::uint32_t> drv_n_stats;  // GDRVINFO n_stats when classified
  ethtool::Classification classification;    // without per_queue
  std::vector<std::pair<std::uint32_t, std::string>> included;  // sorted by index
};

// Several driver names may mean the same series (an alias and the name it stands for, two
// spellings of one priority counter): the first in the string set wins. Decided once per
// string set, so a pass copies the values without looking for duplicates.
void KeepFirstOfEachSeries(ethtool::Classification& c) {
  std::set<std::tuple<std::uint8_t, ethtool::Direction, ethtool::PriorityKind>> seen_priority;
  std::erase_if(c.per_priority, [&](const ethtool::PriorityStat& s) {
    return !seen_priority.emplace(s.priority, s.direction, s.kind).second;
  });
  std::set<std::string_view> seen_kind;
  std::erase_if(c.port, [&](const ethtool::PortStat& s) { return !seen_kind.insert(s.spec->kind).second; });
}

class EthtoolSource final : public Source {
 public:
  EthtoolSource(const SourceEnv& env, std::optional<std::regex> include, bool all_priorities,
                bool all_port_stats)
      : kernel_(*env.kernel), sysfs_(*env.sysfs), include_(std::move(include)),
        all_priorities_(all_priorities), all_port_stats_(all_port_stats) {}

  void Prepare(const Inventory& inventory) override {
    // Keep the string sets of the netdevs that are still there.
    std::map<std::string, StatSet> kept;
    for (const auto& ref : inventory.netdevs) {
      auto it = sets_.find(ref.name);
      if (it != sets_.end()) kept.emplace(ref.name, std::move(it->second));
    }
    sets_ = std::move(kept);
  }

  void Collect(const Inventory& inventory, NodeSnapshot& out, SourceStatus& status) override {
    for (const auto& ref : inventory.netdevs) {
      EthtoolSnapshot snap;
      snap.netdev = ref.name;
      snap.all_priorities = all_priorities_;
      snap.all_port_stats = all_port_stats_;
      if (CollectOne(ref.name, snap, status) || !reader_.NetdevGone(sysfs_, ref, "ethtool", status)) {
        // Per-priority counters (PFC pause, bytes, discards, ECN marks) are the physical
        // port's (mlx5: the PPCNT groups), which the PF serves; a VF's would repeat them or
        // read zero (docs/metrics.md#pci-functions).
        if (ref.is_vf) snap.per_priority.clear();
        out.ethtool.push_back(std::move(snap));
      } else {
        sets_.erase(ref.name);
      }
    }
    reader_.Finish(status);
  }

 private:
  // False when the netdev went away (no series for it in this scrape).
  bool CollectOne(const std::string& netdev, EthtoolSnapshot& snap, SourceStatus& status) {
    const std::string subject = "netdev " + netdev;
    std::optional<ethtool::DriverInfo> info;
    kernel::Answer a = kernel_.Ask(kernel::call::DriverInfo{netdev});
    Outcome o = reader_.Check(a, "ethtool GDRVINFO", subject, status);
    if (o == Outcome::kGone) return false;
    if (o == Outcome::kOk) {
      auto decoded = ethtool::DecodeDriverInfo(a.bytes);
      if (decoded) {
        info = std::move(*decoded);
        snap.driver_info_read = true;
        snap.driver = info->driver;
        snap.version = info->version;
        snap.firmware = info->fw_version;
        snap.bus_info = info->bus_info;
      } else {
        reader_.CheckDecoded(decoded.error(), "ethtool GDRVINFO", subject, status);
      }
    }

    a = kernel_.Ask(kernel::call::LinkSettings{netdev});
    o = reader_.Check(a, "ethtool GLINKSETTINGS", subject, status);
    if (o == Outcome::kGone) return false;
    if (o == Outcome::kOk) {
      auto ls = ethtool::DecodeLinkSettings(a.bytes);
      if (ls) {
        if (ls->speed_bytes_per_second) {
          snap.speed_bytes_per_second = static_cast<double>(*ls->speed_bytes_per_second);
        }
        snap.duplex = std::string(ethtool::DuplexName(ls->duplex));
        snap.connector = std::string(ethtool::PortName(ls->port));
        snap.autoneg = ls->autoneg;
      } else {
        reader_.CheckDecoded(ls.error(), "ethtool GLINKSETTINGS", subject, status);
      }
    }
    return CollectStats(netdev, subject, info, snap, status);
  }

  // Reads GSSET_INFO and GSTRINGS and classifies the names. False when the netdev is
  // gone; `set` is left empty (no statistics) when they cannot be read.
  bool ReadStrings(const std::string& netdev, const std::string& subject,
                   const std::optional<ethtool::DriverInfo>& info, StatSet& set,
                   SourceStatus& status) {
    set = StatSet{};
    if (info) {
      set.driver = info->driver;
      set.drv_n_stats = info->n_stats;
      // The driver the kernel reports chooses the table, never a name in the set.
      set.unit = drivers::FindByNetdevDriver(info->driver);
    }
    kernel::Answer a = kernel_.Ask(kernel::call::StringSetInfo{netdev, ETH_SS_STATS});
    Outcome o = reader_.Check(a, "ethtool GSSET_INFO", subject, status);
    if (o == Outcome::kGone) return false;
    if (o != Outcome::kOk) return true;
    auto count = ethtool::DecodeSsetInfo(a.bytes, ETH_SS_STATS);
    if (!count) {
      reader_.CheckDecoded(count.error(), "ethtool GSSET_INFO", subject, status);
      return true;
    }
    if (*count == 0) return true;  // the driver has no statistics
    a = kernel_.Ask(kernel::call::Strings{netdev, ETH_SS_STATS, *count});
    o = reader_.Check(a, "ethtool GSTRINGS", subject, status);
    if (o == Outcome::kGone) return false;
    if (o != Outcome::kOk) return true;
    auto names = ethtool::DecodeStrings(a.bytes);
    if (!names) {
      reader_.CheckDecoded(names.error(), "ethtool GSTRINGS", subject, status);
      return true;
    }
    set.classification = ethtool::ClassifyStrings(*names, set.unit);
    if (set.unit == nullptr && logged_tableless_.insert(netdev + '\0' + set.driver).second) {
      log::Info("no driver table: ethtool statistics served raw only (--collector.ethtool.metrics-include)",
                {{"netdev", netdev},
                 {"driver", info ? set.driver : std::string("(ETHTOOL_GDRVINFO unanswered)")},
                 {"statistics", std::to_string(set.classification.unclassified)}});
    }
    KeepFirstOfEachSeries(set.classification);
    if (include_) {
      for (const auto& q : set.classification.per_queue) {
        if (std::regex_search((*names)[q.index], *include_)) set.included.emplace_back(q.index, (*names)[q.index]);
      }
      for (const auto& other : set.classification.other) {
        if (std::regex_search(other.name, *include_)) set.included.emplace_back(other.index, other.name);
      }
      std::sort(set.included.begin(), set.included.end());
    }
    // What the included regex took is copied above; a pass applies the rest to no use.
    set.classification.per_queue.clear();
    set.classification.per_queue.shrink_to_fit();
    set.classification.other.clear();
    set.classification.other.shrink_to_fit();
    return true;
  }

  // Reads GSTATS into stats_ and views its values in values_. False when there are no values
  // to use (the reason recorded); `gone` is set when the netdev went away.
  bool ReadStats(const std::string& netdev, const std::string& subject, std::uint32_t count,
                 bool& gone, SourceStatus& status) {
    values_ = {};
    stats_ = kernel_.Ask(kernel::call::Stats{netdev, count});
    Outcome o = reader_.Check(stats_, "ethtool GSTATS", subject, status);
    if (o == Outcome::kGone) gone = true;
    if (o != Outcome::kOk) return false;
    auto view = ethtool::ViewStats(stats_.bytes);
    if (!view) {
      reader_.CheckDecoded(view.error(), "ethtool GSTATS", subject, status);
      return false;
    }
    values_ = *view;
    return true;
  }

  bool CollectStats(const std::string& netdev, const std::string& subject,
                    const std::optional<ethtool::DriverInfo>& info, EthtoolSnapshot& snap,
                    SourceStatus& status) {
    auto it = sets_.find(netdev);
    bool stale =
        it == sets_.end() ||
        (info && (info->n_stats != it->second.drv_n_stats || info->driver != it->second.driver));
    // Two tries: when GSTATS answers a different number of values than there are
    // classified names, the driver's set changed; read the names again, once.
    for (int attempt = 0; attempt < 2; ++attempt) {
      if (stale) {
        StatSet set;
        if (!ReadStrings(netdev, subject, info, set, status)) return false;
        it = sets_.insert_or_assign(netdev, std::move(set)).first;
      }
      if (it->second.classification.name_count == 0) {
        // No string set (unsupported, failed or empty): ask again next time.
        sets_.erase(it);
        return true;
      }
      bool gone = false;
      const bool read = ReadStats(netdev, subject,
                                  static_cast<std::uint32_t>(it->second.classification.name_count), gone, status);
      if (gone) return false;
      if (!read) return true;
      if (values_.size() == it->second.classification.name_count) break;
      stale = true;
    }
    const StatSet& set = it->second;
    snap.unclassified = set.classification.unclassified;
    auto applied = ethtool::Apply(set.classification, values_);
    if (!applied) {
      reader_.Fail(subject, applied.error().message, status);
      sets_.erase(it);  // classify again next time
      return true;
    }
    snap.per_priority.reserve(applied->per_priority.size());
    for (const auto& v : applied->per_priority)
      snap.per_priority.push_back({v.priority, v.direction, v.kind, v.value});
    snap.port.reserve(applied->port.size());
    for (const auto& v : applied->port) snap.port.push_back({v.spec, v.value});
    std::set<std::string_view> seen_name;
    for (const auto& [index, name] : set.included) {
      if (!seen_name.insert(name).second) continue;
      snap.included.push_back({name, static_cast<double>(values_[index])});
    }
    return true;
  }

  kernel::KernelAnswers& kernel_;
  const fs::Tree& sysfs_;  // tells a vanished netdev from a driver's ENODEV
  std::optional<std::regex> include_;
  bool all_priorities_;
  bool all_port_stats_;
  std::map<std::string, StatSet> sets_;
  std::set<std::string> logged_tableless_;  // netdev and driver pairs already logged as tableless
  kernel::Answer stats_;      // the GSTATS answer being applied
  ethtool::StatsView values_;  // its values, where they lie in stats_.bytes
  KernelReader reader_;
};

}  // namespace

Result<std::unique_ptr<Source>> MakeEthtoolSource(const SourceEnv& env) {
  if (env.kernel == nullptr) return Error{"collector ethtool: no kernel answers to read"};
  std::optional<std::regex> include;
  const std::string& pattern = env.Option("metrics-include");
  if (!pattern.empty()) {
    try {
      include.emplace(pattern, std::regex::ECMAScript | std::regex::optimize);
    } catch (const std::regex_error& ex) {
      return Error{"--collector.ethtool.metrics-include=" + pattern +
                   ": invalid regular expression: " + ex.what()};
    }
  }
  auto all_priorities = BoolOption(env, "ethtool", "all-priorities", false);
  if (!all_priorities) return all_priorities.error();
  auto all_port_stats = BoolOption(env, "ethtool", "all-port-stats", false);
  if (!all_port_stats) return all_port_stats.error();
  return std::unique_ptr<Source>(std::make_unique<EthtoolSource>(
      env, std::move(include), *all_priorities, *all_port_stats));
}

}  // namespace rocewatch::collectors
