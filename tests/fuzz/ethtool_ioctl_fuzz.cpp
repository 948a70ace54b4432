// SIOCETHTOOL answers, as the ioctl fills them (or a capture replays them): GSSET_INFO,
// GSTRINGS, GSTATS, the two paired (DecodeNamedStats), GDRVINFO and GLINKSETTINGS.
//
// Input: one answer, or for DecodeNamedStats a GSTRINGS answer, the separator "\xff\xfeSTATS",
// then a GSTATS answer. Every decoder sees the whole input too.

#include <cstddef>
#include <cstdint>

#include "exporter/ethtool/driver_info.h"
#include "exporter/ethtool/link_settings.h"
#include "exporter/ethtool/string_set.h"
#include "fuzz_check.h"

namespace {

using namespace rocewatch;

void DecodeOne(ethtool::Bytes answer) {
  for (std::uint32_t set : {0u, 1u, 2u, 63u, 64u}) (void)ethtool::DecodeSsetInfo(answer, set);

  if (auto names = ethtool::DecodeStrings(answer); names.ok()) {
    // 12-byte header, then 32 bytes per name.
    FUZZ_CHECK(12 + names->size() * ethtool::kGstringBytes <= answer.size());
    for (const auto& n : *names) {
      FUZZ_CHECK(n.size() <= ethtool::kGstringBytes);
      FUZZ_CHECK(n.find('\0') == std::string::npos);
    }
  }
  if (auto values = ethtool::DecodeStats(answer); values.ok()) {
    FUZZ_CHECK(8 + values->size() * sizeof(std::uint64_t) <= answer.size());
  }
  if (auto info = ethtool::DecodeDriverInfo(answer); info.ok()) {
    FUZZ_CHECK(answer.size() >= 196);
    for (const std::string* s :
         {&info->driver, &info->version, &info->fw_version, &info->bus_info, &info->erom_version}) {
      FUZZ_CHECK(s->size() <= 32);
      FUZZ_CHECK(s->find('\0') == std::string::npos);
    }
  }
  if (auto link = ethtool::DecodeLinkSettings(answer); link.ok()) {
    FUZZ_CHECK(answer.size() >= 48);
    FUZZ_CHECK(link->supported.size() == link->advertising.size());
    FUZZ_CHECK(link->advertising.size() == link->lp_advertising.size());
    FUZZ_CHECK(48 + 3 * link->supported.size() * 4 <= answer.size());
    if (link->handshake_words) FUZZ_CHECK(link->supported.empty());
    if (link->speed_mbps) {
      FUZZ_CHECK(link->speed_bytes_per_second &&
                 *link->speed_bytes_per_second == std::uint64_t{*link->speed_mbps} * 125000);
    }
    FUZZ_CHECK(!ethtool::DuplexName(link->duplex).empty());
    FUZZ_CHECK(!ethtool::PortName(link->port).empty());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto input = fuzz::Text(data, size);
  DecodeOne(fuzz::AsBytes(input));
  const auto parts = fuzz::Split2(input, "\xff\xfeSTATS");
  if (parts.second.data() != nullptr) {
    const auto strings = fuzz::AsBytes(parts.first);
    const auto stats = fuzz::AsBytes(parts.second);
    DecodeOne(strings);
    DecodeOne(stats);
    auto named = ethtool::DecodeNamedStats(strings, stats);
    if (named.ok()) {
      auto names = ethtool::DecodeStrings(strings);
      auto values = ethtool::DecodeStats(stats);
      FUZZ_CHECK(names.ok() && values.ok());
      FUZZ_CHECK(named->size() == names->size() && named->size() == values->size());
      for (std::size_t i = 0; i < named->size(); ++i) {
        FUZZ_CHECK((*named)[i].name == (*names)[i] && (*named)[i].value == (*values)[i]);
      }
    }
  }
  return 0;
}
