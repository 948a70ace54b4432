#pragma once

// The text of one pair's --log-dir file: our own lines ("# pair", "$ command   # server",
// "# result: ...") and, between them, everything both ends printed. The remote side's output is
// hostile (a perftest, a shell or an sshd on another node): it is written through
// escape::ForeignLogLines, our own lines through escape::OwnLogLine.

#include <string>
#include <string_view>

#include "lint/verify/judge.h"

namespace rocewatch::lint::verify {

// The whole file for `r`: "# <name>", r.log, "# result: <STATUS> <detail>".
std::string PairLogText(const PairResult& r);

}  // namespace rocewatch::lint::verify
