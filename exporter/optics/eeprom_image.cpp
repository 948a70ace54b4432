#include "exporter/optics/eeprom_image.h"

#include <algorithm>
#include <cstdio>

#include "exporter/optics/identifiers.h"

namespace rocewatch::optics {
namespace {

// SFF-8472: A0h and A2h are 256-byte address spaces; ethtool's raw layout
// is A0h 0-255 followed by A2h 0-255 (ETH_MODULE_SFF_8472_LEN = 512).
constexpr std::size_t kSff8472AddressSpace = 256;
constexpr std::size_t kSff8472RawMax = 2 * kSff8472AddressSpace;
// The linear layout holds the lower page and upper pages 00h-FFh of bank 0.
constexpr std::size_t kLinearRawMax = kHalfPageSize + 256 * kHalfPageSize;
// Byte 2 bits that say a module has no pages beyond 00h: SFF-8636 rev 2.10a Table 6-2
// (Flat_mem, bit 2) and CMIS lower page byte 2 (MemoryModel, bit 7).
constexpr unsigned kStatusOffset = 2;
constexpr std::uint8_t kSff8636FlatMemBit = 1u << 2;
constexpr std::uint8_t kCmisFlatMemBit = 1u << 7;
// ethtool's ioctl dump sizes: SFF-8636 paged modules 640 bytes (ETH_MODULE_SFF_8636_MAX_LEN),
// CMIS paged modules 512 bytes (lower page and pages 00h-02h, mlxsw's
// ETH_MODULE_SFF_8472_LEN for QSFP-DD/OSFP).
constexpr unsigned kSff8636RawLastPage = 0x03;
constexpr unsigned kCmisRawLastPage = 0x02;

std::span<const std::uint8_t> Clip(std::span<const std::uint8_t> bytes) {
  return bytes.first(std::min(bytes.size(), kHalfPageSize));
}

std::string Hex2(unsigned v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%02xh", v & 0xffu);
  return buf;
}

}  // namespace

std::string PageName(PageId id) {
  std::string name;
  if (id.i2c_address == kI2cAddressA2) {
    name = "A2h ";
  } else if (id.i2c_address != kI2cAddressA0) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "I2C 0x%02x ", unsigned{id.i2c_address});
    name = buf;
  }
  if (id.bank != 0) name += "bank " + std::to_string(id.bank) + " ";
  return name + "page " + Hex2(id.page);
}

RawLayout RawLayoutFor(std::uint8_t identifier) {
  return FamilyOf(identifier) == Family::kSff8472 ? RawLayout::kSff8472 : RawLayout::kLinearPages;
}

void EepromImage::SetLower(std::uint8_t i2c_address, std::span<const std::uint8_t> bytes) {
  auto clipped = Clip(bytes);
  lower_[i2c_address].assign(clipped.begin(), clipped.end());
}

void EepromImage::SetUpper(PageId id, std::span<const std::uint8_t> bytes) {
  auto clipped = Clip(bytes);
  upper_[id].assign(clipped.begin(), clipped.end());
}

std::optional<std::span<const std::uint8_t>> EepromImage::Lower(std::uint8_t i2c_address) const {
  auto it = lower_.find(i2c_address);
  if (it == lower_.end()) return std::nullopt;
  return std::span<const std::uint8_t>(it->second);
}

std::optional<std::span<const std::uint8_t>> EepromImage::Upper(PageId id) const {
  auto it = upper_.find(id);
  if (it == upper_.end()) return std::nullopt;
  return std::span<const std::uint8_t>(it->second);
}

std::optional<std::span<const std::uint8_t>> EepromImage::Bytes(PageId id, unsigned offset,
                                                                std::size_t length) const {
  if (length == 0 || offset >= 2 * kHalfPageSize) return std::nullopt;
  const bool upper = offset >= kHalfPageSize;
  const std::size_t start = upper ? offset - kHalfPageSize : offset;
  if (length > kHalfPageSize - start) return std::nullopt;  // would cross into the other half
  auto half = upper ? Upper(id) : Lower(id.i2c_address);
  if (!half || half->size() < start + length) return std::nullopt;
  return half->subspan(start, length);
}

std::optional<std::uint8_t> EepromImage::Byte(PageId id, unsigned offset) const {
  auto b = Bytes(id, offset, 1);
  if (!b) return std::nullopt;
  return (*b)[0];
}

std::optional<std::uint16_t> EepromImage::U16(PageId id, unsigned offset) const {
  auto b = Bytes(id, offset, 2);
  if (!b) return std::nullopt;
  return static_cast<std::uint16_t>((unsigned{(*b)[0]} << 8) | (*b)[1]);
}

std::optional<std::int16_t> EepromImage::S16(PageId id, unsigned offset) const {
  auto u = U16(id, offset);
  if (!u) return std::nullopt;
  return static_cast<std::int16_t>(*u);  // two's complement, well defined since C++20
}

std::optional<std::uint32_t> EepromImage::U32(PageId id, unsigned offset) const {
  auto b = Bytes(id, offset, 4);
  if (!b) return std::nullopt;
  return (std::uint32_t{(*b)[0]} << 24) | (std::uint32_t{(*b)[1]} << 16) |
         (std::uint32_t{(*b)[2]} << 8) | std::uint32_t{(*b)[3]};
}

std::vector<std::uint8_t> EepromImage::LowerAddresses() const {
  std::vector<std::uint8_t> out;
  for (const auto& [address, bytes] : lower_) out.push_back(address);
  return out;
}

std::vector<PageId> EepromImage::UpperPages() const {
  std::vector<PageId> out;
  for (const auto& [id, bytes] : upper_) out.push_back(id);
  return out;
}

Result<EepromImage> EepromImage::FromRaw(std::span<const std::uint8_t> raw) {
  if (raw.empty()) return Error{"EEPROM dump is empty: expected at least the lower page"};
  return FromRaw(raw, RawLayoutFor(raw[0]));
}

Result<EepromImage> EepromImage::FromRaw(std::span<const std::uint8_t> raw, RawLayout layout) {
  if (raw.empty()) return Error{"EEPROM dump is empty: expected at least the lower page"};
  const std::size_t max = layout == RawLayout::kSff8472 ? kSff8472RawMax : kLinearRawMax;
  if (raw.size() > max) {
    return Error{"EEPROM dump is " + std::to_string(raw.size()) + " bytes, longer than the " +
                 std::to_string(max) + " bytes of an ethtool raw dump of this module type (" +
                 (layout == RawLayout::kSff8472 ? "SFF-8472: A0h then A2h" : "paged") + ")"};
  }
  EepromImage image;
  for (std::size_t start = 0, chunk = 0; start < raw.size(); start += kHalfPageSize, ++chunk) {
    auto bytes = raw.subspan(start, std::min(kHalfPageSize, raw.size() - start));
    if (layout == RawLayout::kSff8472) {
      const std::uint8_t address = chunk < 2 ? kI2cAddressA0 : kI2cAddressA2;
      if (chunk % 2 == 0) {
        image.SetLower(address, bytes);
      } else {
        image.SetUpper({address, 0, 0}, bytes);
      }
    } else if (chunk == 0) {
      image.SetLower(kI2cAddressA0, bytes);
    } else {
      image.SetUpper({kI2cAddressA0, 0, static_cast<std::uint8_t>(chunk - 1)}, bytes);
    }
  }
  return image;
}

std::vector<std::uint8_t> ToRaw(const EepromImage& image) {
  std::vector<std::uint8_t> out;
  auto lower = image.Lower(kI2cAddressA0);
  if (!lower || lower->empty()) return out;
  auto append = [&out](std::optional<std::span<const std::uint8_t>> half) {
    const std::size_t start = out.size();
    out.resize(start + kHalfPageSize, 0);
    if (half) std::copy(half->begin(), half->end(), out.begin() + static_cast<long>(start));
  };
  const std::uint8_t identifier = (*lower)[0];
  const std::uint8_t status = lower->size() > kStatusOffset ? (*lower)[kStatusOffset] : 0;
  append(lower);
  append(image.Upper({kI2cAddressA0, 0, 0}));
  switch (FamilyOf(identifier)) {
    case Family::kSff8472:
      if (image.Lower(kI2cAddressA2)) {
        append(image.Lower(kI2cAddressA2));
        append(image.Upper({kI2cAddressA2, 0, 0}));
      }
      return out;
    case Family::kSff8636:
      if (status & kSff8636FlatMemBit) return out;
      for (unsigned page = 1; page <= kSff8636RawLastPage; ++page) {
        append(image.Upper({kI2cAddressA0, 0, static_cast<std::uint8_t>(page)}));
      }
      return out;
    case Family::kCmis:
      if (status & kCmisFlatMemBit) return out;
      for (unsigned page = 1; page <= kCmisRawLastPage; ++page) {
        append(image.Upper({kI2cAddressA0, 0, static_cast<std::uint8_t>(page)}));
      }
      return out;
    case Family::kUnknown:
      break;
  }
  unsigned last = 0;
  for (PageId id : image.UpperPages()) {
    if (id.i2c_address == kI2cAddressA0 && id.bank == 0) last = std::max<unsigned>(last, id.page);
  }
  for (unsigned page = 1; page <= last; ++page) {
    append(image.Upper({kI2cAddressA0, 0, static_cast<std::uint8_t>(page)}));
  }
  return out;
}

}  // namespace rocewatch::optics
