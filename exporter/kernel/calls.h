#pragma once

// The kernel calls as data: each KernelAnswers method is one Call, one row in
// kernel/calls.cpp's table (its name, what it asks, its capture key). Replay
// and recording are written once against a Request (RequestAnswers), so a new
// call needs its KernelAnswers method, its Call, its row here and its live
// implementation; replay, recording and the capture layout follow from the
// table (docs/architecture.md).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kernel/answers.h"

namespace rocewatch::kernel {

enum class Call {
  kDriverInfo,
  kStringSetInfo,
  kStrings,
  kStats,
  kLinkSettings,
  kModuleInfo,
  kModuleEeprom,
  kDcbIeee,
  kDcbDcbx,
  kLinkState,
  kPause,
  kModuleEepromPage,
  kVerbsPortAttr,
  kLldpNeighbors,
};

// One call with its arguments; the fields a call does not take stay zero.
struct Request {
  Call call;
  std::string object;       // the netdev; the RDMA device (verbs); lldpd's socket (LLDP)
  std::uint32_t set = 0;    // ethtool string set (GSSET_INFO, GSTRINGS)
  std::uint32_t count = 0;  // entries asked for (GSTRINGS, GSTATS)
  std::uint32_t offset = 0, length = 0;  // GMODULEEEPROM
  ModulePage page{};                     // MODULE_EEPROM_GET
  std::uint32_t port = 0;                // verbs
};

struct CallSpec {
  Call call;
  std::string_view name;                          // as the code names it
  std::string_view asks;                          // the kernel interface, for docs and logs
  std::string (*key)(const Request&);             // where its answer lives in a capture
  Answer (*ask)(KernelAnswers&, const Request&);  // the KernelAnswers method it is
};

// Every call, in the order of the Call enumeration.
const std::vector<CallSpec>& AllCalls();
const CallSpec& SpecOf(Call call);
// Where the answer to `request` lives under a capture's kernel/ folder.
std::string KeyOf(const Request& request);
// Asks `kernel` through the method `request` names.
Answer Ask(KernelAnswers& kernel, const Request& request);

// A KernelAnswers that answers every call in one place (replay, recording).
class RequestAnswers : public KernelAnswers {
 public:
  virtual Answer Serve(const Request& request) = 0;

  Answer EthtoolDriverInfo(const std::string& netdev) final;
  Answer EthtoolStringSetInfo(const std::string& netdev, std::uint32_t set) final;
  Answer EthtoolStrings(const std::string& netdev, std::uint32_t set, std::uint32_t count) final;
  Answer EthtoolStats(const std::string& netdev, std::uint32_t count) final;
  Answer EthtoolLinkSettings(const std::string& netdev) final;
  Answer EthtoolModuleInfo(const std::string& netdev) final;
  Answer EthtoolModuleEeprom(const std::string& netdev, std::uint32_t offset,
                             std::uint32_t length) final;
  Answer DcbIeee(const std::string& netdev) final;
  Answer DcbDcbx(const std::string& netdev) final;
  Answer LinkState(const std::string& netdev) final;
  Answer Pause(const std::string& netdev) final;
  Answer ModuleEepromPage(const std::string& netdev, const ModulePage& page) final;
  Answer VerbsPortAttr(const std::string& device, std::uint32_t port) final;
  Answer LldpNeighbors(const std::string& socket) final;
};

}  // namespace rocewatch::kernel
