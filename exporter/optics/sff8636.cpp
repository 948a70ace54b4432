// optics::DecodeSff8636: QSFP/QSFP+/QSFP28 modules (SFF-8636 rev 2.10a, "Management Interface
// for 4-lane Modules and Cables"). Monitors and flags in the lower page, identity in upper page
// 00h, thresholds in upper page 03h. Offsets are decimal, as in the specification's tables.

#include "exporter/optics/decode.h"
#include "exporter/optics/decode_common.h"
#include "exporter/optics/identifiers.h"

namespace rocewatch::optics {
namespace {

using detail::Bit;

constexpr PageId kPage00{kI2cAddressA0, 0, 0x00};  // lower page and page 00h
constexpr PageId kPage03{kI2cAddressA0, 0, 0x03};
constexpr int kLaneCount = 4;

// Lower page, Table 6-2 .. 6-8.
constexpr unsigned kRevisionOffset = 1;  // Table 6-3
constexpr unsigned kStatusOffset = 2;    // Table 6-2
constexpr unsigned kFlatMemBit = 2;
constexpr unsigned kLosFlagsOffset = 3;          // bits 0-3 Rx LOS lanes 1-4, bits 4-7 Tx LOS
constexpr unsigned kTxFaultOffset = 4;           // bits 0-3 Tx fault lanes 1-4
constexpr unsigned kTemperatureFlagsOffset = 6;  // Table 6-5: 7 HA, 6 LA, 5 HW, 4 LW
constexpr unsigned kVoltageFlagsOffset = 7;
// Table 6-6: two lanes per byte, lane 1 (3) in bits 7-4, lane 2 (4) in bits 3-0, each
// high alarm, low alarm, high warning, low warning from the top bit down.
constexpr unsigned kRxPowerFlagsOffset = 9;
constexpr unsigned kBiasFlagsOffset = 11;
constexpr unsigned kTxPowerFlagsOffset = 13;
constexpr unsigned kTemperatureOffset = 22;  // Table 6-7, s16 1/256 degC
constexpr unsigned kVoltageOffset = 26;      // u16 100 uV
constexpr unsigned kRxPowerOffset = 34;      // Table 6-8, lanes 1-4, u16 0.1 uW
constexpr unsigned kBiasOffset = 42;         // lanes 1-4, u16 2 uA
constexpr unsigned kTxPowerOffset = 50;      // lanes 1-4, u16 0.1 uW

// Upper page 00h, Table 6-14 .. 6-24.
constexpr unsigned kConnectorOffset = 130;
constexpr unsigned kEthernetCodesOffset = 131;     // Table 6-17
constexpr unsigned kExtendedCodesBit = 7;          // "see byte 192"
constexpr unsigned kDeviceTechnologyOffset = 147;  // bits 7-4: transmitter technology
constexpr unsigned kVendorNameFirst = 148;
constexpr unsigned kVendorNameLast = 163;
constexpr unsigned kVendorOuiOffset = 165;
constexpr unsigned kVendorPartNumberFirst = 168;
constexpr unsigned kVendorPartNumberLast = 183;
constexpr unsigned kVendorRevisionFirst = 184;
constexpr unsigned kVendorRevisionLast = 185;
constexpr unsigned kWavelengthOffset = 186;  // u16, 0.05 nm (optical modules)
constexpr double kNanometersPerWavelengthUnit = 0.05;
constexpr unsigned kExtendedComplianceOffset = 192;  // SFF-8024 Table 4-4
constexpr unsigned kVendorSerialFirst = 196;
constexpr unsigned kVendorSerialLast = 211;
constexpr unsigned kDateCodeFirst = 212;
constexpr unsigned kDateCodeLast = 219;
constexpr unsigned kDiagnosticTypeOffset = 220;  // Table 6-24
constexpr unsigned kTemperatureMonitoringBit = 5;
constexpr unsigned kVoltageMonitoringBit = 4;
constexpr unsigned kRxPowerAverageBit = 3;  // 0: OMA, 1: average power
constexpr unsigned kTxPowerSupportedBit = 2;

// Upper page 03h, Table 6-26 and 6-28: thresholds, four u16 (s16 for temperature) each in the
// order high alarm, low alarm, high warning, low warning.
constexpr unsigned kTemperatureThresholdsOffset = 128;
constexpr unsigned kVoltageThresholdsOffset = 144;
constexpr unsigned kRxPowerThresholdsOffset = 176;
constexpr unsigned kBiasThresholdsOffset = 184;
constexpr unsigned kTxPowerThresholdsOffset = 192;

// Module-level flags: bits 7..4 of one byte.
Flags ModuleFlags(const EepromImage& image, unsigned offset) {
  Flags f;
  f.high_alarm = Bit(image, kPage00, offset, 7);
  f.low_alarm = Bit(image, kPage00, offset, 6);
  f.high_warning = Bit(image, kPage00, offset, 5);
  f.low_warning = Bit(image, kPage00, offset, 4);
  return f;
}

// Lane flags from Table 6-6 for lane `lane` (1-4) of the group starting at `offset`.
Flags LaneFlags(const EepromImage& image, unsigned offset, int lane) {
  const unsigned byte = offset + static_cast<unsigned>(lane - 1) / 2;
  const unsigned top = (lane % 2 == 1) ? 7 : 3;
  Flags f;
  f.high_alarm = Bit(image, kPage00, byte, top);
  f.low_alarm = Bit(image, kPage00, byte, top - 1);
  f.high_warning = Bit(image, kPage00, byte, top - 2);
  f.low_warning = Bit(image, kPage00, byte, top - 3);
  return f;
}

std::optional<double> Scaled(std::optional<std::uint16_t> raw, double unit) {
  if (!raw) return std::nullopt;
  return *raw * unit;
}

// Lower page byte 1 (Table 6-3): codes 1 and 2 are modules built to SFF-8436, the
// predecessor this decoder reads too.
struct Revision {
  const char* spec;
  const char* revision;
};
Revision RevisionOf(std::uint8_t code) {
  switch (code) {
    case 0x01:
      return {"SFF-8436", "4.8 or earlier"};
    case 0x02:
      return {"SFF-8436", "4.8 or earlier, bytes 186-189 as SFF-8636"};
    case 0x03:
      return {"SFF-8636", "1.3 or earlier"};
    case 0x04:
      return {"SFF-8636", "1.4"};
    case 0x05:
      return {"SFF-8636", "1.5"};
    case 0x06:
      return {"SFF-8636", "2.0"};
    case 0x07:
      return {"SFF-8636", "2.5-2.7"};
    case 0x08:
      return {"SFF-8636", "2.8-2.10"};
    default:
      return {"SFF-8636", ""};
  }
}

void AddComplianceCodes(const EepromImage& image, ModuleInfo& info) {
  static constexpr const char* kEthernet[7] = {"40G active cable (XLPPI)",
                                               "40GBASE-LR4",
                                               "40GBASE-SR4",
                                               "40GBASE-CR4",
                                               "10GBASE-SR",
                                               "10GBASE-LR",
                                               "10GBASE-LRM"};
  for (unsigned bit = 7; bit-- > 0;) {
    if (Bit(image, kPage00, kEthernetCodesOffset, bit).value_or(false)) {
      info.compliance.emplace_back(kEthernet[bit]);
    }
  }
  if (Bit(image, kPage00, kEthernetCodesOffset, kExtendedCodesBit).value_or(false)) {
    const std::string extended =
        ExtendedComplianceName(image.Byte(kPage00, kExtendedComplianceOffset).value_or(0));
    if (!extended.empty()) info.compliance.push_back(extended);
  }
  if (auto tech = image.Byte(kPage00, kDeviceTechnologyOffset)) {
    info.compliance.push_back("Transmitter: " + TransmitterTechnologyName(*tech >> 4));
  }
}

bool AcceptsSff8636(std::uint8_t identifier) { return FamilyOf(identifier) == Family::kSff8636; }

}  // namespace

Result<ModuleInfo> DecodeSff8636(const EepromImage& image) {
  auto identifier = detail::CheckLowerPage(image, "SFF-8636 (QSFP)", AcceptsSff8636);
  if (!identifier.ok()) return identifier.error();

  ModuleInfo info;
  detail::SetIdentifier(info, *identifier);
  info.standard = Standard::kSff8636;
  info.spec_revision_code = image.Byte(kPage00, kRevisionOffset).value_or(0);
  const Revision revision = RevisionOf(info.spec_revision_code);
  info.spec_revision = revision.revision;
  info.spec = info.spec_revision.empty() ? std::string(revision.spec)
                                         : std::string(revision.spec) + " rev " + revision.revision;
  info.flat_memory = Bit(image, kPage00, kStatusOffset, kFlatMemBit).value_or(false);

  if (!image.HasUpper(kPage00)) {
    return Error{"SFF-8636 module has no upper page 00h (bytes 128-255): the dump holds only " +
                 std::string("the lower page, without the vendor data every module has")};
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
  AddComplianceCodes(image, info);
  auto technology = image.Byte(kPage00, kDeviceTechnologyOffset);
  if (auto units = image.U16(kPage00, kWavelengthOffset);
      units && *units != 0 && technology && !IsCopperTechnology(*technology >> 4)) {
    info.wavelength_meters = *units * kNanometersPerWavelengthUnit * detail::kMetersPerNanometer;
  }

  const std::uint8_t diagnostic_type = image.Byte(kPage00, kDiagnosticTypeOffset).value_or(0);
  info.rx_power_measurement = (diagnostic_type >> kRxPowerAverageBit) & 1u
                                  ? RxPowerMeasurement::kAverage
                                  : RxPowerMeasurement::kOma;
  // Byte 220 bits 5 and 4 say whether temperature and voltage are monitored, but modules older
  // than rev 2.x leave them 0; like ethtool, a temperature of 0 or 0xFFFF then means "no
  // monitors" (passive copper cables).
  const std::uint16_t raw_temperature = image.U16(kPage00, kTemperatureOffset).value_or(0);
  const bool advertised = (diagnostic_type >> kTemperatureMonitoringBit) & 1u ||
                          (diagnostic_type >> kVoltageMonitoringBit) & 1u;
  info.diagnostics = advertised || (raw_temperature != 0 && raw_temperature != 0xFFFF);
  if (!info.diagnostics) return info;

  if (auto t = image.S16(kPage00, kTemperatureOffset)) {
    info.temperature_celsius.value = *t * detail::kCelsiusPerUnit;
  }
  info.supply_voltage_volts.value =
      Scaled(image.U16(kPage00, kVoltageOffset), detail::kVoltsPerUnit);
  info.temperature_celsius.flags = ModuleFlags(image, kTemperatureFlagsOffset);
  info.supply_voltage_volts.flags = ModuleFlags(image, kVoltageFlagsOffset);

  std::optional<Thresholds> temperature, voltage, rx_power, bias, tx_power;
  if (!info.flat_memory) {
    if (!image.HasUpper(kPage03)) {
      info.warnings.push_back("page 03h (thresholds) was not read: no thresholds");
    } else {
      detail::CompletePage(image, kPage03, info);
      temperature = detail::ReadThresholds(image, kPage03, kTemperatureThresholdsOffset,
                                           detail::kCelsiusPerUnit, true);
      voltage = detail::ReadThresholds(image, kPage03, kVoltageThresholdsOffset,
                                       detail::kVoltsPerUnit, false);
      rx_power = detail::ReadThresholds(image, kPage03, kRxPowerThresholdsOffset,
                                        detail::kWattsPerUnit, false);
      bias = detail::ReadThresholds(image, kPage03, kBiasThresholdsOffset, detail::kAmperesPerUnit,
                                    false);
      tx_power = detail::ReadThresholds(image, kPage03, kTxPowerThresholdsOffset,
                                        detail::kWattsPerUnit, false);
    }
  }
  info.temperature_celsius.thresholds = temperature;
  info.supply_voltage_volts.thresholds = voltage;

  // Byte 220 bit 2 says whether TX power is monitored. Linux ethtool (qsfp.c) and fboss read
  // the TX power words whenever the monitors are valid, and modules that leave the bit clear
  // still fill them, so: decode them the same way, and say what the module advertises.
  info.tx_power_advertised = ((diagnostic_type >> kTxPowerSupportedBit) & 1u) != 0;
  for (int lane_number = 1; lane_number <= kLaneCount; ++lane_number) {
    const unsigned index = static_cast<unsigned>(lane_number - 1);
    Lane lane;
    lane.number = lane_number;
    lane.rx_power_watts.value =
        Scaled(image.U16(kPage00, kRxPowerOffset + 2 * index), detail::kWattsPerUnit);
    lane.rx_power_watts.thresholds = rx_power;
    lane.rx_power_watts.flags = LaneFlags(image, kRxPowerFlagsOffset, lane_number);
    lane.tx_bias_amperes.value =
        Scaled(image.U16(kPage00, kBiasOffset + 2 * index), detail::kAmperesPerUnit);
    lane.tx_bias_amperes.thresholds = bias;
    lane.tx_bias_amperes.flags = LaneFlags(image, kBiasFlagsOffset, lane_number);
    lane.tx_power_watts.value =
        Scaled(image.U16(kPage00, kTxPowerOffset + 2 * index), detail::kWattsPerUnit);
    lane.tx_power_watts.thresholds = tx_power;
    lane.tx_power_watts.flags = LaneFlags(image, kTxPowerFlagsOffset, lane_number);
    lane.rx_loss_of_signal = Bit(image, kPage00, kLosFlagsOffset, index);
    lane.tx_loss_of_signal = Bit(image, kPage00, kLosFlagsOffset, index + 4);
    lane.tx_fault = Bit(image, kPage00, kTxFaultOffset, index);
    info.lanes.push_back(std::move(lane));
  }
  return info;
}

}  // namespace rocewatch::optics
