#pragma once

// A NIC's settings as drift compares them: (key, value) pairs of interned ids,
// and each NIC's whole set of pairs interned once more, so the NICs that are set
// alike (nearly all of a fleet) share one stored set and a fleet of 10,000 nodes
// keeps 16 bytes per NIC (DriftRecord) instead of its metrics. Keys are stable
// names ("pfc", "trust", "dscp.26", "ecn.np", "dcqcn.rp.rpg_ai_rate",
// "netdev_mtu", "firmware" …), values their text.

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lint/core/finding.h"
#include "lint/observe/name_table.h"
#include "lint/observe/node_view.h"

namespace rocewatch::lint::checks {

// Sorted by key id; one value per key.
using SettingIds = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

class SettingsPool {
 public:
  std::uint32_t Intern(std::string_view text);
  std::string_view Text(std::uint32_t id) const { return table_.Name(id); }
  // One id per distinct set of settings; equal sets, equal ids.
  std::uint32_t InternSet(SettingIds settings);
  const SettingIds& Set(std::uint32_t id) const { return *sets_[id]; }
  std::size_t SetCount() const { return sets_.size(); }

 private:
  observe::NameTable table_;        // views into texts_
  std::deque<std::string> texts_;  // stable addresses
  std::map<SettingIds, std::uint32_t> set_ids_;
  std::vector<const SettingIds*> sets_;  // keys of set_ids_, by id
};

// A setting's text as ExtractSettings writes it, typed: the priority lists of "pfc", "ecn.np"
// and "ecn.rp" ("3,4", "none") as sorted numbers, integers as numbers, anything else as text.
SettingValue TypedSetting(std::string_view key, std::string_view text);

// Every setting of one NIC, read from the exporter's families.
SettingIds ExtractSettings(const observe::NodeView& view, std::string_view device,
                           std::string_view port, std::string_view netdev, SettingsPool& pool);

}  // namespace rocewatch::lint::checks
