// Capture: asks the live kernel and keeps every answer, failures included, so
// a replay gets the same answer for the same call.

#include "kernel/answers.h"
#include "capture/files/capture_files.h"
#include "util/log.h"

namespace rocewatch::kernel {
namespace {

class RecordingKernel final : public KernelAnswers {
 public:
  RecordingKernel(std::shared_ptr<KernelAnswers> inner, std::string dir)
      : inner_(std::move(inner)), dir_(std::move(dir)) {}

  Answer EthtoolDriverInfo(const std::string& n) override {
    return Keep(key::DriverInfo(n), inner_->EthtoolDriverInfo(n));
  }
  Answer EthtoolStringSetInfo(const std::string& n, std::uint32_t set) override {
    return Keep(key::StringSetInfo(n, set), inner_->EthtoolStringSetInfo(n, set));
  }
  Answer EthtoolStrings(const std::string& n, std::uint32_t set, std::uint32_t count) override {
    return Keep(key::Strings(n, set), inner_->EthtoolStrings(n, set, count));
  }
  Answer EthtoolStats(const std::string& n, std::uint32_t count) override {
    return Keep(key::Stats(n), inner_->EthtoolStats(n, count));
  }
  Answer EthtoolLinkSettings(const std::string& n) override {
    return Keep(key::LinkSettings(n), inner_->EthtoolLinkSettings(n));
  }
  Answer EthtoolModuleInfo(const std::string& n) override {
    return Keep(key::ModuleInfo(n), inner_->EthtoolModuleInfo(n));
  }
  Answer EthtoolModuleEeprom(const std::string& n, std::uint32_t offset,
                             std::uint32_t length) override {
    return Keep(key::ModuleEeprom(n, offset, length), inner_->EthtoolModuleEeprom(n, offset, length));
  }
  Answer DcbIeee(const std::string& n) override { return Keep(key::DcbIeee(n), inner_->DcbIeee(n)); }
  Answer DcbDcbx(const std::string& n) override { return Keep(key::DcbDcbx(n), inner_->DcbDcbx(n)); }
  Answer LinkState(const std::string& n) override {
    return Keep(key::LinkState(n), inner_->LinkState(n));
  }
  Answer Pause(const std::string& n) override { return Keep(key::Pause(n), inner_->Pause(n)); }
  Answer ModuleEepromPage(const std::string& n, const ModulePage& page) override {
    return Keep(key::ModuleEepromPage(n, page), inner_->ModuleEepromPage(n, page));
  }
  Answer VerbsPortAttr(const std::string& d, std::uint32_t port) override {
    return Keep(key::VerbsPortAttr(d, port), inner_->VerbsPortAttr(d, port));
  }
  Answer LldpNeighbors(const std::string& socket) override {
    return Keep(key::LldpNeighbors(), inner_->LldpNeighbors(socket));
  }

 private:
  Answer Keep(const std::string& key, Answer answer) {
    Status s = WriteAnswer(dir_, key, answer);
    if (!s.ok()) log::Error("capture: cannot keep a kernel answer", {{"error", s.error().message}});
    return answer;
  }

  std::shared_ptr<KernelAnswers> inner_;
  std::string dir_;
};

}  // namespace

std::unique_ptr<KernelAnswers> MakeRecordingKernel(std::shared_ptr<KernelAnswers> inner,
                                                   std::string capture_dir) {
  return std::make_unique<RecordingKernel>(std::move(inner), std::move(capture_dir));
}

}  // namespace rocewatch::kernel
