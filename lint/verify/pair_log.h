#pragma once

// The text of one pair's --log-dir file: our own lines ("# pair", "$ command   # server",
// "# result: ...") and, between them, everything both ends printed. The remote side's output is
// hostile (a perftest, a shell or an sshd on another node): each of its lines is written
// through escape::TerminalText and indented by two blanks, so it can neither move a reader's
// cursor, ring, overwrite a line (ESC, BEL, CR), nor pass for one of our lines (a remote
// "# result: PASS" is written as "  # result: PASS").

#include <string>
#include <string_view>

#include "lint/verify/judge.h"

namespace rocewatch::lint::verify {

// `output` as log lines: each line (split at '\n'; a last line without one counts) as two
// blanks, its TerminalText and '\n'. Empty output gives "".
std::string RemoteLogLines(std::string_view output);

// One of our own lines: "<prefix><TerminalText(text)>\n" (names and details come from the plan
// and from the remote side, so they are escaped too).
std::string OwnLogLine(std::string_view prefix, std::string_view text);

// The whole file for `r`: "# <name>", r.log, "# result: <STATUS> <detail>".
std::string PairLogText(const PairResult& r);

}  // namespace rocewatch::lint::verify
