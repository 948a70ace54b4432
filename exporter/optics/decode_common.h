#pragma once

// Helpers shared by the three decoders (internal to rocewatch_optics): reading vendor strings,
// unit conversions, threshold groups and the checks every decoder starts with.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "exporter/optics/eeprom_image.h"
#include "exporter/optics/module.h"
#include "rocewatch/result.h"

namespace rocewatch::optics::detail {

// Raw monitor units (SFF-8472 rev 12.4 section 9.2, SFF-8636 rev 2.10a section 6.2.4,
// CMIS 5.2 section 8.2.5 / 8.9.4) in base units.
inline constexpr double kCelsiusPerUnit = 1.0 / 256.0;  // s16, 1/256 degC
inline constexpr double kVoltsPerUnit = 100e-6;         // u16, 100 uV
inline constexpr double kAmperesPerUnit = 2e-6;         // u16, 2 uA
inline constexpr double kWattsPerUnit = 0.1e-6;         // u16, 0.1 uW
inline constexpr double kMetersPerNanometer = 1e-9;

// Checks that the lower page of A0h is complete and that byte 0 belongs to `family_name`'s
// decoder (`accepts`). Returns the identifier.
Result<std::uint8_t> CheckLowerPage(const EepromImage& image, std::string_view decoder,
                                    bool (*accepts)(std::uint8_t));

// Adds a warning when page `id` is present but short. Returns whether it is present and full.
bool CompletePage(const EepromImage& image, PageId id, ModuleInfo& info);

// ASCII field [first, last] of window `id`, trailing spaces and NULs removed, other
// non-printable bytes shown as '_'. Empty when the bytes were not read.
std::string Ascii(const EepromImage& image, PageId id, unsigned first, unsigned last);
// Three OUI bytes as "00:02:c9"; empty when not read.
std::string Oui(const EepromImage& image, PageId id, unsigned offset);
// "2023-04-17" from a date code "230417" (+ lot); empty unless it is six digits of a valid
// month and day.
std::string ManufactureDate(std::string_view date_code);

// Bit `bit` of byte `offset` of window `id`.
std::optional<bool> Bit(const EepromImage& image, PageId id, unsigned offset, unsigned bit);

// Four thresholds stored as consecutive 16-bit values from `offset` in the order high alarm,
// low alarm, high warning, low warning, converted by `scale` (signed for temperature).
std::optional<Thresholds> ReadThresholds(const EepromImage& image, PageId id, unsigned offset,
                                         double scale, bool is_signed);

// Sets the identifier, its name and the vendor fields common to every decoder.
void SetIdentifier(ModuleInfo& info, std::uint8_t identifier);

}  // namespace rocewatch::optics::detail
