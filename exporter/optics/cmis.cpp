// optics::DecodeCmis: modules with the Common Management Interface Specification (CMIS 4.0 and
// 5.x: QSFP-DD, OSFP, QSFP+ CMIS, SFP-DD/SFP+ CMIS). Module monitors and flags in the lower
// page, identity in page 00h, advertising in page 01h, thresholds in page 02h, lane flags and
// monitors in page 11h (bank n holds lanes 8n+1 .. 8n+8). Flat-memory modules have only the
// lower page and page 00h. Offsets are decimal, as in the specification's tables.

#include <algorithm>

#include "exporter/optics/decode.h"
#include "exporter/optics/decode_common.h"
#include "exporter/optics/identifiers.h"

namespace rocewatch::optics {
namespace {

using detail::Bit;

constexpr PageId kPage00{kI2cAddressA0, 0, 0x00};  // lower page and page 00h
constexpr PageId kPage01{kI2cAddressA0, 0, 0x01};
constexpr PageId kPage02{kI2cAddressA0, 0, 0x02};
constexpr std::uint8_t kLanePage = 0x11;
constexpr int kLanesPerBank = 8;

// Lower page (CMIS 5.2 section 8.2).
constexpr unsigned kRevisionOffset = 1;  // major version in bits 7-4, minor in bits 3-0
constexpr unsigned kMemoryModelOffset = 2;
constexpr unsigned kFlatMemoryBit = 7;
constexpr unsigned kModuleStateOffset = 3;  // bits 3-1 (Table 8-6 in CMIS 5.0)
// Module flags (Table 8-8 in CMIS 5.0): temperature high alarm, low alarm, high warning, low
// warning in bits 0-3, supply voltage the same in bits 4-7.
constexpr unsigned kModuleFlagsOffset = 9;
constexpr unsigned kTemperatureFlagsFirstBit = 0;
constexpr unsigned kVoltageFlagsFirstBit = 4;
constexpr unsigned kTemperatureOffset = 14;  // Table 8-9 in CMIS 5.0: s16 1/256 degC
constexpr unsigned kVoltageOffset = 16;      // u16 100 uV
constexpr unsigned kMediaTypeOffset = 85;    // SFF-8024 module media type
// First application descriptor: host interface ID (86), media interface ID (87), host lane
// count (88 bits 7-4) and media lane count (88 bits 3-0).
constexpr unsigned kFirstHostInterfaceOffset = 86;
constexpr unsigned kFirstLaneCountsOffset = 88;
constexpr std::uint8_t kUnusedApplication = 0xFF;

// Page 00h (administrative information).
constexpr unsigned kVendorNameFirst = 129;
constexpr unsigned kVendorNameLast = 144;
constexpr unsigned kVendorOuiOffset = 145;
constexpr unsigned kVendorPartNumberFirst = 148;
constexpr unsigned kVendorPartNumberLast = 163;
constexpr unsigned kVendorRevisionFirst = 164;
constexpr unsigned kVendorRevisionLast = 165;
constexpr unsigned kVendorSerialFirst = 166;
constexpr unsigned kVendorSerialLast = 181;
constexpr unsigned kDateCodeFirst = 182;
constexpr unsigned kDateCodeLast = 189;
constexpr unsigned kConnectorOffset = 203;
constexpr unsigned kMediaTechnologyOffset = 212;  // transmitter technology

// Page 01h (advertising).
constexpr unsigned kWavelengthOffset = 138;  // u16, 0.05 nm
constexpr double kNanometersPerWavelengthUnit = 0.05;
constexpr unsigned kPagesAdvertisingOffset = 142;  // bits 1-0: banks (Table 8-40 in CMIS 5.0)
constexpr std::uint8_t kBanksMask = 0x03;
constexpr unsigned kRxPowerTypeOffset = 151;  // bit 4: 0 OMA, 1 average
constexpr unsigned kRxPowerAverageBit = 4;
constexpr unsigned kTxFlagsSupportedOffset = 157;  // bit 0 Tx fault, bit 1 Tx LOS
constexpr unsigned kRxFlagsSupportedOffset = 158;  // bit 1 Rx LOS
constexpr unsigned kModuleMonitorsOffset = 159;    // bit 0 temperature, bit 1 Vcc
constexpr unsigned kLaneMonitorsOffset = 160;      // bit 0 bias, 1 Tx power, 2 Rx power, 4-3 bias x
constexpr unsigned kBiasMultiplierShift = 3;
constexpr std::uint8_t kBiasMultiplierMask = 0x03;

// Page 02h (thresholds): four values each in the order high alarm, low alarm, high warning,
// low warning.
constexpr unsigned kTemperatureThresholdsOffset = 128;
constexpr unsigned kVoltageThresholdsOffset = 136;
constexpr unsigned kTxPowerThresholdsOffset = 176;
constexpr unsigned kBiasThresholdsOffset = 184;
constexpr unsigned kRxPowerThresholdsOffset = 192;

// Page 11h (lane status, Tables 8-77 to 8-79 in CMIS 5.0, 8-82 in 5.2): one bit or one u16
// per lane of the bank.
constexpr unsigned kTxFaultOffset = 135;
constexpr unsigned kTxLosOffset = 136;
constexpr unsigned kTxPowerFlagsOffset = 139;  // 139 HA, 140 LA, 141 HW, 142 LW
constexpr unsigned kBiasFlagsOffset = 143;     // 143 .. 146
constexpr unsigned kRxLosOffset = 147;
constexpr unsigned kRxPowerFlagsOffset = 149;  // 149 .. 152
constexpr unsigned kTxPowerOffset = 154;       // u16 0.1 uW, lanes 1-8
constexpr unsigned kBiasOffset = 170;          // u16 2 uA x multiplier
constexpr unsigned kRxPowerOffset = 186;       // u16 0.1 uW

std::string ModuleStateName(unsigned state) {
  switch (state) {
    case 1:
      return "ModuleLowPwr";
    case 2:
      return "ModulePwrUp";
    case 3:
      return "ModuleReady";
    case 4:
      return "ModulePwrDn";
    case 5:
      return "ModuleFault";
    default:
      return "reserved (" + std::to_string(state) + ")";
  }
}

std::string MediaTypeName(std::uint8_t code) {
  switch (code) {
    case 0x00:
      return "undefined";
    case 0x01:
      return "multimode fiber (MMF)";
    case 0x02:
      return "single-mode fiber (SMF)";
    case 0x03:
      return "passive copper cable";
    case 0x04:
      return "active cable";
    case 0x05:
      return "BASE-T";
    default:
      return "reserved (" + std::to_string(code) + ")";
  }
}

std::optional<double> Scaled(std::optional<std::uint16_t> raw, double unit) {
  if (!raw) return std::nullopt;
  return *raw * unit;
}

// Module flags of one sensor: four bits from `first_bit` of lower byte 9.
Flags ModuleFlags(const EepromImage& image, unsigned first_bit) {
  Flags f;
  f.high_alarm = Bit(image, kPage00, kModuleFlagsOffset, first_bit);
  f.low_alarm = Bit(image, kPage00, kModuleFlagsOffset, first_bit + 1);
  f.high_warning = Bit(image, kPage00, kModuleFlagsOffset, first_bit + 2);
  f.low_warning = Bit(image, kPage00, kModuleFlagsOffset, first_bit + 3);
  return f;
}

// Lane flags: four consecutive bytes of page 11h, one bit per lane of the bank.
Flags LaneFlags(const EepromImage& image, PageId page, unsigned offset, unsigned bit) {
  Flags f;
  f.high_alarm = Bit(image, page, offset, bit);
  f.low_alarm = Bit(image, page, offset + 1, bit);
  f.high_warning = Bit(image, page, offset + 2, bit);
  f.low_warning = Bit(image, page, offset + 3, bit);
  return f;
}

std::optional<Thresholds> Scale(std::optional<Thresholds> t, double factor) {
  if (!t) return std::nullopt;
  return Thresholds{t->high_alarm * factor, t->low_alarm * factor, t->high_warning * factor,
                    t->low_warning * factor};
}

bool AcceptsCmis(std::uint8_t identifier) { return FamilyOf(identifier) == Family::kCmis; }

}  // namespace

Result<ModuleInfo> DecodeCmis(const EepromImage& image) {
  auto identifier = detail::CheckLowerPage(image, "CMIS", AcceptsCmis);
  if (!identifier.ok()) return identifier.error();

  ModuleInfo info;
  detail::SetIdentifier(info, *identifier);
  info.standard = Standard::kCmis;
  info.spec_revision_code = image.Byte(kPage00, kRevisionOffset).value_or(0);
  if (info.spec_revision_code != 0) {
    info.spec_revision = std::to_string(info.spec_revision_code >> 4) + "." +
                         std::to_string(info.spec_revision_code & 0x0f);
    info.spec = "CMIS " + info.spec_revision;
  } else {
    info.spec = "CMIS";
  }
  info.flat_memory = Bit(image, kPage00, kMemoryModelOffset, kFlatMemoryBit).value_or(false);
  info.module_state =
      ModuleStateName((image.Byte(kPage00, kModuleStateOffset).value_or(0) >> 1) & 0x07u);

  if (!image.HasUpper(kPage00)) {
    return Error{
        "CMIS module has no page 00h (bytes 128-255): the dump holds only the lower "
        "page, without the vendor data every module has"};
  }
  detail::CompletePage(image, kPage00, info);
  info.vendor_name = detail::Ascii(image, kPage00, kVendorNameFirst, kVendorNameLast);
  info.vendor_oui = detail::Oui(image, kPage00, kVendorOuiOffset);
  info.part_number = detail::Ascii(image, kPage00, kVendorPartNumberFirst, kVendorPartNumberLast);
  info.revision = detail::Ascii(image, kPage00, kVendorRevisionFirst, kVendorRevisionLast);
  info.serial_number = detail::Ascii(image, kPage00, kVendorSerialFirst, kVendorSerialLast);
  info.date_code = detail::Ascii(image, kPage00, kDateCodeFirst, kDateCodeLast);
  info.manufacture_date = detail::ManufactureDate(info.date_code);
  info.connector = image.Byte(kPage00, kConnectorOffset).value_or(0);
  info.connector_name = ConnectorName(info.connector);
  info.compliance.push_back("Media: " +
                            MediaTypeName(image.Byte(kPage00, kMediaTypeOffset).value_or(0)));
  auto technology = image.Byte(kPage00, kMediaTechnologyOffset);
  if (technology) {
    info.compliance.push_back("Transmitter: " + TransmitterTechnologyName(*technology));
  }

  // Flat memory: page 00h is all there is; nothing advertises monitors, so none are read.
  if (info.flat_memory) return info;

  const bool have_page01 = image.HasUpper(kPage01);
  if (!have_page01) {
    info.warnings.push_back("page 01h (advertising) was not read: no lane monitors");
  } else {
    detail::CompletePage(image, kPage01, info);
  }
  if (auto units = image.U16(kPage01, kWavelengthOffset);
      units && *units != 0 && technology && !IsCopperTechnology(*technology)) {
    info.wavelength_meters = *units * kNanometersPerWavelengthUnit * detail::kMetersPerNanometer;
  }
  info.rx_power_measurement =
      Bit(image, kPage01, kRxPowerTypeOffset, kRxPowerAverageBit).value_or(false)
          ? RxPowerMeasurement::kAverage
          : RxPowerMeasurement::kOma;

  // Module monitors: taken as supported when page 01h is missing (ethtool does the same).
  const bool temperature_supported =
      Bit(image, kPage01, kModuleMonitorsOffset, 0).value_or(!have_page01);
  const bool voltage_supported =
      Bit(image, kPage01, kModuleMonitorsOffset, 1).value_or(!have_page01);
  info.diagnostics = true;

  const bool have_page02 = image.HasUpper(kPage02);
  if (!have_page02) {
    info.warnings.push_back("page 02h (thresholds) was not read: no thresholds");
  } else {
    detail::CompletePage(image, kPage02, info);
  }
  if (temperature_supported) {
    if (auto t = image.S16(kPage00, kTemperatureOffset)) {
      info.temperature_celsius.value = *t * detail::kCelsiusPerUnit;
    }
    info.temperature_celsius.thresholds = detail::ReadThresholds(
        image, kPage02, kTemperatureThresholdsOffset, detail::kCelsiusPerUnit, true);
    info.temperature_celsius.flags = ModuleFlags(image, kTemperatureFlagsFirstBit);
  }
  if (voltage_supported) {
    info.supply_voltage_volts.value =
        Scaled(image.U16(kPage00, kVoltageOffset), detail::kVoltsPerUnit);
    info.supply_voltage_volts.thresholds = detail::ReadThresholds(
        image, kPage02, kVoltageThresholdsOffset, detail::kVoltsPerUnit, false);
    info.supply_voltage_volts.flags = ModuleFlags(image, kVoltageFlagsFirstBit);
  }
  if (!have_page01) return info;

  // Lanes: the media lane count of the first application, within the advertised banks.
  const std::uint8_t bank_code =
      image.Byte(kPage01, kPagesAdvertisingOffset).value_or(0) & kBanksMask;
  const int banks = bank_code == 1 ? 2 : bank_code == 2 ? 4 : 1;
  int lane_count = banks * kLanesPerBank;
  if (image.Byte(kPage00, kFirstHostInterfaceOffset).value_or(kUnusedApplication) !=
      kUnusedApplication) {
    const int media_lanes = image.Byte(kPage00, kFirstLaneCountsOffset).value_or(0) & 0x0f;
    if (media_lanes > 0) lane_count = std::min(lane_count, media_lanes);
  }

  const std::uint8_t lane_monitors = image.Byte(kPage01, kLaneMonitorsOffset).value_or(0);
  const bool bias_supported = lane_monitors & 0x01u;
  const bool tx_power_supported = lane_monitors & 0x02u;
  const bool rx_power_supported = lane_monitors & 0x04u;
  // Bias values and thresholds count 2 uA times 1, 2 or 4 (code 3 is reserved).
  const unsigned multiplier_code = (lane_monitors >> kBiasMultiplierShift) & kBiasMultiplierMask;
  if (multiplier_code == 3) {
    info.warnings.push_back("page 01h byte 160 bias multiplier code 3 is reserved: bias not read");
  }
  const double amperes_per_unit = detail::kAmperesPerUnit * (1u << multiplier_code);
  const bool bias_readable = bias_supported && multiplier_code != 3;

  const auto tx_power_thresholds = detail::ReadThresholds(image, kPage02, kTxPowerThresholdsOffset,
                                                          detail::kWattsPerUnit, false);
  const auto bias_thresholds = Scale(
      detail::ReadThresholds(image, kPage02, kBiasThresholdsOffset, 1.0, false), amperes_per_unit);
  const auto rx_power_thresholds = detail::ReadThresholds(image, kPage02, kRxPowerThresholdsOffset,
                                                          detail::kWattsPerUnit, false);
  const bool tx_fault_supported = Bit(image, kPage01, kTxFlagsSupportedOffset, 0).value_or(false);
  const bool tx_los_supported = Bit(image, kPage01, kTxFlagsSupportedOffset, 1).value_or(false);
  const bool rx_los_supported = Bit(image, kPage01, kRxFlagsSupportedOffset, 1).value_or(false);

  for (int bank = 0; bank * kLanesPerBank < lane_count; ++bank) {
    const PageId page{kI2cAddressA0, static_cast<std::uint8_t>(bank), kLanePage};
    if (!image.HasUpper(page)) {
      info.warnings.push_back(PageName(page) + " (lane monitors) was not read: no values for " +
                              "lanes " + std::to_string(bank * kLanesPerBank + 1) + "-" +
                              std::to_string(std::min(lane_count, (bank + 1) * kLanesPerBank)));
    } else {
      detail::CompletePage(image, page, info);
    }
  }
  for (int number = 1; number <= lane_count; ++number) {
    const int bank = (number - 1) / kLanesPerBank;
    const unsigned bit = static_cast<unsigned>((number - 1) % kLanesPerBank);
    const PageId page{kI2cAddressA0, static_cast<std::uint8_t>(bank), kLanePage};
    Lane lane;
    lane.number = number;
    if (bias_readable) {
      lane.tx_bias_amperes.value = Scaled(image.U16(page, kBiasOffset + 2 * bit), amperes_per_unit);
      lane.tx_bias_amperes.thresholds = bias_thresholds;
      lane.tx_bias_amperes.flags = LaneFlags(image, page, kBiasFlagsOffset, bit);
    }
    if (tx_power_supported) {
      lane.tx_power_watts.value =
          Scaled(image.U16(page, kTxPowerOffset + 2 * bit), detail::kWattsPerUnit);
      lane.tx_power_watts.thresholds = tx_power_thresholds;
      lane.tx_power_watts.flags = LaneFlags(image, page, kTxPowerFlagsOffset, bit);
    }
    if (rx_power_supported) {
      lane.rx_power_watts.value =
          Scaled(image.U16(page, kRxPowerOffset + 2 * bit), detail::kWattsPerUnit);
      lane.rx_power_watts.thresholds = rx_power_thresholds;
      lane.rx_power_watts.flags = LaneFlags(image, page, kRxPowerFlagsOffset, bit);
    }
    if (tx_fault_supported) lane.tx_fault = Bit(image, page, kTxFaultOffset, bit);
    if (tx_los_supported) lane.tx_loss_of_signal = Bit(image, page, kTxLosOffset, bit);
    if (rx_los_supported) lane.rx_loss_of_signal = Bit(image, page, kRxLosOffset, bit);
    info.lanes.push_back(std::move(lane));
  }
  return info;
}

}  // namespace rocewatch::optics
