#pragma once

// Transceiver EEPROM images built from the specifications, byte by byte, each offset commented
// with the field it fills. The one source of truth for optics tests, the fixture generator
// (optics_image_writer) and benchmarks. Values are chosen so every physical value is exact:
// the expected numbers in the tests follow from the comments by hand.
//
//   SfpInternalCalibration()  SFF-8472 rev 12.3, 10GBASE-SR SFP+, internally calibrated
//   SfpExternalCalibration()  SFF-8472 rev 12.4, 1000BASE-LX SFP, externally calibrated
//   Qsfp28()                  SFF-8636 rev 2.8-2.10, 100GBASE-SR4 QSFP28, pages 00h and 03h
//   QsfpDd8Lane()             CMIS 5.2, 400G SR8 QSFP-DD, pages 00h 01h 02h 11h; lane 6 RX power
//                             below its low warning threshold with the flag set
//   CmisFlatMemory()          CMIS 5.0, QSFP+ CMIS passive copper cable, flat memory
//   Osfp16Lane()              CMIS 5.2, OSFP with 16 lanes in banks 0 and 1 of page 11h

#include <bit>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "exporter/optics/eeprom_image.h"

namespace rocewatch::optics::testing {

// Page ids used by the images.
inline constexpr PageId kA0{kI2cAddressA0, 0, 0};  // SFF-8472 A0h; lower page + page 00h
inline constexpr PageId kA2{kI2cAddressA2, 0, 0};  // SFF-8472 A2h
inline constexpr PageId kPage00{kI2cAddressA0, 0, 0x00};
inline constexpr PageId kPage01{kI2cAddressA0, 0, 0x01};
inline constexpr PageId kPage02{kI2cAddressA0, 0, 0x02};
inline constexpr PageId kPage03{kI2cAddressA0, 0, 0x03};
inline constexpr PageId kPage11Bank0{kI2cAddressA0, 0, 0x11};
inline constexpr PageId kPage11Bank1{kI2cAddressA0, 1, 0x11};

// Writes into a page image under construction. Offsets 0-127 address the lower half of the
// page id's I2C address, 128-255 the upper page itself. Every half written is 128 bytes long,
// zero where nothing was written.
class ImageBuilder {
 public:
  ImageBuilder& Byte(PageId id, unsigned offset, std::uint8_t value) {
    Half(id, offset)[offset % kHalfPageSize] = value;
    return *this;
  }
  ImageBuilder& U16(PageId id, unsigned offset, std::uint16_t value) {  // big-endian
    Byte(id, offset, static_cast<std::uint8_t>(value >> 8));
    return Byte(id, offset + 1, static_cast<std::uint8_t>(value & 0xff));
  }
  ImageBuilder& U32(PageId id, unsigned offset, std::uint32_t value) {  // big-endian
    U16(id, offset, static_cast<std::uint16_t>(value >> 16));
    return U16(id, offset + 2, static_cast<std::uint16_t>(value & 0xffff));
  }
  ImageBuilder& Float(PageId id, unsigned offset, float value) {  // IEEE-754, big-endian
    return U32(id, offset, std::bit_cast<std::uint32_t>(value));
  }
  // ASCII text in [first, last], padded with spaces as the specifications require.
  ImageBuilder& Ascii(PageId id, unsigned first, unsigned last, std::string_view text) {
    for (unsigned i = first; i <= last; ++i) {
      const std::size_t k = i - first;
      Byte(id, i, k < text.size() ? static_cast<std::uint8_t>(text[k]) : ' ');
    }
    return *this;
  }
  // Creates an all-zero half (a page the module has but nothing was written into).
  ImageBuilder& Touch(PageId id, unsigned offset) {
    Half(id, offset);
    return *this;
  }

  EepromImage Build() const {
    EepromImage image;
    for (const auto& [address, bytes] : lower_) image.SetLower(address, bytes);
    for (const auto& [id, bytes] : upper_) image.SetUpper(id, bytes);
    return image;
  }

 private:
  std::vector<std::uint8_t>& Half(PageId id, unsigned offset) {
    auto& half = offset < kHalfPageSize ? lower_[id.i2c_address] : upper_[id];
    half.resize(kHalfPageSize, 0);
    return half;
  }

  std::map<std::uint8_t, std::vector<std::uint8_t>> lower_;
  std::map<PageId, std::vector<std::uint8_t>> upper_;
};

// SFF-8472 A0h serial ID fields shared by both SFPs (SFF-8472 rev 12.4 Table 4-1).
inline void SfpSerialId(ImageBuilder& b, std::string_view vendor, std::uint32_t oui,
                        std::string_view part, std::string_view rev, std::string_view serial,
                        std::string_view date) {
  b.Byte(kA0, 0, 0x03)             // 0: identifier, SFP/SFP+/SFP28 (SFF-8024 Table 4-1)
      .Byte(kA0, 1, 0x04)          // 1: extended identifier, 2-wire serial ID
      .Byte(kA0, 2, 0x07)          // 2: connector, LC (SFF-8024 Table 4-3)
      .Ascii(kA0, 20, 35, vendor)  // 20-35: vendor name
      .Byte(kA0, 37, static_cast<std::uint8_t>(oui >> 16))  // 37-39: vendor OUI
      .Byte(kA0, 38, static_cast<std::uint8_t>(oui >> 8))
      .Byte(kA0, 39, static_cast<std::uint8_t>(oui))
      .Ascii(kA0, 40, 55, part)    // 40-55: vendor part number
      .Ascii(kA0, 56, 59, rev)     // 56-59: vendor revision
      .Ascii(kA0, 68, 83, serial)  // 68-83: vendor serial number
      .Ascii(kA0, 84, 91, date);   // 84-91: date code YYMMDD + lot
}

// 10GBASE-SR SFP+, internal calibration, all alarm thresholds set; RX power 18 uW is below its
// low warning threshold (20 uW) and the RX power low warning flag is set.
inline EepromImage SfpInternalCalibration() {
  ImageBuilder b;
  SfpSerialId(b, "FINISAR CORP.", 0x009065, "FTLX8574D3BCL", "A", "ALN1A2B", "230417");
  b.Byte(kA0, 3, 0x10)       // 3: 10G Ethernet compliance, bit 4 10GBASE-SR
      .Byte(kA0, 11, 0x06)   // 11: encoding, 64B/66B
      .Byte(kA0, 12, 0x67)   // 12: nominal signalling rate, 103 x 100 MBd
      .Byte(kA0, 16, 0x08)   // 16: OM2 length, 8 x 10 m
      .U16(kA0, 60, 850)     // 60-61: laser wavelength, 850 nm
      .Byte(kA0, 65, 0x1A)   // 65: options: bit 1 RX_LOS, bit 3 TX_FAULT, bit 4 TX_DISABLE
      .Byte(kA0, 92, 0x68)   // 92: diagnostics: bit 6 DDM, bit 5 internal cal, bit 3 average
      .Byte(kA0, 93, 0xF0)   // 93: enhanced options: bit 7 alarm/warning flags implemented
      .Byte(kA0, 94, 0x08);  // 94: SFF-8472 compliance, rev 12.3
  // A2h Table 9-5 thresholds: high alarm, low alarm, high warning, low warning.
  b.U16(kA2, 0, 0x4B00)     // 0-1: temperature high alarm, 75 degC
      .U16(kA2, 2, 0xFB00)  // 2-3: temperature low alarm, -5 degC
      .U16(kA2, 4, 0x4600)  // 4-5: temperature high warning, 70 degC
      .U16(kA2, 6, 0x0000)  // 6-7: temperature low warning, 0 degC
      .U16(kA2, 8, 36000)   // 8-9: Vcc high alarm, 3.6 V
      .U16(kA2, 10, 30000)  // 10-11: Vcc low alarm, 3.0 V
      .U16(kA2, 12, 35000)  // 12-13: Vcc high warning, 3.5 V
      .U16(kA2, 14, 31000)  // 14-15: Vcc low warning, 3.1 V
      .U16(kA2, 16, 15000)  // 16-17: TX bias high alarm, 30 mA
      .U16(kA2, 18, 500)    // 18-19: TX bias low alarm, 1 mA
      .U16(kA2, 20, 12500)  // 20-21: TX bias high warning, 25 mA
      .U16(kA2, 22, 1000)   // 22-23: TX bias low warning, 2 mA
      .U16(kA2, 24, 10000)  // 24-25: TX power high alarm, 1 mW
      .U16(kA2, 26, 1000)   // 26-27: TX power low alarm, 0.1 mW
      .U16(kA2, 28, 8000)   // 28-29: TX power high warning, 0.8 mW
      .U16(kA2, 30, 2000)   // 30-31: TX power low warning, 0.2 mW
      .U16(kA2, 32, 10000)  // 32-33: RX power high alarm, 1 mW
      .U16(kA2, 34, 100)    // 34-35: RX power low alarm, 10 uW
      .U16(kA2, 36, 8000)   // 36-37: RX power high warning, 0.8 mW
      .U16(kA2, 38, 200);   // 38-39: RX power low warning, 20 uW
  // Table 9-6 calibration: slopes 1.0 as an internally calibrated module stores them.
  b.U16(kA2, 76, 0x0100).U16(kA2, 80, 0x0100).U16(kA2, 84, 0x0100).U16(kA2, 88, 0x0100);
  // Table 9-11 real-time diagnostics.
  b.U16(kA2, 96, 0x2580)     // 96-97: temperature, 37.5 degC
      .U16(kA2, 98, 33000)   // 98-99: Vcc, 3.3 V
      .U16(kA2, 100, 6000)   // 100-101: TX bias, 12 mA
      .U16(kA2, 102, 5000)   // 102-103: TX power, 0.5 mW
      .U16(kA2, 104, 180)    // 104-105: RX power, 18 uW
      .Byte(kA2, 110, 0x02)  // 110: status: bit 1 RX_LOS state asserted
      .Byte(kA2, 112, 0x00)  // 112: alarm flags, none
      .Byte(kA2, 113, 0x00)  // 113: alarm flags, none
      .Byte(kA2, 116, 0x00)  // 116: warning flags, none
      .Byte(kA2, 117, 0x40)  // 117: warning flags, bit 6 RX power low warning
      .Touch(kA2, 127);
  return b.Build();
}

// 1000BASE-LX SFP, external calibration (SFF-8472 section 9.3). Raw A/D values and the
// constants below give, by the formulas in the comments, exact physical values.
inline EepromImage SfpExternalCalibration() {
  ImageBuilder b;
  SfpSerialId(b, "ACME PHOTONICS", 0x001B21, "SFP-1G-LX-EXT", "1.0", "EXT000777", "191231AB");
  b.Byte(kA0, 6, 0x02)       // 6: Ethernet compliance, bit 1 1000BASE-LX
      .U16(kA0, 60, 1310)    // 60-61: laser wavelength, 1310 nm
      .Byte(kA0, 92, 0x58)   // 92: diagnostics: bit 6 DDM, bit 4 external cal, bit 3 average
      .Byte(kA0, 93, 0x80)   // 93: enhanced options: bit 7 alarm/warning flags implemented
      .Byte(kA0, 94, 0x09);  // 94: SFF-8472 compliance, rev 12.4
  // Thresholds as raw A/D values, calibrated like the monitors.
  b.U16(kA2, 0, 0x4D80)     // 0-1: temperature high alarm, raw 77.5 -> 75.0 degC
      .U16(kA2, 2, 0xFD80)  // 2-3: temperature low alarm, raw -2.5 -> -5.0 degC
      .U16(kA2, 4, 0x4880)  // 4-5: temperature high warning, raw 72.5 -> 70.0 degC
      .U16(kA2, 6, 0x0280)  // 6-7: temperature low warning, raw 2.5 -> 0.0 degC
      .U16(kA2, 8, 35500)   // 8-9: Vcc high alarm, raw 35500 + 500 -> 3.6 V
      .U16(kA2, 10, 29500)  // 10-11: Vcc low alarm -> 3.0 V
      .U16(kA2, 12, 34500)  // 12-13: Vcc high warning -> 3.5 V
      .U16(kA2, 14, 30500)  // 14-15: Vcc low warning -> 3.1 V
      .U16(kA2, 16, 7500)   // 16-17: TX bias high alarm, 2 x 7500 x 2 uA -> 30 mA
      .U16(kA2, 18, 250)    // 18-19: TX bias low alarm -> 1 mA
      .U16(kA2, 20, 6250)   // 20-21: TX bias high warning -> 25 mA
      .U16(kA2, 22, 500)    // 22-23: TX bias low warning -> 2 mA
      .U16(kA2, 24, 6734)   // 24-25: TX power high alarm, 1.5 x 6734 - 100 = 10001 -> 1.0001 mW
      .U16(kA2, 26, 734)    // 26-27: TX power low alarm, 1001 -> 0.1001 mW
      .U16(kA2, 28, 5400)   // 28-29: TX power high warning, 8000 -> 0.8 mW
      .U16(kA2, 30, 1400)   // 30-31: TX power low warning, 2000 -> 0.2 mW
      .U16(kA2, 32, 2048)   // 32-33: RX power high alarm, poly(2048) = 31754 -> 3.1754 mW
      .U16(kA2, 34, 0)      // 34-35: RX power low alarm, poly(0) = 10 -> 1 uW
      .U16(kA2, 36, 1024)   // 36-37: RX power high warning, poly(1024) = 4618 -> 0.4618 mW
      .U16(kA2, 38, 64);    // 38-39: RX power low warning, poly(64) = 110.265625
  // Table 9-6 external calibration constants. RX power, in 0.1 uW:
  //   Rx_PWR = 2^-30 x^4 + 2^-20 x^3 + 2^-10 x^2 + 1.5 x + 10
  b.Float(kA2, 56, 0x1p-30f)     // 56-59: Rx_PWR(4)
      .Float(kA2, 60, 0x1p-20f)  // 60-63: Rx_PWR(3)
      .Float(kA2, 64, 0x1p-10f)  // 64-67: Rx_PWR(2)
      .Float(kA2, 68, 1.5f)      // 68-71: Rx_PWR(1)
      .Float(kA2, 72, 10.0f)     // 72-75: Rx_PWR(0)
      .U16(kA2, 76, 0x0200)      // 76-77: Tx_I(slope), 2.0
      .U16(kA2, 78, 0x0000)      // 78-79: Tx_I(offset), 0
      .U16(kA2, 80, 0x0180)      // 80-81: Tx_PWR(slope), 1.5
      .U16(kA2, 82, 0xFF9C)      // 82-83: Tx_PWR(offset), -100 (x 0.1 uW)
      .U16(kA2, 84, 0x0100)      // 84-85: T(slope), 1.0
      .U16(kA2, 86, 0xFD80)      // 86-87: T(offset), -640 (x 1/256 degC) = -2.5 degC
      .U16(kA2, 88, 0x0100)      // 88-89: V(slope), 1.0
      .U16(kA2, 90, 0x01F4);     // 90-91: V(offset), +500 (x 100 uV) = +0.05 V
  b.U16(kA2, 96, 0x2D00)         // 96-97: temperature A/D 45.0 -> 42.5 degC
      .U16(kA2, 98, 32000)       // 98-99: Vcc A/D 32000 -> 32500 x 100 uV = 3.25 V
      .U16(kA2, 100, 3000)       // 100-101: TX bias A/D 3000 -> 6000 x 2 uA = 12 mA
      .U16(kA2, 102, 4000)       // 102-103: TX power A/D 4000 -> 5900 x 0.1 uW = 0.59 mW
      .U16(kA2, 104, 1024)       // 104-105: RX power A/D 1024 -> 4618 x 0.1 uW = 0.4618 mW
      .Byte(kA2, 112, 0x80)      // 112: alarm flags, bit 7 temperature high alarm
      .Touch(kA2, 127);
  return b.Build();
}

// 100GBASE-SR4 QSFP28 (SFF-8636 rev 2.10a). Lane 3 RX power (40 uW) is below its low warning
// threshold (50 uW) and its low warning flag is set.
inline EepromImage Qsfp28() {
  ImageBuilder b;
  // Lower page (Tables 6-2 .. 6-8).
  b.Byte(kPage00, 0, 0x11)       // 0: identifier, QSFP28
      .Byte(kPage00, 1, 0x08)    // 1: revision compliance, SFF-8636 rev 2.8-2.10
      .Byte(kPage00, 2, 0x00)    // 2: status: paged memory (bit 2 clear), data ready
      .Byte(kPage00, 3, 0x00)    // 3: LOS flags, none
      .Byte(kPage00, 4, 0x00)    // 4: TX fault flags, none
      .Byte(kPage00, 6, 0x00)    // 6: temperature flags, none
      .Byte(kPage00, 7, 0x00)    // 7: Vcc flags, none
      .Byte(kPage00, 9, 0x00)    // 9: RX power flags lanes 1-2, none
      .Byte(kPage00, 10, 0x10)   // 10: RX power flags lanes 3-4: bit 4 lane 3 low warning
      .U16(kPage00, 22, 0x2580)  // 22-23: temperature, 37.5 degC
      .U16(kPage00, 26, 32920)   // 26-27: Vcc, 3.292 V
      .U16(kPage00, 34, 0x1F40)  // 34-35: RX power lane 1, 8000 -> 0.8 mW
      .U16(kPage00, 36, 7500)    // 36-37: RX power lane 2, 0.75 mW
      .U16(kPage00, 38, 400)     // 38-39: RX power lane 3, 40 uW
      .U16(kPage00, 40, 9000)    // 40-41: RX power lane 4, 0.9 mW
      .U16(kPage00, 42, 7000)    // 42-43: TX bias lane 1, 14 mA
      .U16(kPage00, 44, 7200)    // 44-45: TX bias lane 2, 14.4 mA
      .U16(kPage00, 46, 6900)    // 46-47: TX bias lane 3, 13.8 mA
      .U16(kPage00, 48, 7100)    // 48-49: TX bias lane 4, 14.2 mA
      .U16(kPage00, 50, 6000)    // 50-51: TX power lane 1, 0.6 mW
      .U16(kPage00, 52, 5500)    // 52-53: TX power lane 2, 0.55 mW
      .U16(kPage00, 54, 6500)    // 54-55: TX power lane 3, 0.65 mW
      .U16(kPage00, 56, 5000);   // 56-57: TX power lane 4, 0.5 mW
  // Upper page 00h (Tables 6-14 .. 6-24).
  b.Byte(kPage00, 128, 0x11)                 // 128: identifier
      .Byte(kPage00, 129, 0x00)              // 129: extended identifier, power class 1
      .Byte(kPage00, 130, 0x0C)              // 130: connector, MPO 1x12
      .Byte(kPage00, 131, 0x80)              // 131: Ethernet compliance, bit 7 extended
      .Byte(kPage00, 147, 0x00)              // 147: device technology, 850 nm VCSEL
      .Ascii(kPage00, 148, 163, "MELLANOX")  // 148-163: vendor name
      .Byte(kPage00, 165, 0x00)              // 165-167: vendor OUI 00:02:c9
      .Byte(kPage00, 166, 0x02)
      .Byte(kPage00, 167, 0xC9)
      .Ascii(kPage00, 168, 183, "MMA1B00-C100D")  // 168-183: vendor part number
      .Ascii(kPage00, 184, 185, "B2")             // 184-185: vendor revision
      .U16(kPage00, 186, 17000)                   // 186-187: wavelength, 17000 x 0.05 = 850 nm
      .U16(kPage00, 188, 200)                     // 188-189: wavelength tolerance, 10 nm
      .Byte(kPage00, 192, 0x02)                   // 192: extended compliance, 100GBASE-SR4
      .Ascii(kPage00, 196, 211, "MT2142FT01234")  // 196-211: vendor serial number
      .Ascii(kPage00, 212, 219, "211015")         // 212-219: date code
      .Byte(kPage00, 220, 0x0C);                  // 220: diagnostics: bit 3 average, bit 2 TX power
  // Upper page 03h (Table 6-26): thresholds HA, LA, HW, LW.
  b.U16(kPage03, 128, 0x4B00)     // 128-129: temperature high alarm, 75 degC
      .U16(kPage03, 130, 0xFB00)  // 130-131: temperature low alarm, -5 degC
      .U16(kPage03, 132, 0x4600)  // 132-133: temperature high warning, 70 degC
      .U16(kPage03, 134, 0x0000)  // 134-135: temperature low warning, 0 degC
      .U16(kPage03, 144, 36000)   // 144-145: Vcc high alarm, 3.6 V
      .U16(kPage03, 146, 30000)   // 146-147: Vcc low alarm, 3.0 V
      .U16(kPage03, 148, 35000)   // 148-149: Vcc high warning, 3.5 V
      .U16(kPage03, 150, 31000)   // 150-151: Vcc low warning, 3.1 V
      .U16(kPage03, 176, 20000)   // 176-177: RX power high alarm, 2 mW
      .U16(kPage03, 178, 100)     // 178-179: RX power low alarm, 10 uW
      .U16(kPage03, 180, 16000)   // 180-181: RX power high warning, 1.6 mW
      .U16(kPage03, 182, 500)     // 182-183: RX power low warning, 50 uW
      .U16(kPage03, 184, 20000)   // 184-185: TX bias high alarm, 40 mA
      .U16(kPage03, 186, 2000)    // 186-187: TX bias low alarm, 4 mA
      .U16(kPage03, 188, 18000)   // 188-189: TX bias high warning, 36 mA
      .U16(kPage03, 190, 3000)    // 190-191: TX bias low warning, 6 mA
      .U16(kPage03, 192, 20000)   // 192-193: TX power high alarm, 2 mW
      .U16(kPage03, 194, 500)     // 194-195: TX power low alarm, 50 uW
      .U16(kPage03, 196, 16000)   // 196-197: TX power high warning, 1.6 mW
      .U16(kPage03, 198, 1000)    // 198-199: TX power low warning, 0.1 mW
      .Touch(kPage03, 255);
  return b.Build();
}

// CMIS lower page and page 00h fields common to the CMIS images (CMIS 5.2 section 8.2 and 8.3).
inline void CmisIdentity(ImageBuilder& b, std::uint8_t identifier, std::uint8_t revision, bool flat,
                         std::string_view vendor, std::uint32_t oui, std::string_view part,
                         std::string_view serial, std::string_view date) {
  b.Byte(kPage00, 0, identifier)             // 0: SFF-8024 identifier
      .Byte(kPage00, 1, revision)            // 1: CMIS revision, major.minor nibbles
      .Byte(kPage00, 2, flat ? 0x80 : 0x00)  // 2: bit 7 MemoryModel (1 = flat)
      .Byte(kPage00, 3, 0x06)                // 3: module state bits 3-1 = 3, ModuleReady
      .Byte(kPage00, 128, identifier)        // 128: identifier (copy)
      .Ascii(kPage00, 129, 144, vendor)      // 129-144: vendor name
      .Byte(kPage00, 145, static_cast<std::uint8_t>(oui >> 16))  // 145-147: vendor OUI
      .Byte(kPage00, 146, static_cast<std::uint8_t>(oui >> 8))
      .Byte(kPage00, 147, static_cast<std::uint8_t>(oui))
      .Ascii(kPage00, 148, 163, part)    // 148-163: vendor part number
      .Ascii(kPage00, 164, 165, "A1")    // 164-165: vendor revision
      .Ascii(kPage00, 166, 181, serial)  // 166-181: vendor serial number
      .Ascii(kPage00, 182, 189, date);   // 182-189: date code
}

// 400G SR8 QSFP-DD, CMIS 5.2, 8 lanes in bank 0, bias multiplier x2. Lane 6 RX power (30 uW)
// is below its low warning threshold (50 uW) and its flag (page 11h byte 152 bit 5) is set.
inline EepromImage QsfpDd8Lane() {
  ImageBuilder b;
  CmisIdentity(b, 0x18, 0x52, false, "NVIDIA", 0x48B02D, "MMA4Z00-NS400", "MT2305XZ00042",
               "230201");
  b.Byte(kPage00, 9, 0x00)        // 9: module flags (temperature, Vcc), none
      .U16(kPage00, 14, 0x2A40)   // 14-15: temperature, 42.25 degC
      .U16(kPage00, 16, 33000)    // 16-17: Vcc, 3.3 V
      .Byte(kPage00, 85, 0x01)    // 85: media type, multimode fiber
      .Byte(kPage00, 86, 0x11)    // 86: application 1 host interface ID
      .Byte(kPage00, 87, 0x10)    // 87: application 1 media interface ID
      .Byte(kPage00, 88, 0x88)    // 88: 8 host lanes (bits 7-4), 8 media lanes (bits 3-0)
      .Byte(kPage00, 89, 0x01)    // 89: host lane assignment, lane 1
      .Byte(kPage00, 203, 0x0C)   // 203: connector, MPO 1x12
      .Byte(kPage00, 212, 0x00);  // 212: media interface technology, 850 nm VCSEL
  // Page 01h (advertising).
  b.U16(kPage01, 138, 17000)      // 138-139: nominal wavelength, 850 nm
      .Byte(kPage01, 142, 0x00)   // 142: bits 1-0, bank 0 only
      .Byte(kPage01, 151, 0x10)   // 151: bit 4, RX power measured as average
      .Byte(kPage01, 157, 0x01)   // 157: bit 0, TX fault flag supported
      .Byte(kPage01, 158, 0x02)   // 158: bit 1, RX LOS flag supported
      .Byte(kPage01, 159, 0x03)   // 159: temperature and Vcc monitors supported
      .Byte(kPage01, 160, 0x0F);  // 160: bias, TX power, RX power monitors; bits 4-3 = 01, x2
  // Page 02h (thresholds): HA, LA, HW, LW.
  b.U16(kPage02, 128, 0x4B00)     // 128-129: temperature high alarm, 75 degC
      .U16(kPage02, 130, 0xFB00)  // 130-131: temperature low alarm, -5 degC
      .U16(kPage02, 132, 0x4600)  // 132-133: temperature high warning, 70 degC
      .U16(kPage02, 134, 0x0000)  // 134-135: temperature low warning, 0 degC
      .U16(kPage02, 136, 36000)   // 136-137: Vcc high alarm, 3.6 V
      .U16(kPage02, 138, 30000)   // 138-139: Vcc low alarm, 3.0 V
      .U16(kPage02, 140, 35000)   // 140-141: Vcc high warning, 3.5 V
      .U16(kPage02, 142, 31000)   // 142-143: Vcc low warning, 3.1 V
      .U16(kPage02, 176, 20000)   // 176-177: TX power high alarm, 2 mW
      .U16(kPage02, 178, 500)     // 178-179: TX power low alarm, 50 uW
      .U16(kPage02, 180, 16000)   // 180-181: TX power high warning, 1.6 mW
      .U16(kPage02, 182, 1000)    // 182-183: TX power low warning, 0.1 mW
      .U16(kPage02, 184, 10000)   // 184-185: bias high alarm, 10000 x 2 uA x 2 = 40 mA
      .U16(kPage02, 186, 1000)    // 186-187: bias low alarm, 4 mA
      .U16(kPage02, 188, 9000)    // 188-189: bias high warning, 36 mA
      .U16(kPage02, 190, 1500)    // 190-191: bias low warning, 6 mA
      .U16(kPage02, 192, 20000)   // 192-193: RX power high alarm, 2 mW
      .U16(kPage02, 194, 100)     // 194-195: RX power low alarm, 10 uW
      .U16(kPage02, 196, 16000)   // 196-197: RX power high warning, 1.6 mW
      .U16(kPage02, 198, 500);    // 198-199: RX power low warning, 50 uW
  // Page 11h bank 0 (lane flags and monitors; bit n / word n = lane n+1).
  b.Byte(kPage11Bank0, 135, 0x00)      // 135: TX fault, none
      .Byte(kPage11Bank0, 147, 0x00)   // 147: RX LOS, none
      .Byte(kPage11Bank0, 149, 0x00)   // 149: RX power high alarm, none
      .Byte(kPage11Bank0, 150, 0x00)   // 150: RX power low alarm, none
      .Byte(kPage11Bank0, 151, 0x00)   // 151: RX power high warning, none
      .Byte(kPage11Bank0, 152, 0x20);  // 152: RX power low warning, bit 5 = lane 6
  for (unsigned lane = 0; lane < 8; ++lane) {
    // 154-169: TX power lanes 1-8: 6000 + 100 n -> 0.60 .. 0.67 mW
    b.U16(kPage11Bank0, 154 + 2 * lane, static_cast<std::uint16_t>(6000 + 100 * lane));
    // 170-185: TX bias lanes 1-8: 3000 + 100 n, x 2 uA x 2 -> 12.0 .. 14.8 mA
    b.U16(kPage11Bank0, 170 + 2 * lane, static_cast<std::uint16_t>(3000 + 100 * lane));
    // 186-201: RX power lanes 1-8: 8000 - 100 n -> 0.80 .. 0.73 mW, lane 6 300 -> 30 uW
    b.U16(kPage11Bank0, 186 + 2 * lane,
          static_cast<std::uint16_t>(lane == 5 ? 300 : 8000 - 100 * lane));
  }
  b.Touch(kPage11Bank0, 255);
  return b.Build();
}

// QSFP+ CMIS passive copper cable with flat memory: lower page and page 00h only.
inline EepromImage CmisFlatMemory() {
  ImageBuilder b;
  CmisIdentity(b, 0x1E, 0x50, true, "AMPHENOL", 0x78A714, "NDAQGF-0001", "APF2215002B3A", "220415");
  b.Byte(kPage00, 85, 0x03)       // 85: media type, passive copper
      .Byte(kPage00, 86, 0x0B)    // 86: application 1 host interface ID
      .Byte(kPage00, 88, 0x44)    // 88: 4 host lanes, 4 media lanes
      .Byte(kPage00, 202, 0x42)   // 202: cable length, multiplier 1 m x 2
      .Byte(kPage00, 203, 0x23)   // 203: connector, no separable connector
      .Byte(kPage00, 212, 0x0A);  // 212: media technology, copper cable unequalized
  return b.Build();
}

// OSFP with 16 lanes: banks 0 and 1 of page 11h (page 01h byte 142 = 01). Lane n has RX power
// 1000 x n (0.1 mW x n) and TX power 500 x n.
inline EepromImage Osfp16Lane() {
  ImageBuilder b;
  CmisIdentity(b, 0x19, 0x52, false, "ROCEWATCH LAB", 0x000000, "OSFP-16L-TEST", "SN16LANES",
               "240101");
  b.U16(kPage00, 14, 0x1E00)      // 14-15: temperature, 30 degC
      .U16(kPage00, 16, 33000)    // 16-17: Vcc, 3.3 V
      .Byte(kPage00, 85, 0x02)    // 85: media type, single-mode fiber
      .Byte(kPage00, 86, 0xFF)    // 86: no application advertised: lanes from the banks
      .Byte(kPage00, 212, 0x06);  // 212: 1310 nm EML
  b.U16(kPage01, 138, 26200)      // 138-139: wavelength, 1310 nm
      .Byte(kPage01, 142, 0x01)   // 142: banks 0 and 1
      .Byte(kPage01, 159, 0x03)   // 159: temperature and Vcc monitors
      .Byte(kPage01, 160, 0x06);  // 160: TX power and RX power monitors, no bias, x1
  b.Touch(kPage02, 255);          // page 02h present, thresholds all zero
  for (unsigned lane = 0; lane < 16; ++lane) {
    const PageId page = lane < 8 ? kPage11Bank0 : kPage11Bank1;
    const unsigned index = lane % 8;
    b.U16(page, 154 + 2 * index, static_cast<std::uint16_t>(500 * (lane + 1)));   // TX power
    b.U16(page, 186 + 2 * index, static_cast<std::uint16_t>(1000 * (lane + 1)));  // RX power
  }
  b.Touch(kPage11Bank0, 255).Touch(kPage11Bank1, 255);
  return b.Build();
}

// Every image above by a file-friendly name, for the fixture writer and table-driven tests.
struct NamedImage {
  std::string name;
  EepromImage image;
};
inline std::vector<NamedImage> AllImages() {
  return {{"sfp_internal_calibration", SfpInternalCalibration()},
          {"sfp_external_calibration", SfpExternalCalibration()},
          {"qsfp28", Qsfp28()},
          {"qsfp_dd_8_lane", QsfpDd8Lane()},
          {"cmis_flat_memory", CmisFlatMemory()},
          {"osfp_16_lane", Osfp16Lane()}};
}

}  // namespace rocewatch::optics::testing
