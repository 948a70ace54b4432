// The kernel calls (kernel/calls.h): each says what it asks, their capture keys are the
// layout docs/capture.md names and no two calls share one; every call recorded through the
// recording kernel comes back the same from the replay kernel.

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "common/test_dir.h"
#include "exporter/kernel/answers.h"

namespace rocewatch::kernel {
namespace {

// One request of every call, its arguments set to `netdev`, set 1, 4 entries, offset 0 and
// length 256, `page`, port 1: generated from Request, so a new call is in it without an edit.
std::vector<Request> EveryCall(const std::string& netdev, const ModulePage& page) {
  std::vector<Request> out;
  auto one = [&]<std::size_t I>() {
    std::variant_alternative_t<I, Request> c;
    if constexpr (requires { c.netdev; }) c.netdev = netdev;
    if constexpr (requires { c.device; }) c.device = "mlx5_0";
    if constexpr (requires { c.set; }) c.set = 1;
    if constexpr (requires { c.count; }) c.count = 4;
    if constexpr (requires { c.length; }) c.length = 256;
    if constexpr (requires { c.page; }) c.page = page;
    if constexpr (requires { c.port; }) c.port = 1;
    out.emplace_back(std::move(c));
  };
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (one.template operator()<I>(), ...);
  }(std::make_index_sequence<std::variant_size_v<Request>>());
  return out;
}

// Answers each call with bytes that name it and its arguments.
class NamingKernel final : public KernelAnswers {
 public:
  Answer Ask(const Request& r) override {
    if (std::holds_alternative<call::Pause>(r)) return Answer{{}, EOPNOTSUPP};  // failures are kept too
    std::string text = std::string(AsksOf(r)) + " " + KeyOf(r);
    if (const auto* s = std::get_if<call::Stats>(&r)) text += " " + std::to_string(s->count);
    return Answer{std::vector<std::uint8_t>(text.begin(), text.end()), 0};
  }
};

TEST(KernelCalls, EveryCallSaysWhatItAsksAndHasAKeyOfItsOwn) {
  ModulePage page{.i2c_address = 0x50, .bank = 0, .page = 3, .offset = 128, .length = 128};
  std::set<std::string> keys;
  for (const Request& r : EveryCall("eth0", page)) {
    EXPECT_FALSE(AsksOf(r).empty()) << KeyOf(r);
    EXPECT_TRUE(keys.insert(KeyOf(r)).second) << "two calls share " << KeyOf(r);
  }
  EXPECT_EQ(keys.size(), std::variant_size_v<Request>);
}

// tools/gen/kernel_answers.py, which writes the fixtures' kernel answers, types every key again
// in Python (key_*): each must be the key of one call here, and every call must have one.
TEST(KernelCalls, TheFixtureGeneratorHasEveryKeyAsTheCallsSayIt) {
  ModulePage page{.i2c_address = 0x50, .bank = 0, .page = 3, .offset = 0, .length = 256};
  std::set<std::string> calls;
  for (const Request& r : EveryCall("eth0", page)) calls.insert(KeyOf(r));
  // The same arguments by the generator's parameter names (EveryCall: offset 0, length 256).
  const std::string command = std::string("python3 ") + ROCEWATCH_SOURCE_DIR +
      "/tests/exporter/generator_keys.py '{\"netdev\": \"eth0\", \"device\": \"mlx5_0\", "
      "\"port\": 1, \"string_set\": 1, \"offset\": 0, \"length\": 256, \"i2c_address\": 80, "
      "\"bank\": 0, \"page\": 3}'";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr) << command;
  std::string out;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  ASSERT_EQ(pclose(pipe), 0) << command << "\n" << out;
  std::map<std::string, std::string> generator;  // key -> the function that gives it
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    const std::size_t tab = line.find('\t');
    ASSERT_NE(tab, std::string::npos) << line;
    EXPECT_TRUE(generator.emplace(line.substr(tab + 1), line.substr(0, tab)).second)
        << "two functions give " << line.substr(tab + 1);
  }
  for (const auto& [key, function] : generator)
    EXPECT_TRUE(calls.count(key)) << "tools/gen/kernel_answers.py " << function << " gives " << key
                                  << ", the key of no call of exporter/kernel/calls.h";
  for (const auto& key : calls)
    EXPECT_TRUE(generator.count(key)) << "no key_* function of tools/gen/kernel_answers.py gives "
                                      << key;
  EXPECT_EQ(generator.size(), std::variant_size_v<Request>);
}

TEST(KernelCalls, KeysAreTheCaptureLayout) {
  EXPECT_EQ(KeyOf(call::DriverInfo{"eth0"}), "ethtool/eth0/drvinfo");
  EXPECT_EQ(KeyOf(call::Strings{"eth0", 1, 9}), "ethtool/eth0/strings.1");
  EXPECT_EQ(KeyOf(call::ModuleEeprom{"eth0", 128, 64}), "ethtool/eth0/module_eeprom.128.64");
  EXPECT_EQ(KeyOf(call::DcbIeee{"eth0"}), "dcbnl/eth0/ieee");
  EXPECT_EQ(KeyOf(call::Pause{"eth0"}), "ethtool-netlink/eth0/pause");
  ModulePage page{.i2c_address = 0x50, .bank = 1, .page = 0x11, .offset = 128, .length = 128};
  EXPECT_EQ(KeyOf(call::ModuleEepromPage{"eth0", page}),
            "ethtool-netlink/eth0/module_eeprom.a50.b1.p11.o128.l128");
  EXPECT_EQ(KeyOf(call::VerbsPortAttr{"mlx5_0", 1}), "verbs/mlx5_0/port1");
  EXPECT_EQ(KeyOf(call::LldpNeighbors{"/run/x.sock"}), "lldp/neighbors.json");
}

TEST(KernelCalls, EveryRecordedCallReplaysTheSameAnswer) {
  rocewatch::testing::TestDir dir;
  auto inner = std::make_shared<NamingKernel>();
  auto recording = MakeRecordingKernel(inner, dir.path());
  ModulePage page{.i2c_address = 0x50, .bank = 0, .page = 3, .offset = 128, .length = 128};
  const std::vector<Request> requests = EveryCall("eth0", page);
  std::vector<Answer> recorded;
  for (const auto& r : requests) recorded.push_back(recording->Ask(r));
  auto replay = MakeReplayKernel(dir.path());
  for (std::size_t i = 0; i < requests.size(); ++i) {
    Answer again = replay->Ask(requests[i]);
    EXPECT_EQ(again.error, recorded[i].error) << KeyOf(requests[i]);
    EXPECT_EQ(again.bytes, recorded[i].bytes) << KeyOf(requests[i]);
    if (!std::holds_alternative<call::Pause>(requests[i])) {
      EXPECT_FALSE(again.bytes.empty()) << KeyOf(requests[i]);
    }
  }
  EXPECT_EQ(replay->Ask(call::Pause{"eth0"}).error, EOPNOTSUPP);
  // Not in the capture: ENODATA.
  EXPECT_EQ(replay->Ask(call::DcbIeee{"eth9"}).error, ENODATA);
}

}  // namespace
}  // namespace rocewatch::kernel
