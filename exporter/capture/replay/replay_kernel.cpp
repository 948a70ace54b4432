// Answers from a capture directory: every call returns what the captured node
// answered, so replayed /metrics equal the node's through the same decoders.

#include "capture/replay/replay_kernel.h"

#include "capture/files/capture_files.h"
#include "capture/replay/motion.h"
#include "kernel/answers.h"

namespace rocewatch::kernel {
namespace {

class ReplayKernel final : public KernelAnswers {
 public:
  ReplayKernel(std::string dir, std::shared_ptr<const replay::Motion> motion)
      : dir_(std::move(dir)), motion_(std::move(motion)) {}

  Answer Ask(const Request& request) override {
    Answer answer = ReadAnswer(dir_, KeyOf(request));
    const auto* stats = std::get_if<call::Stats>(&request);
    if (stats != nullptr && answer.ok() && motion_ && !motion_->empty()) {
      // The names of the statistics (ETH_SS_STATS), which motion is written against.
      Answer strings = ReadAnswer(dir_, call::Strings{.netdev = stats->netdev, .set = 1}.Key());
      if (strings.ok()) motion_->ApplyToStats(stats->netdev, strings.bytes, answer.bytes);
    }
    return answer;
  }

 private:
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
