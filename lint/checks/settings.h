#pragma once

// A NIC's settings as drift compares them: (key, value) pairs of interned ids,
// so a fleet of 10,000 nodes keeps a few hundred bytes per NIC instead of its
// metrics. Keys are stable names ("pfc", "trust", "dscp.26", "ecn.np",
// "dcqcn.rp.rpg_ai_rate", "netdev_mtu", "firmware" …), values their text.

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lint/finding.h"
#include "lint/observe/name_table.h"
#include "lint/observe/node_view.h"

namespace rocewatch::lint::checks {

class SettingsPool {
 public:
  std::uint32_t Intern(std::string_view text);
  std::string_view Text(std::uint32_t id) const { return table_.Name(id); }

 private:
  observe::NameTable table_;        // views into texts_
  std::deque<std::string> texts_;  // stable addresses
};

// Sorted by key id; one value per key.
using SettingIds = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

// A setting's text as ExtractSettings writes it, typed: the priority lists of "pfc", "ecn.np"
// and "ecn.rp" ("3,4", "none") as sorted numbers, integers as numbers, anything else as text.
SettingValue TypedSetting(std::string_view key, std::string_view text);

// Every setting of one NIC, read from the exporter's families.
SettingIds ExtractSettings(const observe::NodeView& view, std::string_view device,
                           std::string_view port, std::string_view netdev, SettingsPool& pool);

}  // namespace rocewatch::lint::checks
