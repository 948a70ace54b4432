#pragma once

// KernelAnswers: the ioctl and netlink calls the exporter makes, as raw
// answers. Sources decode them with the pure decoders (ethtool/, netlink/,
// optics/); the transport never decodes. Three implementations: the live
// kernel, a recording wrapper (capture) and a replay of a capture directory,
// so a capture reproduces a node's /metrics through the same decoders.

#include <cerrno>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rocewatch::kernel {

// What one call answered: the buffer the kernel filled (ioctl) or the reply
// message it sent (netlink), or the errno it failed with.
struct Answer {
  std::vector<std::uint8_t> bytes;
  int error = 0;  // errno; 0 on success. ENODATA from a replay: not in the capture.
  bool ok() const { return error == 0; }
};

// A page of a module's EEPROM as ethtool netlink MODULE_EEPROM_GET addresses it.
struct ModulePage {
  std::uint8_t i2c_address = 0x50;
  std::uint8_t bank = 0;
  std::uint8_t page = 0;
  std::uint32_t offset = 0;  // 0..127 lower page, 128..255 the selected upper page
  std::uint32_t length = 128;
};

class KernelAnswers {
 public:
  virtual ~KernelAnswers() = default;

  // SIOCETHTOOL
  virtual Answer EthtoolDriverInfo(const std::string& netdev) = 0;                  // GDRVINFO
  virtual Answer EthtoolStringSetInfo(const std::string& netdev, std::uint32_t set) = 0;  // GSSET_INFO
  virtual Answer EthtoolStrings(const std::string& netdev, std::uint32_t set,
                                std::uint32_t count) = 0;                           // GSTRINGS
  virtual Answer EthtoolStats(const std::string& netdev, std::uint32_t count) = 0;  // GSTATS
  // GLINKSETTINGS after the mask-size handshake: the final buffer.
  virtual Answer EthtoolLinkSettings(const std::string& netdev) = 0;
  virtual Answer EthtoolModuleInfo(const std::string& netdev) = 0;  // GMODULEINFO
  virtual Answer EthtoolModuleEeprom(const std::string& netdev, std::uint32_t offset,
                                     std::uint32_t length) = 0;  // GMODULEEEPROM

  // rtnetlink RTM_GETDCB
  virtual Answer DcbIeee(const std::string& netdev) = 0;  // DCB_CMD_IEEE_GET
  virtual Answer DcbDcbx(const std::string& netdev) = 0;  // DCB_CMD_GDCBX

  // generic netlink "ethtool"
  virtual Answer LinkState(const std::string& netdev) = 0;  // ETHTOOL_MSG_LINKSTATE_GET
  virtual Answer Pause(const std::string& netdev) = 0;      // ETHTOOL_MSG_PAUSE_GET + stats
  virtual Answer ModuleEepromPage(const std::string& netdev, const ModulePage& page) = 0;

  // libibverbs ibv_query_port: the struct ibv_port_attr it filled, as bytes.
  // ENODEV when there is no such verbs device (no RDMA stack: not an error).
  virtual Answer VerbsPortAttr(const std::string& device, std::uint32_t port) = 0;

  // lldpd through liblldpctl (lldp/lldpctl_client.h): every neighbour as json0 text
  // (lldp/neighbors_json.h). `socket` is the control socket, "" for liblldpctl's default; a
  // replay ignores it. ENODATA by default: a KernelAnswers without LLDP answers none.
  virtual Answer LldpNeighbors(const std::string& socket) {
    (void)socket;
    return Answer{{}, ENODATA};
  }
};

// Where each answer lives in a capture directory, under kernel/ (docs/capture.md).
namespace key {
std::string DriverInfo(const std::string& netdev);
std::string StringSetInfo(const std::string& netdev, std::uint32_t set);
std::string Strings(const std::string& netdev, std::uint32_t set);
std::string Stats(const std::string& netdev);
std::string LinkSettings(const std::string& netdev);
std::string ModuleInfo(const std::string& netdev);
std::string ModuleEeprom(const std::string& netdev, std::uint32_t offset, std::uint32_t length);
std::string DcbIeee(const std::string& netdev);
std::string DcbDcbx(const std::string& netdev);
std::string LinkState(const std::string& netdev);
std::string Pause(const std::string& netdev);
std::string ModuleEepromPage(const std::string& netdev, const ModulePage& page);
std::string VerbsPortAttr(const std::string& device, std::uint32_t port);
std::string LldpNeighbors();
}  // namespace key

// Per-call timeout of the live netlink calls (ioctls cannot be interrupted).
struct LiveOptions {
  int netlink_timeout_ms = 2000;
};

// The running kernel, in the network namespace current when it is created.
std::unique_ptr<KernelAnswers> MakeLiveKernel(LiveOptions options = {});
// Answers from a capture directory's kernel/ folder (capture/replay/; with the
// capture's motion: capture/replay/replay.h).
std::unique_ptr<KernelAnswers> MakeReplayKernel(std::string capture_dir);
// Asks `inner` and writes every answer under `capture_dir`/kernel/ (capture/record/).
std::unique_ptr<KernelAnswers> MakeRecordingKernel(std::shared_ptr<KernelAnswers> inner,
                                                   std::string capture_dir);

}  // namespace rocewatch::kernel
