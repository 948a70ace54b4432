// motion.json, the capture metadata that makes replayed counters move (docs/capture.md):
// Motion::Parse against the sysfs tree of a fixture, then the motion applied to sysfs values
// and to a GSTATS answer at a fixed time.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "exporter/capture/replay/motion.h"
#include "exporter/fs/tree.h"
#include "fuzz_check.h"

namespace {

// A GSTRINGS answer naming `names`, and a GSTATS answer of as many zeros.
std::vector<std::uint8_t> Strings(const std::vector<std::string>& names) {
  std::vector<std::uint8_t> out(12 + names.size() * 32, 0);
  const std::uint32_t header[3] = {0x1b, 1, static_cast<std::uint32_t>(names.size())};
  std::memcpy(out.data(), header, sizeof header);
  for (std::size_t i = 0; i < names.size(); ++i) {
    std::memcpy(out.data() + 12 + i * 32, names[i].data(),
                std::min<std::size_t>(32, names[i].size()));
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rocewatch;
  static const fs::Tree sysfs("sysfs", ROCEWATCH_SOURCE_DIR "/tests/fixtures/mlx5-roce/sys");
  auto motion = replay::Motion::Parse(std::string(fuzz::Text(data, size)), "motion.json", sysfs);
  if (!motion.ok()) return 0;
  // A replay that has run for a day.
  (*motion)->set_clock([] { return 86400.0; });

  const auto transform = (*motion)->SysfsTransform();
  // Canonical paths (the transform sees what Tree::Resolve made of the keys).
  constexpr const char* kPort =
      "devices/pci0000:16/0000:16:01.0/0000:17:00.0/infiniband/mlx5_0/ports/1";
  for (const std::string& rel : {std::string(kPort) + "/counters/port_xmit_data",
                                 std::string(kPort) + "/hw_counters/np_cnp_sent"}) {
    std::string text = "18446744073709551615\n";
    transform(rel, text);
    FUZZ_CHECK(!text.empty());
  }
  const std::vector<std::string> names = {"rx_prio3_pause", "tx_prio3_pause",
                                          "tx_pause_storm_warning_events", "rx_discards_phy"};
  const auto strings = Strings(names);
  for (const char* netdev : {"ens1f0np0", "ens2f0np0"}) {
    std::vector<std::uint8_t> stats(8 + names.size() * 8, 0);
    const std::uint32_t header[2] = {0x1d, static_cast<std::uint32_t>(names.size())};
    std::memcpy(stats.data(), header, sizeof header);
    const auto before = stats.size();
    (*motion)->ApplyToStats(netdev, strings, stats);
    FUZZ_CHECK(stats.size() == before);
  }
  return 0;
}
