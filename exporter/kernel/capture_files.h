#pragma once

// How a capture directory stores kernel answers (docs/capture.md): the raw
// bytes at kernel/<key>, or, when the call failed, kernel/<key>.errno holding
// "<number> <NAME>" (e.g. "95 EOPNOTSUPP").

#include <string>

#include "kernel/answers.h"
#include "rocewatch/result.h"

namespace rocewatch::kernel {

Status WriteAnswer(const std::string& capture_dir, const std::string& key, const Answer& answer);
// ENODATA when the capture holds neither file.
Answer ReadAnswer(const std::string& capture_dir, const std::string& key);

}  // namespace rocewatch::kernel
