#pragma once

// The transceiver EEPROM decoders: pure functions from an EepromImage (or a dump file's bytes)
// to a ModuleInfo in base units. No I/O; they never read outside the bytes the image holds.

#include <cstdint>
#include <span>

#include "exporter/optics/eeprom_image.h"
#include "exporter/optics/module.h"
#include "rocewatch/result.h"

namespace rocewatch::optics {

// Dispatches on the SFF-8024 identifier (lower page byte 0) to the decoder below. Errors:
// no lower page, a lower page shorter than 128 bytes, an identifier no decoder handles. Missing
// optional pages (thresholds, lane pages) are not errors: their values stay absent and
// ModuleInfo::warnings says why.
Result<ModuleInfo> Decode(const EepromImage& image);

// SFF-8472 (SFP): A0h identity, A2h diagnostics with internal or external calibration.
Result<ModuleInfo> DecodeSff8472(const EepromImage& image);
// SFF-8636 (QSFP+/QSFP28): lower page monitors and flags, page 00h identity, page 03h
// thresholds.
Result<ModuleInfo> DecodeSff8636(const EepromImage& image);
// CMIS 4.0/5.x (QSFP-DD, OSFP, QSFP+ CMIS): lower page module monitors and flags, page 00h
// identity, page 01h advertising, page 02h thresholds, page 11h lane monitors and flags (one
// bank per 8 lanes).
Result<ModuleInfo> DecodeCmis(const EepromImage& image);

// Reads a dump file: the hex text of `ethtool -m DEV hex on` (printable text with "Offset" or
// "0x0000:" lines, with or without "Page:" headers) or the binary of `ethtool -m DEV raw on`.
Result<EepromImage> ImageFromDump(std::span<const std::uint8_t> file_bytes);
// ImageFromDump, then Decode.
Result<ModuleInfo> DecodeDump(std::span<const std::uint8_t> file_bytes);

}  // namespace rocewatch::optics
