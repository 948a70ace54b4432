#pragma once

// The replay's KernelAnswers with the capture's motion applied to ethtool
// statistics (motion.h). Without motion, kernel::MakeReplayKernel(dir) in
// kernel/answers.h.

#include <memory>
#include <string>

#include "exporter/kernel/answers.h"

namespace rocewatch::replay {
class Motion;
}

namespace rocewatch::kernel {

std::unique_ptr<KernelAnswers> MakeReplayKernel(std::string capture_dir,
                                                std::shared_ptr<const replay::Motion> motion);

}  // namespace rocewatch::kernel
