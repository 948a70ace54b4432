// SIOCETHTOOL answer decoders: string sets, statistics, driver info, link settings. The
// answers are laid out as the kernel's net/ethtool/ioctl.c copies them to user space.

#include <gtest/gtest.h>
#include <linux/ethtool.h>

#include <cstring>
#include <string>
#include <vector>

#include "exporter/ethtool/driver_info.h"
#include "exporter/ethtool/link_settings.h"
#include "exporter/ethtool/string_set.h"

namespace rocewatch::ethtool {
namespace {

// ethtool_get_strings(): struct ethtool_gstrings with len set, then len * 32 bytes.
std::vector<std::uint8_t> StringsAnswer(const std::vector<std::string>& names,
                                        std::size_t extra_slots = 0) {
  ethtool_gstrings header{};
  header.cmd = ETHTOOL_GSTRINGS;
  header.string_set = ETH_SS_STATS;
  header.len = static_cast<std::uint32_t>(names.size());
  std::vector<std::uint8_t> out(sizeof(header) + (names.size() + extra_slots) * ETH_GSTRING_LEN, 0);
  std::memcpy(out.data(), &header, sizeof(header));
  for (std::size_t i = 0; i < names.size(); ++i) {
    std::memcpy(out.data() + sizeof(header) + i * ETH_GSTRING_LEN, names[i].data(),
                std::min<std::size_t>(names[i].size(), ETH_GSTRING_LEN));
  }
  return out;
}

// ethtool_get_stats(): struct ethtool_stats with n_stats set, then n_stats u64.
std::vector<std::uint8_t> StatsAnswer(const std::vector<std::uint64_t>& values) {
  ethtool_stats header{};
  header.cmd = ETHTOOL_GSTATS;
  header.n_stats = static_cast<std::uint32_t>(values.size());
  std::vector<std::uint8_t> out(sizeof(header) + values.size() * 8);
  std::memcpy(out.data(), &header, sizeof(header));
  if (!values.empty()) std::memcpy(out.data() + sizeof(header), values.data(), values.size() * 8);
  return out;
}

TEST(EthtoolStrings, DecodesNamesIncludingFull32Bytes) {
  // 32 characters: what a name filling ETH_GSTRING_LEN looks like (no NUL).
  const std::string full = "ptp_rq0_csum_complete_tail_slow_";
  ASSERT_EQ(full.size(), 32u);
  auto names = DecodeStrings(StringsAnswer({"rx_prio3_pause", "link_down_events_phy", full}));
  ASSERT_TRUE(names) << names.error().message;
  EXPECT_EQ(*names, (std::vector<std::string>{"rx_prio3_pause", "link_down_events_phy", full}));
}

TEST(EthtoolStrings, RejectsCountThatDoesNotFit) {
  std::vector<std::uint8_t> answer = StringsAnswer({"a", "b", "c"});
  answer.resize(answer.size() - 1);  // the third slot is one byte short
  auto names = DecodeStrings(answer);
  ASSERT_FALSE(names);
  EXPECT_EQ(names.error().message,
            "ethtool GSTRINGS answer (ETH_SS_STATS): len 3 strings do not fit in the 107-byte "
            "buffer (room for 2)");
  EXPECT_FALSE(DecodeStrings(std::vector<std::uint8_t>(11, 0)));
}

TEST(EthtoolStrings, HeadroomSlotsAreIgnored) {
  auto names = DecodeStrings(StringsAnswer({"rx_discards_phy"}, /*extra_slots=*/4));
  ASSERT_TRUE(names);
  EXPECT_EQ(names->size(), 1u);
}

TEST(EthtoolStats, DecodesValuesAndRejectsOverlongCount) {
  auto values = DecodeStats(StatsAnswer({1, 18446744073709551615ull, 42}));
  ASSERT_TRUE(values);
  EXPECT_EQ(*values, (std::vector<std::uint64_t>{1, 18446744073709551615ull, 42}));

  std::vector<std::uint8_t> lying = StatsAnswer({1, 2});
  const std::uint32_t n = 3;
  std::memcpy(lying.data() + 4, &n, sizeof(n));
  auto bad = DecodeStats(lying);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message,
            "ethtool GSTATS answer: n_stats 3 values do not fit in the 24-byte buffer (room for "
            "2)");
}


TEST(EthtoolStats, ViewReadsValuesWhereTheyLieEvenUnaligned) {
  const std::vector<std::uint8_t> answer = StatsAnswer({7, 18446744073709551615ull, 42});
  // The same bytes one past an 8-byte boundary: a view reads them without an aligned load.
  std::vector<std::uint8_t> shifted(answer.size() + 1);
  std::memcpy(shifted.data() + 1, answer.data(), answer.size());
  auto view = ViewStats(std::span<const std::uint8_t>(shifted).subspan(1));
  ASSERT_TRUE(view) << view.error().message;
  ASSERT_EQ(view->size(), 3u);
  EXPECT_EQ((*view)[0], 7u);
  EXPECT_EQ((*view)[1], 18446744073709551615ull);
  EXPECT_EQ((*view)[2], 42u);

  auto short_answer = ViewStats(std::vector<std::uint8_t>(7, 0));
  ASSERT_FALSE(short_answer);
  EXPECT_EQ(short_answer.error().message,
            "ethtool GSTATS answer: 7 bytes, too short for struct ethtool_stats");
}
TEST(EthtoolStats, PairsNamesWithValues) {
  auto stats = DecodeNamedStats(StringsAnswer({"rx_prio3_pause", "tx_prio3_pause"}),
                                StatsAnswer({7890, 123456}));
  ASSERT_TRUE(stats) << stats.error().message;
  ASSERT_EQ(stats->size(), 2u);
  EXPECT_EQ((*stats)[1].name, "tx_prio3_pause");
  EXPECT_EQ((*stats)[1].value, 123456u);
}

TEST(EthtoolStats, CountMismatchIsAnError) {
  auto stats = DecodeNamedStats(StringsAnswer({"a", "b", "c"}), StatsAnswer({1, 2}));
  ASSERT_FALSE(stats);
  EXPECT_EQ(stats.error().message,
            "ethtool statistics: 3 names but 2 values (the driver's statistics changed between "
            "GSTRINGS and GSTATS)");
}

TEST(EthtoolStats, RequestsCarryCountsAndHeadroom) {
  auto strings = BuildStringsRequest(ETH_SS_STATS, 10, 2);
  ASSERT_TRUE(strings);
  EXPECT_EQ(strings->size(), 12u + 12u * 32u);
  ethtool_gstrings g;
  std::memcpy(&g, strings->data(), sizeof(g));
  EXPECT_EQ(g.cmd, static_cast<std::uint32_t>(ETHTOOL_GSTRINGS));
  EXPECT_EQ(g.string_set, static_cast<std::uint32_t>(ETH_SS_STATS));
  auto stats = BuildStatsRequest(10, 2);
  ASSERT_TRUE(stats);
  EXPECT_EQ(stats->size(), 8u + 12u * 8u);
  EXPECT_FALSE(BuildStatsRequest(kMaxEntries + 1));
}

TEST(EthtoolSsetInfo, ReadsTheCountForTheSet) {
  std::vector<std::uint8_t> answer = BuildSsetInfoRequest(ETH_SS_STATS);
  ASSERT_EQ(answer.size(), 20u);
  const std::uint32_t count = 1843;
  std::memcpy(answer.data() + 16, &count, sizeof(count));
  auto n = DecodeSsetInfo(answer, ETH_SS_STATS);
  ASSERT_TRUE(n);
  EXPECT_EQ(*n, 1843u);

  // The driver has no such set: the kernel clears the bit.
  std::vector<std::uint8_t> none = BuildSsetInfoRequest(ETH_SS_PRIV_FLAGS);
  std::memset(none.data() + 8, 0, 8);
  auto zero = DecodeSsetInfo(none, ETH_SS_PRIV_FLAGS);
  ASSERT_TRUE(zero);
  EXPECT_EQ(*zero, 0u);
  EXPECT_FALSE(DecodeSsetInfo(std::vector<std::uint8_t>(16, 0xff), ETH_SS_STATS));
}

TEST(EthtoolDriverInfo, DecodesMlx5Answer) {
  ethtool_drvinfo raw{};
  raw.cmd = ETHTOOL_GDRVINFO;
  std::strcpy(raw.driver, "mlx5_core");
  std::strcpy(raw.version, "6.1.0-18-amd64");
  std::strcpy(raw.fw_version, "28.39.1002 (MT_0000000838)");
  std::strcpy(raw.bus_info, "0000:17:00.0");
  raw.n_priv_flags = 12;
  raw.n_stats = 1843;
  raw.eedump_len = 0;
  raw.regdump_len = 0;
  std::vector<std::uint8_t> answer(sizeof(raw));
  std::memcpy(answer.data(), &raw, sizeof(raw));
  auto info = DecodeDriverInfo(answer);
  ASSERT_TRUE(info) << info.error().message;
  EXPECT_EQ(info->driver, "mlx5_core");
  EXPECT_EQ(info->version, "6.1.0-18-amd64");
  EXPECT_EQ(info->fw_version, "28.39.1002 (MT_0000000838)");
  EXPECT_EQ(info->bus_info, "0000:17:00.0");
  EXPECT_EQ(info->erom_version, "");
  EXPECT_EQ(info->n_stats, 1843u);
  EXPECT_EQ(info->n_priv_flags, 12u);

  auto short_answer = DecodeDriverInfo(std::span(answer).first(100));
  ASSERT_FALSE(short_answer);
  EXPECT_EQ(short_answer.error().message, "ethtool GDRVINFO answer: 100 bytes, expected 196");
}

TEST(EthtoolDriverInfo, FieldWithoutNulIsBounded) {
  ethtool_drvinfo raw{};
  std::memset(raw.driver, 'x', sizeof(raw.driver));  // no NUL: must not run into version
  std::strcpy(raw.version, "1.0");
  std::vector<std::uint8_t> answer(sizeof(raw));
  std::memcpy(answer.data(), &raw, sizeof(raw));
  auto info = DecodeDriverInfo(answer);
  ASSERT_TRUE(info);
  EXPECT_EQ(info->driver, std::string(32, 'x'));
  EXPECT_EQ(info->version, "1.0");
}

std::vector<std::uint8_t> LinkSettingsAnswer(std::uint32_t speed, std::int8_t nwords,
                                             std::size_t words_present) {
  ethtool_link_settings raw{};
  raw.cmd = ETHTOOL_GLINKSETTINGS;
  raw.speed = speed;
  raw.duplex = DUPLEX_FULL;
  raw.port = PORT_DA;
  raw.autoneg = AUTONEG_ENABLE;
  raw.link_mode_masks_nwords = nwords;
  std::vector<std::uint8_t> out(sizeof(raw) + 3 * words_present * 4, 0);
  std::memcpy(out.data(), &raw, sizeof(raw));
  for (std::size_t i = 0; i < 3 * words_present; ++i) {
    const std::uint32_t w = 0x1000u + static_cast<std::uint32_t>(i);
    std::memcpy(out.data() + sizeof(raw) + i * 4, &w, 4);
  }
  return out;
}

TEST(EthtoolLinkSettings, HandshakeAnswerAsksForWords) {
  auto s = DecodeLinkSettings(LinkSettingsAnswer(400000, -4, 0));
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->handshake_words, 4);
  EXPECT_TRUE(s->supported.empty());
  const std::vector<std::uint8_t> second = BuildLinkSettingsRequest(4);
  EXPECT_EQ(second.size(), 48u + 3u * 4u * 4u);
  EXPECT_EQ(static_cast<std::int8_t>(second[15]), 4);  // link_mode_masks_nwords
}

TEST(EthtoolLinkSettings, Decodes400GDirectAttach) {
  auto s = DecodeLinkSettings(LinkSettingsAnswer(400000, 4, 4));
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_FALSE(s->handshake_words);
  EXPECT_EQ(s->speed_mbps, 400000u);
  EXPECT_EQ(s->speed_bytes_per_second, 50000000000u);
  EXPECT_EQ(DuplexName(s->duplex), "full");
  EXPECT_EQ(PortName(s->port), "da");
  EXPECT_TRUE(s->autoneg);
  ASSERT_EQ(s->supported.size(), 4u);
  EXPECT_EQ(s->supported[0], 0x1000u);
  EXPECT_EQ(s->advertising[0], 0x1004u);
  EXPECT_EQ(s->lp_advertising[3], 0x100bu);
}

TEST(EthtoolLinkSettings, UnknownSpeedWhenLinkDown) {
  auto s = DecodeLinkSettings(LinkSettingsAnswer(static_cast<std::uint32_t>(SPEED_UNKNOWN), 0, 0));
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->speed_mbps);
  EXPECT_FALSE(s->speed_bytes_per_second);
}

TEST(EthtoolLinkSettings, RejectsMissingBitmaps) {
  auto s = DecodeLinkSettings(LinkSettingsAnswer(100000, 4, 3));
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message,
            "ethtool GLINKSETTINGS answer: link_mode_masks_nwords 4 needs 96 bytes, buffer has 84");
  EXPECT_FALSE(DecodeLinkSettings(std::vector<std::uint8_t>(47, 0)));
}

}  // namespace
}  // namespace rocewatch::ethtool
