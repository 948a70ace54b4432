// The kernel-call table (kernel/calls.h): one row per call, in enumeration
// order, with the capture keys docs/capture.md names; every call recorded
// through the recording kernel comes back the same from the replay kernel.

#include <gtest/gtest.h>

#include "common/test_dir.h"
#include "kernel/calls.h"

namespace rocewatch::kernel {
namespace {

// Answers each call with bytes that name it, its arguments and its object.
class NamingKernel final : public RequestAnswers {
 public:
  Answer Serve(const Request& r) override {
    std::string text = std::string(SpecOf(r.call).name) + " " + r.object + " " +
                       std::to_string(r.set) + " " + std::to_string(r.offset) + " " +
                       std::to_string(r.port) + " " + std::to_string(r.page.page);
    if (r.call == Call::kPause) return Answer{{}, EOPNOTSUPP};  // failures are kept too
    return Answer{std::vector<std::uint8_t>(text.begin(), text.end()), 0};
  }
};

TEST(KernelCalls, OneRowPerCallInEnumerationOrder) {
  const auto& calls = AllCalls();
  ASSERT_EQ(calls.size(), static_cast<std::size_t>(Call::kLldpNeighbors) + 1);
  for (std::size_t i = 0; i < calls.size(); ++i) {
    EXPECT_EQ(static_cast<std::size_t>(calls[i].call), i) << calls[i].name;
    EXPECT_FALSE(calls[i].asks.empty()) << calls[i].name;
  }
}

TEST(KernelCalls, KeysAreTheCaptureLayout) {
  EXPECT_EQ(KeyOf({.call = Call::kDriverInfo, .object = "eth0"}), "ethtool/eth0/drvinfo");
  EXPECT_EQ(KeyOf({.call = Call::kStrings, .object = "eth0", .set = 1, .count = 9}),
            "ethtool/eth0/strings.1");
  EXPECT_EQ(KeyOf({.call = Call::kModuleEeprom, .object = "eth0", .offset = 128, .length = 64}),
            "ethtool/eth0/module_eeprom.128.64");
  EXPECT_EQ(KeyOf({.call = Call::kDcbIeee, .object = "eth0"}), "dcbnl/eth0/ieee");
  EXPECT_EQ(KeyOf({.call = Call::kPause, .object = "eth0"}), "ethtool-netlink/eth0/pause");
  ModulePage page{.i2c_address = 0x50, .bank = 1, .page = 0x11, .offset = 128, .length = 128};
  EXPECT_EQ(KeyOf({.call = Call::kModuleEepromPage, .object = "eth0", .page = page}),
            "ethtool-netlink/eth0/module_eeprom.a50.b1.p11.o128.l128");
  EXPECT_EQ(KeyOf({.call = Call::kVerbsPortAttr, .object = "mlx5_0", .port = 1}),
            "verbs/mlx5_0/port1");
  EXPECT_EQ(KeyOf({.call = Call::kLldpNeighbors, .object = "/run/x.sock"}), "lldp/neighbors.json");
}

TEST(KernelCalls, EveryRecordedCallReplaysTheSameAnswer) {
  rocewatch::testing::TestDir dir;
  auto inner = std::make_shared<NamingKernel>();
  auto recording = MakeRecordingKernel(inner, dir.path());
  ModulePage page{.i2c_address = 0x50, .bank = 0, .page = 3, .offset = 128, .length = 128};
  std::vector<Request> requests;
  for (const auto& spec : AllCalls())
    requests.push_back({.call = spec.call,
                        .object = spec.call == Call::kVerbsPortAttr ? "mlx5_0" : "eth0",
                        .set = 1,
                        .count = 4,
                        .offset = 0,
                        .length = 256,
                        .page = page,
                        .port = 1});
  std::vector<Answer> recorded;
  for (const auto& r : requests) recorded.push_back(Ask(*recording, r));
  auto replay = MakeReplayKernel(dir.path());
  for (std::size_t i = 0; i < requests.size(); ++i) {
    Answer again = Ask(*replay, requests[i]);
    EXPECT_EQ(again.error, recorded[i].error) << SpecOf(requests[i].call).name;
    EXPECT_EQ(again.bytes, recorded[i].bytes) << SpecOf(requests[i].call).name;
    if (requests[i].call != Call::kPause) {
      EXPECT_FALSE(again.bytes.empty()) << SpecOf(requests[i].call).name;
    }
  }
  EXPECT_EQ(Ask(*replay, requests[static_cast<std::size_t>(Call::kPause)]).error, EOPNOTSUPP);
  // Not in the capture: ENODATA.
  EXPECT_EQ(replay->DcbIeee("eth9").error, ENODATA);
}

}  // namespace
}  // namespace rocewatch::kernel
