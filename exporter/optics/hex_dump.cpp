// EepromImage::FromHexDump and ToPagedHexDump: the text `ethtool -m DEV hex on` prints.
//
// ethtool's dump_hex() writes "Offset\t\tValues\n------\t\t------", then for every 16 bytes
// "\n0x%04x:\t\t" followed by "%02x " per byte, and a final newline. With "pages on" each block
// is preceded by "I2C Address: 0x%02x", "Bank: 0x%x" (each only where relevant) and
// "Page: 0x%x" lines and a blank line, and its offsets are those of the page's window
// (0x0080 for an upper page).

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "exporter/optics/eeprom_image.h"
#include "rocewatch/strings.h"

namespace rocewatch::optics {
namespace {

constexpr std::size_t kWindowSize = 2 * kHalfPageSize;
constexpr std::size_t kBytesPerLine = 16;

bool IsHexDigit(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

unsigned HexValue(char c) {
  if (c >= '0' && c <= '9') return static_cast<unsigned>(c - '0');
  if (c >= 'a' && c <= 'f') return static_cast<unsigned>(c - 'a' + 10);
  return static_cast<unsigned>(c - 'A' + 10);
}

std::string Hex(std::size_t v, int width) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%0*zx", width, v);
  return buf;
}

std::string LineError(int line, const std::string& what) {
  return "hex dump line " + std::to_string(line) + ": " + what;
}

// Splits on ASCII whitespace, dropping empty fields.
std::vector<std::string_view> Fields(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    std::size_t start = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

struct Block {
  PageId id;
  int header_line = 0;    // 0 when the block has no "Page:" header (flat dump)
  int first_line = 0;     // first data line
  std::size_t start = 0;  // offset of the first byte
  std::vector<std::uint8_t> bytes;
};

struct Parser {
  std::vector<Block> blocks;
  Block current;
  bool paged = false;
  bool header_open = false;  // header lines seen since the last data line

  void Flush() {
    if (!current.bytes.empty()) blocks.push_back(std::move(current));
    current = Block{};
  }

  // Handles "I2C Address: 0x50", "Bank: 0x0" and "Page: 0x11". Returns an error message, or
  // nullopt when the line was a header, or "" when it was not one.
  std::optional<std::string> Header(std::string_view line, int line_number) {
    static constexpr std::string_view kNames[] = {"I2C Address:", "Bank:", "Page:"};
    for (std::size_t which = 0; which < 3; ++which) {
      if (!StartsWith(line, kNames[which])) continue;
      auto value = ParseU64Auto(line.substr(kNames[which].size()));
      if (!value || *value > 0xff) {
        return LineError(line_number, "expected a number from 0 to 0xff after \"" +
                                          std::string(kNames[which]) + "\", found " + Quote(line));
      }
      if (!header_open) {
        Flush();
        header_open = true;
        current.header_line = line_number;
      }
      paged = true;
      const auto v = static_cast<std::uint8_t>(*value);
      if (which == 0) current.id.i2c_address = v;
      if (which == 1) current.id.bank = v;
      if (which == 2) current.id.page = v;
      return std::nullopt;
    }
    return std::string();
  }

  std::optional<std::string> Data(std::string_view line, int line_number) {
    const std::size_t colon = line.find(':');
    std::string_view offset_text = line.substr(0, colon);
    if (colon == std::string_view::npos || offset_text.size() < 3 ||
        !(StartsWith(offset_text, "0x") || StartsWith(offset_text, "0X"))) {
      return LineError(
          line_number,
          "expected \"0x0000:  03 04 ...\" (ethtool -m DEV hex on), found " + Quote(line));
    }
    auto offset = ParseU64Auto(offset_text);
    if (!offset) return LineError(line_number, "bad offset " + Quote(offset_text));
    auto tokens = Fields(line.substr(colon + 1));
    if (tokens.empty()) return LineError(line_number, "no bytes after the offset");
    if (tokens.size() > kBytesPerLine) {
      return LineError(line_number, std::to_string(tokens.size()) +
                                        " bytes on one line; ethtool writes at most 16");
    }
    if (paged && current.header_line == 0) {
      return LineError(line_number, "data after a paged block without its own \"Page:\" header");
    }
    if (!current.bytes.empty() && *offset != current.start + current.bytes.size()) {
      return LineError(line_number, "offset " + Hex(*offset, 4) +
                                        " does not follow the previous line, which ended at " +
                                        Hex(current.start + current.bytes.size(), 4));
    }
    if (current.bytes.empty()) {
      current.start = *offset;
      current.first_line = line_number;
    }
    const std::size_t limit = paged ? kWindowSize : kHalfPageSize + 256 * kHalfPageSize;
    if (*offset > limit || tokens.size() > limit - *offset) {
      return LineError(line_number, "offset " + Hex(*offset, 4) + " is beyond the " +
                                        std::to_string(limit) + "-byte " +
                                        (paged ? "window of a page" : "EEPROM address space"));
    }
    for (std::string_view token : tokens) {
      if (token.size() != 2 || !IsHexDigit(token[0]) || !IsHexDigit(token[1])) {
        return LineError(line_number, Quote(token) + " is not a hex byte (two hex digits)");
      }
      current.bytes.push_back(
          static_cast<std::uint8_t>(HexValue(token[0]) * 16 + HexValue(token[1])));
    }
    header_open = false;
    return std::nullopt;
  }
};

void AppendDump(std::string& out, std::span<const std::uint8_t> data, std::size_t offset) {
  out += "Offset\t\tValues\n------\t\t------";
  char buf[16];
  for (std::size_t i = 0; i < data.size(); ++i) {
    if (i % kBytesPerLine == 0) {
      std::snprintf(buf, sizeof buf, "\n0x%04zx:\t\t", i + offset);
      out += buf;
    }
    std::snprintf(buf, sizeof buf, "%02x ", unsigned{data[i]});
    out += buf;
  }
  out += "\n";
}

void AppendHeader(std::string& out, PageId id) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "I2C Address: 0x%02x\nBank: 0x%x\nPage: 0x%x\n\n",
                unsigned{id.i2c_address}, unsigned{id.bank}, unsigned{id.page});
  out += buf;
}

}  // namespace

Result<EepromImage> EepromImage::FromHexDump(std::string_view text) {
  Parser parser;
  int line_number = 0;
  for (std::string_view raw_line : Split(text, '\n')) {
    ++line_number;
    std::string_view line = Trim(raw_line);
    if (line.empty()) continue;
    if (StartsWith(line, "Offset") && Trim(line.substr(6)) == "Values") continue;
    if (line.find_first_not_of("-\t ") == std::string_view::npos) continue;
    auto header = parser.Header(line, line_number);
    if (!header) continue;
    if (!header->empty()) return Error{*header};
    if (auto error = parser.Data(line, line_number)) return Error{*error};
  }
  parser.Flush();
  if (parser.blocks.empty()) {
    return Error{"hex dump has no data lines: expected the output of `ethtool -m DEV hex on`"};
  }

  if (!parser.paged) {
    const Block& block = parser.blocks.front();
    if (block.start != 0) {
      return Error{LineError(block.first_line,
                             "a dump without \"Page:\" headers must start at offset 0x0000, "
                             "this one starts at " +
                                 Hex(block.start, 4))};
    }
    return FromRaw(block.bytes);
  }

  EepromImage image;
  std::vector<std::pair<PageId, int>> seen_upper;
  std::vector<std::pair<std::uint8_t, int>> seen_lower;
  for (const Block& block : parser.blocks) {
    if (block.header_line == 0) {
      return Error{
          LineError(block.first_line, "data before the first \"Page:\" header of a paged dump")};
    }
    std::span<const std::uint8_t> bytes(block.bytes);
    std::size_t start = block.start;
    if (start != 0 && start != kHalfPageSize) {
      return Error{LineError(block.first_line, "the block of " + PageName(block.id) +
                                                   " starts at " + Hex(start, 4) +
                                                   "; a page starts at 0x0000 or 0x0080")};
    }
    if (start == 0) {
      for (const auto& [address, line] : seen_lower) {
        if (address == block.id.i2c_address) {
          return Error{LineError(block.first_line, "lower page of I2C address " + Hex(address, 2) +
                                                       " appears again (first at line " +
                                                       std::to_string(line) + ")")};
        }
      }
      seen_lower.emplace_back(block.id.i2c_address, block.first_line);
      image.SetLower(block.id.i2c_address, bytes.first(std::min(bytes.size(), kHalfPageSize)));
      if (bytes.size() <= kHalfPageSize) continue;
      bytes = bytes.subspan(kHalfPageSize);
    }
    for (const auto& [id, line] : seen_upper) {
      if (id == block.id) {
        return Error{LineError(block.first_line, PageName(id) + " appears again (first at line " +
                                                     std::to_string(line) + ")")};
      }
    }
    seen_upper.emplace_back(block.id, block.first_line);
    image.SetUpper(block.id, bytes);
  }
  return image;
}

std::string ToPagedHexDump(const EepromImage& image) {
  std::string out;
  for (std::uint8_t address : image.LowerAddresses()) {
    AppendHeader(out, {address, 0, 0});
    AppendDump(out, *image.Lower(address), 0);
    out += "\n";
    for (PageId id : image.UpperPages()) {
      if (id.i2c_address != address) continue;
      AppendHeader(out, id);
      AppendDump(out, *image.Upper(id), kHalfPageSize);
      out += "\n";
    }
  }
  // Upper pages of an address whose lower half was not read.
  for (PageId id : image.UpperPages()) {
    if (image.Lower(id.i2c_address)) continue;
    AppendHeader(out, id);
    AppendDump(out, *image.Upper(id), kHalfPageSize);
    out += "\n";
  }
  return out;
}

}  // namespace rocewatch::optics
