#include "exporter/collectors/clock.h"

#include <chrono>

namespace rocewatch::collectors {

SourceClock SystemSourceClock() {
  return {
      [] {
        return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
            .count();
      },
      [] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
            .count();
      }};
}

}  // namespace rocewatch::collectors
