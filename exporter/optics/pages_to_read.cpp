#include "exporter/optics/pages_to_read.h"

#include "exporter/optics/identifiers.h"

namespace rocewatch::optics {
namespace {

// SFF-8472 rev 12.4 Table 8-5: A0h byte 92 bit 6, digital diagnostic monitoring implemented.
constexpr unsigned kSff8472DiagnosticTypeOffset = 92;
constexpr std::uint8_t kSff8472DdmImplementedBit = 1u << 6;
// SFF-8636 rev 2.10a Table 6-2: byte 2 bit 2, Flat_mem (upper page 00h only).
constexpr unsigned kStatusOffset = 2;
constexpr std::uint8_t kSff8636FlatMemBit = 1u << 2;
constexpr std::uint8_t kSff8636ThresholdsPage = 0x03;
// CMIS lower page byte 2 bit 7, MemoryModel (1 = flat).
constexpr std::uint8_t kCmisFlatMemBit = 1u << 7;
constexpr std::uint8_t kCmisAdvertisingPage = 0x01;
constexpr std::uint8_t kCmisThresholdsPage = 0x02;
constexpr std::uint8_t kCmisLaneStatusPage = 0x11;
// CMIS 5.0 Table 8-40: page 01h byte 142 bits 1-0, banks supported (0: bank 0, 1: banks 0-1,
// 2: banks 0-3).
constexpr unsigned kCmisPagesAdvertisingOffset = 142;
constexpr std::uint8_t kCmisBanksMask = 0x03;

PageRequest LowerHalf(std::uint8_t i2c_address) { return {{i2c_address, 0, 0}, 0, 128}; }
PageRequest UpperPage(std::uint8_t bank, std::uint8_t page) {
  return {{kI2cAddressA0, bank, page}, 128, 128};
}

}  // namespace

std::vector<PageRequest> PagesToRead(const EepromImage& known) {
  std::vector<PageRequest> reads = {LowerHalf(kI2cAddressA0)};
  auto identifier = known.Byte({}, 0);
  if (!identifier) return reads;
  switch (FamilyOf(*identifier)) {
    case Family::kSff8472: {
      auto diagnostics = known.Byte({}, kSff8472DiagnosticTypeOffset);
      if (diagnostics && (*diagnostics & kSff8472DdmImplementedBit)) {
        reads.push_back(LowerHalf(kI2cAddressA2));
      }
      return reads;
    }
    case Family::kSff8636: {
      reads.push_back(UpperPage(0, 0x00));
      auto status = known.Byte({}, kStatusOffset);
      if (status && !(*status & kSff8636FlatMemBit)) {
        reads.push_back(UpperPage(0, kSff8636ThresholdsPage));
      }
      return reads;
    }
    case Family::kCmis: {
      reads.push_back(UpperPage(0, 0x00));
      auto status = known.Byte({}, kStatusOffset);
      if (!status || (*status & kCmisFlatMemBit)) return reads;
      reads.push_back(UpperPage(0, kCmisAdvertisingPage));
      reads.push_back(UpperPage(0, kCmisThresholdsPage));
      unsigned banks = 1;
      if (auto pages =
              known.Byte({kI2cAddressA0, 0, kCmisAdvertisingPage}, kCmisPagesAdvertisingOffset)) {
        const unsigned code = *pages & kCmisBanksMask;
        banks = code == 1 ? 2 : code == 2 ? 4 : 1;
      }
      for (unsigned bank = 0; bank < banks; ++bank) {
        reads.push_back(UpperPage(static_cast<std::uint8_t>(bank), kCmisLaneStatusPage));
      }
      return reads;
    }
    case Family::kUnknown:
      break;
  }
  return reads;
}

std::vector<PageRequest> PagesToRead(std::span<const std::uint8_t> lower_page) {
  EepromImage image;
  image.SetLower(kI2cAddressA0, lower_page);
  return PagesToRead(image);
}

}  // namespace rocewatch::optics
