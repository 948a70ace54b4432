// EepromImage: bounds-checked page views, the ethtool raw and hex dump formats, PagesToRead.

#include "exporter/optics/eeprom_image.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "exporter/optics/decode.h"
#include "exporter/optics/pages_to_read.h"
#include "exporter/optics/images.h"

namespace rocewatch::optics {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::kA0;
using testing::kA2;
using testing::kPage00;
using testing::kPage01;
using testing::kPage02;
using testing::kPage03;
using testing::kPage11Bank0;
using testing::kPage11Bank1;

// `ethtool -m DEV hex on` for a 25GBASE-SR SFP28 without diagnostics: the ioctl returns A0h
// bytes 0-255 and dump_hex() prints them exactly like this (tabs, trailing spaces and all).
constexpr const char kSfpHexDump[] =
    "Offset\t\tValues\n"
    "------\t\t------\n"
    "0x0000:\t\t03 04 07 00 00 00 00 00 00 00 00 00 00 00 00 00 \n"
    "0x0010:\t\t00 00 00 00 4d 65 6c 6c 61 6e 6f 78 20 20 20 20 \n"
    "0x0020:\t\t20 20 20 20 02 00 02 c9 4d 4d 41 32 50 30 30 2d \n"
    "0x0030:\t\t41 53 20 20 20 20 20 20 41 33 20 20 03 52 00 00 \n"
    "0x0040:\t\t00 00 00 00 4d 54 32 31 30 31 46 54 30 30 31 32 \n"
    "0x0050:\t\t33 20 20 20 32 31 30 31 31 35 20 20 00 00 08 00 \n"
    "0x0060:\t\t00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 \n"
    "0x0070:\t\t00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 \n"
    "0x0080:\t\t00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 \n"
    "0x0090:\t\t00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 \n"
    "0x00a0:\t\t00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 \n"
    "0x00b0:\t\t00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 \n"
    "0x00c0:\t\t00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 \n"
    "0x00d0:\t\t00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 \n"
    "0x00e0:\t\t00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 \n"
    "0x00f0:\t\t00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 \n";

std::vector<std::uint8_t> Bytes(std::size_t n, std::uint8_t first) {
  std::vector<std::uint8_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint8_t>(first + i);
  return v;
}

std::vector<std::uint8_t> Copy(std::optional<std::span<const std::uint8_t>> s) {
  if (!s) return {};
  return {s->begin(), s->end()};
}

TEST(OpticsEepromImageTest, AccessorsReadOnlyWhatWasStored) {
  EepromImage image;
  image.SetLower(kI2cAddressA0, Bytes(128, 0));  // bytes 0..127 hold 0..127
  image.SetUpper(kPage03, Bytes(10, 0xF0));      // page 03h bytes 128..137
  EXPECT_EQ(image.Byte(kPage03, 5), 5);          // lower half, whatever the page
  EXPECT_EQ(image.Byte(kPage03, 128), 0xF0);
  EXPECT_EQ(image.Byte(kPage03, 137), 0xF9);
  EXPECT_EQ(image.Byte(kPage03, 138), std::nullopt);  // past the short page
  EXPECT_EQ(image.Byte(kPage03, 256), std::nullopt);  // past the window
  EXPECT_EQ(image.Byte(kPage00, 128), std::nullopt);  // page 00h was not read
  EXPECT_EQ(image.Byte(kA2, 0), std::nullopt);        // A2h was not read
  EXPECT_EQ(image.U16(kPage03, 128), 0xF0F1);
  EXPECT_EQ(image.S16(kPage03, 128), -3855);  // 0xF0F1 as two's complement
  EXPECT_EQ(image.U32(kPage00, 4), 0x04050607u);
  EXPECT_EQ(image.U16(kPage03, 137), std::nullopt);  // second byte missing
  EXPECT_EQ(image.U16(kPage03, 127), std::nullopt);  // would cross lower/upper
  EXPECT_EQ(image.Bytes(kPage00, 120, 8)->size(), 8u);
  EXPECT_EQ(image.Bytes(kPage00, 120, 9), std::nullopt);
  EXPECT_EQ(image.Bytes(kPage00, 0, 0), std::nullopt);
}

TEST(OpticsEepromImageTest, KeepsAtMostOneHalfPage) {
  EepromImage image;
  image.SetLower(kI2cAddressA0, Bytes(300, 0));
  image.SetUpper(kPage01, Bytes(200, 0));
  EXPECT_EQ(image.Lower()->size(), 128u);
  EXPECT_EQ(image.Upper(kPage01)->size(), 128u);
}

TEST(OpticsEepromImageTest, NamesPages) {
  EXPECT_EQ(PageName(kPage03), "page 03h");
  EXPECT_EQ(PageName(kPage11Bank1), "bank 1 page 11h");
  EXPECT_EQ(PageName(kA2), "A2h page 00h");
  EXPECT_EQ(PageName({0x56, 0, 0}), "I2C 0x56 page 00h");
}

TEST(OpticsEepromImageTest, RawSfpLayoutIsA0hThenA2h) {
  std::vector<std::uint8_t> raw = Bytes(512, 0);
  raw[0] = 0x03;  // SFP
  auto image = EepromImage::FromRaw(raw);
  ASSERT_TRUE(image.ok()) << image.error().message;
  EXPECT_EQ(image->Byte(kA0, 127), 127);
  EXPECT_EQ(image->Byte(kA0, 128), 128);  // A0h upper half
  EXPECT_EQ(image->Byte(kA2, 0), 0);      // raw byte 256
  EXPECT_EQ(image->Byte(kA2, 96), 96);    // raw byte 352
  EXPECT_EQ(image->Byte(kA2, 255), 255);  // raw byte 511
  EXPECT_THAT(image->LowerAddresses(), ElementsAre(0x50, 0x51));

  auto short_a2 = EepromImage::FromRaw(std::span(raw).first(300));
  ASSERT_TRUE(short_a2.ok());
  EXPECT_EQ(short_a2->Lower(kI2cAddressA2)->size(), 44u);

  auto a0_only = EepromImage::FromRaw(std::span(raw).first(256));
  ASSERT_TRUE(a0_only.ok());
  EXPECT_FALSE(a0_only->Lower(kI2cAddressA2).has_value());

  raw.push_back(0);
  auto too_long = EepromImage::FromRaw(raw);
  ASSERT_FALSE(too_long.ok());
  EXPECT_EQ(too_long.error().message,
            "EEPROM dump is 513 bytes, longer than the 512 bytes of an ethtool raw dump of this "
            "module type (SFF-8472: A0h then A2h)");
}

TEST(OpticsEepromImageTest, RawPagedLayoutIsLowerThenPages) {
  std::vector<std::uint8_t> raw(640, 0);
  raw[0] = 0x11;         // QSFP28
  raw[128] = 0xA0;       // page 00h byte 128
  raw[256] = 0xA1;       // page 01h byte 128
  raw[512 + 48] = 0xA3;  // page 03h byte 176
  auto image = EepromImage::FromRaw(raw);
  ASSERT_TRUE(image.ok()) << image.error().message;
  EXPECT_EQ(image->Byte(kPage00, 128), 0xA0);
  EXPECT_EQ(image->Byte(kPage01, 128), 0xA1);
  EXPECT_EQ(image->Byte(kPage03, 176), 0xA3);
  EXPECT_THAT(image->UpperPages(), ElementsAre(kPage00, kPage01, kPage02, kPage03));
}

TEST(OpticsEepromImageTest, RejectsEmptyDump) {
  auto image = EepromImage::FromRaw(std::span<const std::uint8_t>());
  ASSERT_FALSE(image.ok());
  EXPECT_EQ(image.error().message, "EEPROM dump is empty: expected at least the lower page");
}

TEST(OpticsEepromImageTest, ToRawWritesEthtoolLayouts) {
  EXPECT_EQ(ToRaw(testing::SfpInternalCalibration()).size(), 512u);
  EXPECT_EQ(ToRaw(testing::Qsfp28()).size(), 640u);
  EXPECT_EQ(ToRaw(testing::QsfpDd8Lane()).size(), 512u);
  EXPECT_EQ(ToRaw(testing::CmisFlatMemory()).size(), 256u);
  EXPECT_TRUE(ToRaw(EepromImage()).empty());

  auto raw = ToRaw(testing::Qsfp28());
  EXPECT_EQ(raw[0], 0x11);
  EXPECT_EQ(raw[22], 0x25);       // temperature MSB
  EXPECT_EQ(raw[128 + 20], 'M');  // page 00h byte 148, vendor name
  EXPECT_EQ(raw[512], 0x4B);      // page 03h byte 128, temperature high alarm MSB
}

TEST(OpticsEepromImageTest, RawRoundTripDecodesTheSameModule) {
  for (const auto& [name, image] : testing::AllImages()) {
    SCOPED_TRACE(name);
    auto again = EepromImage::FromRaw(ToRaw(image));
    ASSERT_TRUE(again.ok()) << again.error().message;
    auto a = Decode(image);
    auto b = Decode(*again);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(a->serial_number, b->serial_number);
    EXPECT_EQ(a->temperature_celsius.value, b->temperature_celsius.value);
    EXPECT_EQ(a->temperature_celsius.thresholds.has_value(),
              b->temperature_celsius.thresholds.has_value());
  }
}

TEST(OpticsHexDumpTest, ParsesEthtoolHexOutput) {
  auto image = EepromImage::FromHexDump(kSfpHexDump);
  ASSERT_TRUE(image.ok()) << image.error().message;
  EXPECT_EQ(image->Lower()->size(), 128u);
  EXPECT_EQ(image->Upper(kA0)->size(), 128u);
  auto info = Decode(*image);
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_EQ(info->identifier_name, "SFP");
  EXPECT_EQ(info->vendor_name, "Mellanox");
  EXPECT_EQ(info->vendor_oui, "00:02:c9");
  EXPECT_EQ(info->part_number, "MMA2P00-AS");
  EXPECT_EQ(info->revision, "A3");
  EXPECT_EQ(info->serial_number, "MT2101FT00123");
  EXPECT_EQ(info->manufacture_date, "2021-01-15");
  EXPECT_THAT(info->compliance, ElementsAre("100GBASE-SR4 or 25GBASE-SR"));
  EXPECT_DOUBLE_EQ(*info->wavelength_meters, 850e-9);  // 0x0352
  EXPECT_EQ(info->spec, "SFF-8472 rev 12.3");
  EXPECT_FALSE(info->diagnostics);
}

TEST(OpticsHexDumpTest, ToleratesWhitespaceCrlfAndUppercase) {
  std::string text = kSfpHexDump;
  std::string messy;
  for (char c : text) {
    if (c == '\n') {
      messy += "  \r\n\n";
    } else if (c == '\t') {
      messy += "    ";
    } else {
      messy += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
  }
  // Uppercasing also turned "Offset" into "OFFSET": keep the header as ethtool writes it.
  messy.replace(0, 6, "Offset");
  messy.replace(messy.find("VALUES"), 6, "Values");
  messy.replace(messy.find("0X0000"), 6, "0x0000");
  auto image = EepromImage::FromHexDump("\n  " + messy);
  ASSERT_TRUE(image.ok()) << image.error().message;
  EXPECT_EQ(Copy(image->Lower()), Copy(EepromImage::FromHexDump(kSfpHexDump)->Lower()));
}

TEST(OpticsHexDumpTest, RejectsJunkWithItsLineNumber) {
  std::string text = kSfpHexDump;
  text.replace(text.find("4d 65"), 5, "4d zz");
  auto image = EepromImage::FromHexDump(text);
  ASSERT_FALSE(image.ok());
  EXPECT_EQ(image.error().message, "hex dump line 4: \"zz\" is not a hex byte (two hex digits)");

  auto words = EepromImage::FromHexDump("Offset\t\tValues\nhello world\n");
  ASSERT_FALSE(words.ok());
  EXPECT_EQ(words.error().message,
            "hex dump line 2: expected \"0x0000:  03 04 ...\" (ethtool -m DEV hex on), found "
            "\"hello world\"");

  auto gap = EepromImage::FromHexDump("0x0000:\t\t03 04\n0x0010:\t\t00\n");
  ASSERT_FALSE(gap.ok());
  EXPECT_EQ(gap.error().message,
            "hex dump line 2: offset 0x0010 does not follow the previous line, which ended at "
            "0x0002");

  auto late = EepromImage::FromHexDump("0x0080:\t\t00 01\n");
  ASSERT_FALSE(late.ok());
  EXPECT_THAT(late.error().message, HasSubstr("must start at offset 0x0000"));

  auto nothing = EepromImage::FromHexDump("Offset\t\tValues\n------\t\t------\n");
  ASSERT_FALSE(nothing.ok());
  EXPECT_THAT(nothing.error().message, HasSubstr("no data lines"));

  auto huge = EepromImage::FromHexDump("0xffffffffffffffff:\t\t00 01\n");
  ASSERT_FALSE(huge.ok());
  EXPECT_THAT(huge.error().message, HasSubstr("line 1: offset 0xffffffffffffffff is beyond"));

  auto three_digits = EepromImage::FromHexDump("0x0000:\t\t003\n");
  ASSERT_FALSE(three_digits.ok());
  EXPECT_THAT(three_digits.error().message, HasSubstr("line 1: \"003\" is not a hex byte"));
}

TEST(OpticsHexDumpTest, ReadsPagedDumpsWithBanks) {
  // ethtool's "pages on" shape: headers, a blank line, then dump_hex() with window offsets.
  const std::string text =
      "I2C Address: 0x50\n"
      "Page: 0x0\n"
      "\n"
      "Offset\t\tValues\n"
      "------\t\t------\n"
      "0x0000:\t\t18 52 00 06 \n"
      "\n"
      "Bank: 0x1\n"
      "Page: 0x11\n"
      "\n"
      "Offset\t\tValues\n"
      "------\t\t------\n"
      "0x0080:\t\t01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10 \n"
      "0x0090:\t\t11 12 \n";
  auto image = EepromImage::FromHexDump(text);
  ASSERT_TRUE(image.ok()) << image.error().message;
  EXPECT_EQ(Copy(image->Lower()), (std::vector<std::uint8_t>{0x18, 0x52, 0x00, 0x06}));
  EXPECT_THAT(image->UpperPages(), ElementsAre(kPage11Bank1));
  EXPECT_EQ(image->Upper(kPage11Bank1)->size(), 18u);
  EXPECT_EQ(image->Byte(kPage11Bank1, 145), 0x12);
}

TEST(OpticsHexDumpTest, RejectsBadPagedDumps) {
  auto twice = EepromImage::FromHexDump("Page: 0x3\n0x0080:\t\t00\nPage: 0x3\n0x0080:\t\t01\n");
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().message, "hex dump line 4: page 03h appears again (first at line 2)");

  auto odd_start = EepromImage::FromHexDump("Page: 0x1\n0x0090:\t\t00\n");
  ASSERT_FALSE(odd_start.ok());
  EXPECT_THAT(odd_start.error().message, HasSubstr("a page starts at 0x0000 or 0x0080"));

  auto too_far =
      EepromImage::FromHexDump("Page: 0x1\n0x00f8:\t\t" + std::string(16 * 3, '0') + "\n");
  ASSERT_FALSE(too_far.ok());  // "000000..." is one token, not 16 bytes
  auto beyond = EepromImage::FromHexDump(
      "Page: 0x1\n0x00f8:\t\t00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00\n");
  ASSERT_FALSE(beyond.ok());
  EXPECT_THAT(beyond.error().message, HasSubstr("beyond the 256-byte window of a page"));

  auto bad_page = EepromImage::FromHexDump("Page: 0x100\n0x0080:\t\t00\n");
  ASSERT_FALSE(bad_page.ok());
  EXPECT_THAT(bad_page.error().message, HasSubstr("line 1: expected a number from 0 to 0xff"));

  auto headless = EepromImage::FromHexDump("0x0000:\t\t18\nPage: 0x0\n0x0080:\t\t00\n");
  ASSERT_FALSE(headless.ok());
  EXPECT_THAT(headless.error().message, HasSubstr("data before the first \"Page:\" header"));
}

TEST(OpticsHexDumpTest, PagedDumpRoundTripsEveryPage) {
  for (const auto& [name, image] : testing::AllImages()) {
    SCOPED_TRACE(name);
    auto again = EepromImage::FromHexDump(ToPagedHexDump(image));
    ASSERT_TRUE(again.ok()) << again.error().message;
    EXPECT_EQ(again->LowerAddresses(), image.LowerAddresses());
    ASSERT_EQ(again->UpperPages(), image.UpperPages());
    for (std::uint8_t address : image.LowerAddresses()) {
      EXPECT_EQ(Copy(again->Lower(address)), Copy(image.Lower(address)));
    }
    for (PageId id : image.UpperPages()) {
      EXPECT_EQ(Copy(again->Upper(id)), Copy(image.Upper(id))) << PageName(id);
    }
  }
}

TEST(OpticsPagesToReadTest, Sff8472ReadsA2hOnlyWithDiagnostics) {
  const PageRequest a0{{0x50, 0, 0}, 0, 128};
  const PageRequest a2{{0x51, 0, 0}, 0, 128};
  EXPECT_THAT(PagesToRead(*testing::SfpInternalCalibration().Lower()), ElementsAre(a0, a2));
  auto no_ddm = Copy(testing::SfpInternalCalibration().Lower());
  no_ddm[92] = 0x00;
  EXPECT_THAT(PagesToRead(no_ddm), ElementsAre(a0));
}

TEST(OpticsPagesToReadTest, Sff8636ReadsPage03UnlessFlat) {
  const PageRequest lower{{0x50, 0, 0}, 0, 128};
  const PageRequest page00{kPage00, 128, 128};
  const PageRequest page03{kPage03, 128, 128};
  auto lower_page = Copy(testing::Qsfp28().Lower());
  EXPECT_THAT(PagesToRead(lower_page), ElementsAre(lower, page00, page03));
  lower_page[2] = 0x04;  // Flat_mem
  EXPECT_THAT(PagesToRead(lower_page), ElementsAre(lower, page00));
}

TEST(OpticsPagesToReadTest, CmisAddsBanksOncePage01IsKnown) {
  const PageRequest lower{{0x50, 0, 0}, 0, 128};
  const PageRequest page00{kPage00, 128, 128};
  const PageRequest page01{kPage01, 128, 128};
  const PageRequest page02{kPage02, 128, 128};
  const PageRequest bank0{kPage11Bank0, 128, 128};
  const PageRequest bank1{kPage11Bank1, 128, 128};
  EXPECT_THAT(PagesToRead(*testing::Osfp16Lane().Lower()),
              ElementsAre(lower, page00, page01, page02, bank0));
  EXPECT_THAT(PagesToRead(testing::Osfp16Lane()),
              ElementsAre(lower, page00, page01, page02, bank0, bank1));
  EXPECT_THAT(PagesToRead(testing::QsfpDd8Lane()),
              ElementsAre(lower, page00, page01, page02, bank0));
  EXPECT_THAT(PagesToRead(*testing::CmisFlatMemory().Lower()), ElementsAre(lower, page00));
}

TEST(OpticsPagesToReadTest, UnknownOrEmptyReadsTheLowerPageOnly) {
  const PageRequest lower{{0x50, 0, 0}, 0, 128};
  EXPECT_THAT(PagesToRead(std::vector<std::uint8_t>{0x06}), ElementsAre(lower));  // XFP
  EXPECT_THAT(PagesToRead(std::span<const std::uint8_t>()), ElementsAre(lower));
}

// Every prefix of every dump either decodes or fails with a message; none reads out of bounds
// (run under ASan/UBSan with -DROCEWATCH_SANITIZE=ON).
TEST(OpticsRobustnessTest, EveryTruncationDecodesOrFailsCleanly) {
  for (const auto& [name, image] : testing::AllImages()) {
    SCOPED_TRACE(name);
    const auto raw = ToRaw(image);
    for (std::size_t n = 0; n <= raw.size(); ++n) {
      auto info = DecodeDump(std::span(raw).first(n));
      if (!info.ok()) {
        EXPECT_FALSE(info.error().message.empty()) << n;
      }
    }
    const std::string hex = ToPagedHexDump(image);
    for (std::size_t n = 0; n <= hex.size(); n += 7) {
      auto bytes = std::span(reinterpret_cast<const std::uint8_t*>(hex.data()), n);
      auto info = DecodeDump(bytes);
      if (!info.ok()) {
        EXPECT_FALSE(info.error().message.empty()) << n;
      }
    }
  }
}

TEST(OpticsRobustnessTest, FlippedBytesNeverBreakTheDecoders) {
  for (const auto& [name, image] : testing::AllImages()) {
    SCOPED_TRACE(name);
    auto raw = ToRaw(image);
    for (std::size_t i = 1; i < raw.size(); ++i) {
      auto flipped = raw;
      flipped[i] ^= 0xFF;
      auto info = DecodeDump(flipped);
      EXPECT_TRUE(info.ok()) << "byte " << i << ": " << info.error().message;
    }
  }
}

}  // namespace
}  // namespace rocewatch::optics
