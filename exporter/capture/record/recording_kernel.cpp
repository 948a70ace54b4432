// Capture: asks the live kernel and keeps every answer, failures included, so
// a replay gets the same answer for the same call.

#include "exporter/capture/files/capture_files.h"
#include "exporter/kernel/answers.h"
#include "exporter/log.h"

namespace rocewatch::kernel {
namespace {

class RecordingKernel final : public KernelAnswers {
 public:
  RecordingKernel(std::shared_ptr<KernelAnswers> inner, std::string dir)
      : inner_(std::move(inner)), dir_(std::move(dir)) {}

  Answer Ask(const Request& request) override {
    Answer answer = inner_->Ask(request);
    Status s = WriteAnswer(dir_, KeyOf(request), answer);
    if (!s.ok()) log::Error("capture: cannot keep a kernel answer", {{"error", s.error().message}});
    return answer;
  }

  std::uint64_t refused_answers() const override { return inner_->refused_answers(); }

 private:
  std::shared_ptr<KernelAnswers> inner_;
  std::string dir_;
};

}  // namespace

std::unique_ptr<KernelAnswers> MakeRecordingKernel(std::shared_ptr<KernelAnswers> inner,
                                                   std::string capture_dir) {
  return std::make_unique<RecordingKernel>(std::move(inner), std::move(capture_dir));
}

}  // namespace rocewatch::kernel
