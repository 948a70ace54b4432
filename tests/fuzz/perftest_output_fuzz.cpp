// perftest's text output (lint/verify/perftest/perftest_output.h), which `roce-lint verify` reads
// from both ends of a pair over SSH: whatever the bytes, the parse ends, its kept rows and
// messages stay within their bounds, every value kept is finite, and every text kept for
// display is terminal-safe (no control character survives escape::TerminalText).

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.h"
#include "lint/verify/perftest/perftest_output.h"

namespace {

bool TerminalSafe(const std::string& s) {
  for (unsigned char c : s) {
    if (c < 0x20 || c == 0x7f) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rocewatch::lint::verify;
  auto out = ParsePerftestOutput(rocewatch::fuzz::Text(data, size));
  if (!out.ok()) {
    FUZZ_CHECK(out.error().message.rfind("line ", 0) == 0);
    return 0;
  }
  FUZZ_CHECK(out->bandwidth.size() + out->latency.size() <= kMaxPerftestRows);
  FUZZ_CHECK(out->errors.size() <= kMaxPerftestMessages);
  FUZZ_CHECK(out->warnings.size() <= kMaxPerftestMessages);
  for (const auto& row : out->bandwidth) {
    FUZZ_CHECK(std::isfinite(row.peak_bits_per_second));
    FUZZ_CHECK(std::isfinite(row.average_bits_per_second));
    FUZZ_CHECK(std::isfinite(row.message_rate_pps));
    FUZZ_CHECK(row.line >= 1);
  }
  for (const auto& row : out->latency) {
    FUZZ_CHECK(std::isfinite(row.min_us) && std::isfinite(row.max_us));
    FUZZ_CHECK(std::isfinite(row.typical_us) && std::isfinite(row.average_us));
    FUZZ_CHECK(std::isfinite(row.stdev_us));
  }
  for (const auto* text : {&out->test, &out->device, &out->link_type, &out->version,
                           &out->transport_type, &out->connection_type, &out->data_exchange}) {
    FUZZ_CHECK(TerminalSafe(*text));
  }
  for (const auto& e : out->errors) FUZZ_CHECK(TerminalSafe(e));
  for (const auto& w : out->warnings) FUZZ_CHECK(TerminalSafe(w));
  for (const auto& endpoint : out->local) FUZZ_CHECK(TerminalSafe(endpoint.gid));
  return 0;
}
