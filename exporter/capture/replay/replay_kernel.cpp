// Answers from a capture directory: every call returns what the captured node
// answered, so replayed /metrics equal the node's through the same decoders.

#include "capture/replay/replay_kernel.h"

#include "kernel/answers.h"
#include "capture/files/capture_files.h"
#include "capture/replay/motion.h"

namespace rocewatch::kernel {
namespace {

class ReplayKernel final : public KernelAnswers {
 public:
  ReplayKernel(std::string dir, std::shared_ptr<const replay::Motion> motion)
      : dir_(std::move(dir)), motion_(std::move(motion)) {}

  Answer EthtoolDriverInfo(const std::string& n) override { return Read(key::DriverInfo(n)); }
  Answer EthtoolStringSetInfo(const std::string& n, std::uint32_t set) override {
    return Read(key::StringSetInfo(n, set));
  }
  Answer EthtoolStrings(const std::string& n, std::uint32_t set, std::uint32_t) override {
    return Read(key::Strings(n, set));
  }
  Answer EthtoolStats(const std::string& n, std::uint32_t) override {
    Answer stats = Read(key::Stats(n));
    if (stats.ok() && motion_ && !motion_->empty()) {
      Answer strings = Read(key::Strings(n, 1));  // ETH_SS_STATS
      if (strings.ok()) motion_->ApplyToStats(n, strings.bytes, stats.bytes);
    }
    return stats;
  }
  Answer EthtoolLinkSettings(const std::string& n) override { return Read(key::LinkSettings(n)); }
  Answer EthtoolModuleInfo(const std::string& n) override { return Read(key::ModuleInfo(n)); }
  Answer EthtoolModuleEeprom(const std::string& n, std::uint32_t offset,
                             std::uint32_t length) override {
    return Read(key::ModuleEeprom(n, offset, length));
  }
  Answer DcbIeee(const std::string& n) override { return Read(key::DcbIeee(n)); }
  Answer DcbDcbx(const std::string& n) override { return Read(key::DcbDcbx(n)); }
  Answer LinkState(const std::string& n) override { return Read(key::LinkState(n)); }
  Answer Pause(const std::string& n) override { return Read(key::Pause(n)); }
  Answer ModuleEepromPage(const std::string& n, const ModulePage& page) override {
    return Read(key::ModuleEepromPage(n, page));
  }
  Answer VerbsPortAttr(const std::string& d, std::uint32_t port) override {
    return Read(key::VerbsPortAttr(d, port));
  }
  Answer LldpNeighbors(const std::string&) override { return Read(key::LldpNeighbors()); }

 private:
  Answer Read(const std::string& key) { return ReadAnswer(dir_, key); }
  std::string dir_;
  std::shared_ptr<const replay::Motion> motion_;
};

}  // namespace

std::unique_ptr<KernelAnswers> MakeReplayKernel(std::string capture_dir,
                                                std::shared_ptr<const replay::Motion> motion) {
  return std::make_unique<ReplayKernel>(std::move(capture_dir), std::move(motion));
}

std::unique_ptr<KernelAnswers> MakeReplayKernel(std::string capture_dir) {
  return MakeReplayKernel(std::move(capture_dir), nullptr);
}

}  // namespace rocewatch::kernel
