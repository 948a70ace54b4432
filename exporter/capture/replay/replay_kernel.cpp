// Answers from a capture directory: every call returns what the captured node
// answered, so replayed /metrics equal the node's through the same decoders.
//
// A capture is one instant: its answer files do not change while it is replayed. Each answer
// is read from its file once and served from memory after that (docs/performance.md: reading
// ~150 answer files beneath the capture on every pass, open, fstat, read and close each, was
// ~1 ms of a 16-device scrape, a cost that is the replay's own: on a live node these calls are
// the ioctls and netlink round trips). Kept: what the capture holds (an answer's bytes, its
// .errno record, or ENODATA for neither). Not kept: a read that failed (a refused answer is
// refused and counted on every call, as before), and GSTRINGS answers, which a source asks
// for only when it classifies a string set (220 KB a 64-channel mlx5 netdev: keeping them
// would cost memory for nothing). Motion (motion.h) is added to a copy on every call.

#include "exporter/capture/replay/replay_kernel.h"

#include <mutex>
#include <unordered_map>
#include <variant>

#include "exporter/capture/files/capture_files.h"
#include "exporter/capture/replay/motion.h"
#include "exporter/kernel/answers.h"

namespace rocewatch::kernel {
namespace {

class ReplayKernel final : public KernelAnswers {
 public:
  ReplayKernel(std::string dir, std::shared_ptr<const replay::Motion> motion)
      : dir_(std::move(dir)), motion_(std::move(motion)) {}

  Answer Ask(const Request& request) override {
    const std::string key = KeyOf(request);
    if (std::holds_alternative<call::Strings>(request)) return ReadAnswer(dir_, key);
    Answer answer = *Kept(key);
    const auto* stats = std::get_if<call::Stats>(&request);
    if (stats != nullptr && answer.ok() && motion_ && !motion_->empty()) {
      if (auto rates = RatesOf(stats->netdev)) motion_->ApplyRates(*rates, answer.bytes);
    }
    const auto* fec = std::get_if<call::Fec>(&request);
    if (fec != nullptr && answer.ok() && motion_ && !motion_->empty())
      motion_->ApplyToFec(fec->netdev, answer.bytes);
    const auto* rdma = std::get_if<call::RdmaStat>(&request);
    if (rdma != nullptr && answer.ok() && motion_ && !motion_->empty())
      motion_->ApplyToRdmaStat(rdma->device, rdma->port, answer.bytes);
    return answer;
  }

  std::uint64_t refused_answers() const override { return RefusedAnswers(); }

 private:
  using Rates = std::vector<replay::Motion::StatRate>;

  // The capture's answer for `key`, read on first use.
  std::shared_ptr<const Answer> Kept(const std::string& key) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = answers_.find(key);
      if (it != answers_.end()) return it->second;
    }
    bool recorded = false;
    auto answer = std::make_shared<const Answer>(ReadAnswer(dir_, key, recorded));
    if (!recorded) return answer;
    std::lock_guard<std::mutex> lock(mu_);
    return answers_.try_emplace(key, std::move(answer)).first->second;  // the first one read wins
  }

  // Which statistics of `netdev` move, named from its GSTRINGS answer once; null while that
  // answer cannot be read (then asked again next time, as before).
  std::shared_ptr<const Rates> RatesOf(const std::string& netdev) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = rates_.find(netdev);
      if (it != rates_.end()) return it->second;
    }
    bool recorded = false;
    // The names of the statistics (ETH_SS_STATS), which motion is written against.
    Answer strings = ReadAnswer(dir_, call::Strings{.netdev = netdev, .set = 1}.Key(), recorded);
    if (!strings.ok()) return nullptr;
    auto rates = std::make_shared<const Rates>(motion_->StatsRates(netdev, strings.bytes));
    std::lock_guard<std::mutex> lock(mu_);
    return rates_.try_emplace(netdev, std::move(rates)).first->second;
  }

  std::string dir_;
  std::shared_ptr<const replay::Motion> motion_;
  std::mutex mu_;  // sources on their own threads share this kernel
  std::unordered_map<std::string, std::shared_ptr<const Answer>> answers_;
  std::unordered_map<std::string, std::shared_ptr<const Rates>> rates_;
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
