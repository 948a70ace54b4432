#pragma once

// capture.json, the metadata of a capture directory (docs/capture.md): which node, kernel and
// tool wrote it, when, and why. `roce_exporter capture` writes it; `--replay` reads it to refuse
// a directory that is some other program's, or a layout version this build does not know, and
// to say in its log what it is serving. Parsing is pure (fuzzed: tests/fuzz/capture_metadata_fuzz.cpp).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rocewatch/result.h"

namespace rocewatch::replay {

inline constexpr std::string_view kCaptureFormat = "rocewatch-capture";
inline constexpr int kCaptureVersion = 1;

struct CaptureMetadata {
  std::string hostname;
  std::string kernel;       // uname -r of the captured node
  std::string created_by;   // "roce_exporter capture 0.1.0 (abc123)", or a generator
  std::optional<std::int64_t> created_unix;
  std::string description;
  std::vector<std::string> collectors;

  // Pretty-printed JSON, "format" and "version" first; text that is not UTF-8 (a host name, a
  // --description) is written with U+FFFD in its place rather than failing the capture.
  std::string ToJson() const;
  // "gpu-node-01, kernel 6.8.0-60-generic, roce_exporter capture 0.1.0 (abc123)": for logs.
  std::string Summary() const;
};

// From the text of capture.json; `where` names it in errors. "format" must be
// "rocewatch-capture" and "version" 1; the other keys are optional, but of their type.
Result<CaptureMetadata> ParseCaptureMetadata(std::string_view text, const std::string& where);

// DIR/capture.json; nullopt when there is none (a hand-made tree), an error when it is there
// but unreadable or invalid.
Result<std::optional<CaptureMetadata>> LoadCaptureMetadata(const std::string& capture_dir);

}  // namespace rocewatch::replay
