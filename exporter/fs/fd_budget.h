#pragma once

// How many attribute descriptors the exporter may keep open
// (docs/design.md#where-the-time-goes): pread on a held descriptor costs a quarter of
// open+read+close, so dynamic attributes stay open; the budget keeps us clear of
// RLIMIT_NOFILE and the rest fall back to open-per-read.

#include <atomic>
#include <cstddef>

namespace rocewatch::fs {

class FdBudget {
 public:
  // Raises RLIMIT_NOFILE's soft limit to the hard limit and sizes the budget
  // to it, minus a reserve for sockets and the HTTP server. Returns the budget.
  static std::size_t RaiseLimitAndSize(std::size_t reserve = 256);
  static void SetLimit(std::size_t limit);  // tests

  static bool TryAcquire();
  static void Release();
  static std::size_t held();
  static std::size_t limit();

 private:
  static std::atomic<std::size_t> held_;
  static std::atomic<std::size_t> limit_;
};

}  // namespace rocewatch::fs
