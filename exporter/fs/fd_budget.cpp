#include "exporter/fs/fd_budget.h"

#include <sys/resource.h>

namespace rocewatch::fs {

std::atomic<std::size_t> FdBudget::held_{0};
std::atomic<std::size_t> FdBudget::limit_{512};

std::size_t FdBudget::RaiseLimitAndSize(std::size_t reserve) {
  rlimit rl{};
  if (::getrlimit(RLIMIT_NOFILE, &rl) == 0) {
    if (rl.rlim_cur < rl.rlim_max) {
      rlimit raised = rl;
      raised.rlim_cur = rl.rlim_max;
      if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) rl = raised;
    }
    std::size_t soft = rl.rlim_cur == RLIM_INFINITY ? (1u << 20) : rl.rlim_cur;
    // Keep the budget sane even where the hard limit is huge: a node never has
    // more than a few tens of thousands of attributes worth holding.
    if (soft > (1u << 16)) soft = 1u << 16;
    limit_ = soft > reserve ? soft - reserve : 0;
  }
  return limit_;
}

void FdBudget::SetLimit(std::size_t limit) { limit_ = limit; }

bool FdBudget::TryAcquire() {
  std::size_t cur = held_.load();
  while (cur < limit_.load()) {
    if (held_.compare_exchange_weak(cur, cur + 1)) return true;
  }
  return false;
}

void FdBudget::Release() { held_.fetch_sub(1); }
std::size_t FdBudget::held() { return held_.load(); }
std::size_t FdBudget::limit() { return limit_.load(); }

}  // namespace rocewatch::fs
