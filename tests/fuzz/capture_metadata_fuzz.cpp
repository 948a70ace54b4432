// The metadata of a capture directory that --replay reads before serving it: capture.json
// (ParseCaptureMetadata) and the `.errno` records of failed reads (ParseErrnoRecord).
// The input is both at once: all of it as capture.json, and its first line as an .errno file.

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <string>

#include "exporter/capture/files/capture_metadata.h"
#include "exporter/fs/errno_record.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rocewatch;
  const std::string_view text = fuzz::Text(data, size);

  const int err = fs::ParseErrnoRecord(text.substr(0, text.find('\n')));
  FUZZ_CHECK(err >= 1 && err <= 4095);

  auto meta = replay::ParseCaptureMetadata(text, "capture.json");
  if (!meta.ok()) {
    FUZZ_CHECK(meta.error().message.rfind("capture.json: ", 0) == 0);
    return 0;
  }
  // What was accepted writes back (never throws, whatever the bytes) and reads back the same.
  const std::string written = meta->ToJson();
  auto again = replay::ParseCaptureMetadata(written, "capture.json");
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(again->created_unix == meta->created_unix);
  FUZZ_CHECK(again->collectors.size() == meta->collectors.size());
  FUZZ_CHECK(again->ToJson() == written);
  (void)meta->Summary();
  return 0;
}
