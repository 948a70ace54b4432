#include "exporter/optics/decode_common.h"

#include <cstdio>

#include "exporter/optics/identifiers.h"

namespace rocewatch::optics::detail {

Result<std::uint8_t> CheckLowerPage(const EepromImage& image, std::string_view decoder,
                                    bool (*accepts)(std::uint8_t)) {
  auto lower = image.Lower(kI2cAddressA0);
  if (!lower || lower->empty()) {
    return Error{"EEPROM image has no lower page (I2C address 0x50, bytes 0-127)"};
  }
  if (lower->size() < kHalfPageSize) {
    return Error{"EEPROM lower page is truncated: " + std::to_string(lower->size()) + " of " +
                 std::to_string(kHalfPageSize) + " bytes"};
  }
  const std::uint8_t identifier = (*lower)[0];
  if (!accepts(identifier)) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "0x%02x", unsigned{identifier});
    return Error{"module identifier " + std::string(buf) + " (" + IdentifierName(identifier) +
                 ") at byte 0 is not a " + std::string(decoder) + " module"};
  }
  return identifier;
}

bool CompletePage(const EepromImage& image, PageId id, ModuleInfo& info) {
  auto page = image.Upper(id);
  if (!page) return false;
  if (page->size() < kHalfPageSize) {
    info.warnings.push_back(PageName(id) + " is truncated: " + std::to_string(page->size()) +
                            " of " + std::to_string(kHalfPageSize) + " bytes");
    return false;
  }
  return true;
}

std::string Ascii(const EepromImage& image, PageId id, unsigned first, unsigned last) {
  if (last < first) return "";
  auto bytes = image.Bytes(id, first, last - first + 1);
  if (!bytes) return "";
  std::size_t end = bytes->size();
  while (end > 0 && ((*bytes)[end - 1] == ' ' || (*bytes)[end - 1] == 0)) --end;
  std::string out;
  for (std::size_t i = 0; i < end; ++i) {
    const std::uint8_t c = (*bytes)[i];
    out.push_back(c >= 0x20 && c <= 0x7e ? static_cast<char>(c) : '_');
  }
  return out;
}

std::string Oui(const EepromImage& image, PageId id, unsigned offset) {
  auto bytes = image.Bytes(id, offset, 3);
  if (!bytes) return "";
  char buf[16];
  std::snprintf(buf, sizeof buf, "%02x:%02x:%02x", unsigned{(*bytes)[0]}, unsigned{(*bytes)[1]},
                unsigned{(*bytes)[2]});
  return buf;
}

std::string ManufactureDate(std::string_view date_code) {
  if (date_code.size() < 6) return "";
  for (std::size_t i = 0; i < 6; ++i) {
    if (date_code[i] < '0' || date_code[i] > '9') return "";
  }
  const int month = (date_code[2] - '0') * 10 + (date_code[3] - '0');
  const int day = (date_code[4] - '0') * 10 + (date_code[5] - '0');
  if (month < 1 || month > 12 || day < 1 || day > 31) return "";
  return "20" + std::string(date_code.substr(0, 2)) + "-" + std::string(date_code.substr(2, 2)) +
         "-" + std::string(date_code.substr(4, 2));
}

std::optional<bool> Bit(const EepromImage& image, PageId id, unsigned offset, unsigned bit) {
  auto byte = image.Byte(id, offset);
  if (!byte || bit > 7) return std::nullopt;
  return ((*byte >> bit) & 1u) != 0;
}

std::optional<Thresholds> ReadThresholds(const EepromImage& image, PageId id, unsigned offset,
                                         double scale, bool is_signed) {
  double values[4];
  for (unsigned i = 0; i < 4; ++i) {
    if (is_signed) {
      auto v = image.S16(id, offset + 2 * i);
      if (!v) return std::nullopt;
      values[i] = *v * scale;
    } else {
      auto v = image.U16(id, offset + 2 * i);
      if (!v) return std::nullopt;
      values[i] = *v * scale;
    }
  }
  return Thresholds{values[0], values[1], values[2], values[3]};
}

void SetIdentifier(ModuleInfo& info, std::uint8_t identifier) {
  info.identifier = identifier;
  info.identifier_name = IdentifierName(identifier);
}

}  // namespace rocewatch::optics::detail
