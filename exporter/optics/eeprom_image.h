#pragma once

// EepromImage: the bytes read from a transceiver module's EEPROM, kept as 128-byte pages the
// way the modules and the kernel address them (ethtool netlink MODULE_EEPROM_GET):
//   - the lower half (bytes 0-127) of an I2C address: 0x50 (A0h) always, and 0x51 (A2h) for
//     SFF-8472 diagnostics;
//   - upper pages (bytes 128-255 when that page is selected), keyed by (I2C address, bank, page).
// Every accessor is bounds checked against what was actually read and answers std::nullopt
// outside it; nothing here reads past a short page.

#include <compare>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rocewatch/result.h"

namespace rocewatch::optics {

inline constexpr std::uint8_t kI2cAddressA0 = 0x50;  // identity, SFF-8636/CMIS everything
inline constexpr std::uint8_t kI2cAddressA2 = 0x51;  // SFF-8472 diagnostics
inline constexpr std::size_t kHalfPageSize = 128;    // a lower half or one upper page

// Selects a 256-byte window: bytes 0-127 are the lower half of `i2c_address`, bytes 128-255
// are upper page (`bank`, `page`) of that address.
struct PageId {
  std::uint8_t i2c_address = kI2cAddressA0;
  std::uint8_t bank = 0;
  std::uint8_t page = 0;
  auto operator<=>(const PageId&) const = default;
};

// "page 03h", "bank 1 page 11h", "A2h page 00h": how error messages name a page.
std::string PageName(PageId id);

// How `ethtool -m DEV raw on` lays a module out in one flat buffer (the ioctl
// ETHTOOL_GMODULEEEPROM layout; ethtool falls back to the ioctl for full raw and hex dumps).
enum class RawLayout {
  // SFF-8472 (SFP): A0h bytes 0-255, then A2h bytes 0-255 when the module has diagnostics
  // (256 or 512 bytes).
  kSff8472,
  // SFF-8636 and CMIS: lower page, then upper page 00h, 01h, 02h, 03h ... of bank 0, each 128
  // bytes (SFF-8636: 256 or 640 bytes; CMIS: 256 for flat memory, up to 512 with pages
  // 01h-02h; banked pages such as 11h are never part of it).
  kLinearPages,
};

// The layout ethtool uses for the module whose byte 0 is `identifier`; kLinearPages for
// identifiers it does not know.
RawLayout RawLayoutFor(std::uint8_t identifier);

class EepromImage {
 public:
  // Stores the lower half of `i2c_address`. At most 128 bytes are kept; a shorter span is kept
  // as read (a truncated read), and decoders report it.
  void SetLower(std::uint8_t i2c_address, std::span<const std::uint8_t> bytes);
  // Stores an upper page (its bytes 128..). At most 128 bytes are kept.
  void SetUpper(PageId id, std::span<const std::uint8_t> bytes);

  // The lower half of `i2c_address` as read; nullopt when it was not read.
  std::optional<std::span<const std::uint8_t>> Lower(
      std::uint8_t i2c_address = kI2cAddressA0) const;
  // Upper page `id` as read; nullopt when it was not read.
  std::optional<std::span<const std::uint8_t>> Upper(PageId id) const;
  bool HasUpper(PageId id) const { return Upper(id).has_value(); }

  // Byte `offset` (0-255) of the window `id`.
  std::optional<std::uint8_t> Byte(PageId id, unsigned offset) const;
  // Big-endian 16-bit values at `offset` and `offset + 1` of the window `id`.
  std::optional<std::uint16_t> U16(PageId id, unsigned offset) const;
  std::optional<std::int16_t> S16(PageId id, unsigned offset) const;
  // Big-endian 32-bit value at `offset`..`offset + 3`.
  std::optional<std::uint32_t> U32(PageId id, unsigned offset) const;
  // `length` bytes from `offset`; nullopt unless all of them lie in one read half.
  std::optional<std::span<const std::uint8_t>> Bytes(PageId id, unsigned offset,
                                                     std::size_t length) const;

  // The addresses whose lower half was read, and the upper pages, in ascending order.
  std::vector<std::uint8_t> LowerAddresses() const;
  std::vector<PageId> UpperPages() const;
  bool empty() const { return lower_.empty() && upper_.empty(); }

  // Builds an image from the flat buffer `ethtool -m DEV raw on` writes, in the layout of the
  // module's identifier (byte 0). Rejects an empty buffer and one longer than the layout can
  // address; a buffer that ends inside a page keeps that page short.
  static Result<EepromImage> FromRaw(std::span<const std::uint8_t> raw);
  static Result<EepromImage> FromRaw(std::span<const std::uint8_t> raw, RawLayout layout);

  // Builds an image from the text `ethtool -m DEV hex on` prints: an "Offset  Values" header
  // and lines "0x0000:  03 04 07 ...". Offsets without "Page:" headers are offsets into the
  // flat raw layout (as FromRaw). Blocks headed by "I2C Address: 0x50", "Bank: 0x0" and
  // "Page: 0x11" (ethtool's "pages on" dump) give each block's page; their offsets are 0-255
  // within that page's window. Whitespace is free; anything else is an error naming its line.
  static Result<EepromImage> FromHexDump(std::string_view text);

 private:
  std::map<std::uint8_t, std::vector<std::uint8_t>> lower_;
  std::map<PageId, std::vector<std::uint8_t>> upper_;
};

// The inverse of FromRaw: the flat buffer `ethtool -m DEV raw on` would write for this image
// (layout from byte 0). Pages the layout needs but the image lacks are written as zeros; pages
// the layout cannot hold (banks, pages above 02h for CMIS, above 03h for SFF-8636) are left out.
// Empty when the image has no lower page.
std::vector<std::uint8_t> ToRaw(const EepromImage& image);

// Every page of the image as ethtool's paged hex dump ("I2C Address:", "Bank:", "Page:" headers,
// then "Offset  Values" lines), which FromHexDump reads back, banked pages included.
std::string ToPagedHexDump(const EepromImage& image);

}  // namespace rocewatch::optics
