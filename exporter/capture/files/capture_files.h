#pragma once

// How a capture directory stores kernel answers (docs/capture.md): the raw
// bytes at kernel/<key>, or, when the call failed, kernel/<key>.errno holding
// "<number> <NAME>" (e.g. "95 EOPNOTSUPP").

#include <cstdint>
#include <string>

#include "exporter/kernel/answers.h"
#include "rocewatch/result.h"

namespace rocewatch::kernel {

Status WriteAnswer(const std::string& capture_dir, const std::string& key, const Answer& answer);
// ENODATA when the capture holds neither file. Read beneath `capture_dir` (fs/beneath.h): an
// answer file that leads out of it, or is not a plain file, is refused (logged once, counted).
Answer ReadAnswer(const std::string& capture_dir, const std::string& key);
// The same; `recorded` is set when the answer is what the capture holds (its bytes, its .errno
// record, or neither file: ENODATA), and cleared when reading failed (refused, EIO): a replay may
// keep the first kind (capture/replay/replay_kernel.cpp), never the second.
Answer ReadAnswer(const std::string& capture_dir, const std::string& key, bool& recorded);
// Answer files refused since start (roce_exporter_refused_paths_total{tree="kernel"}).
std::uint64_t RefusedAnswers();

}  // namespace rocewatch::kernel
