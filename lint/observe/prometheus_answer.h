#pragma once

// The answer of a Prometheus-compatible instant query (GET /api/v1/query, Prometheus, Thanos,
// Mimir) turned into exposition text, one text per `instance`. Pure: bytes in, text out, no
// I/O, so it is unit-tested and fuzzed (tests/fuzz/prometheus_answer_fuzz.cpp) on its own.

#include <map>
#include <string>
#include <string_view>

#include "rocewatch/result.h"

namespace rocewatch::lint::observe {

// Each sample of a "vector" result becomes one line `name{label="value",...} value`, appended
// to the text of its `instance` label. A sample is skipped (never turned into other lines) when
// it has no __name__ or instance, a metric or label name the text format does not allow, or a
// value that is not a number. An Error, its message starting with `where`, when the body is not
// a JSON object, its status is not "success", or its result is not a vector.
Result<std::map<std::string, std::string>> SplitVectorAnswerByInstance(std::string_view body,
                                                                       std::string_view where);

}  // namespace rocewatch::lint::observe
