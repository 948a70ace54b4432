#include "lint/verify/pair_log.h"

#include "rocewatch/escape.h"

namespace rocewatch::lint::verify {

std::string RemoteLogLines(std::string_view output) {
  std::string out;
  while (!output.empty()) {
    const std::size_t end = output.find('\n');
    const std::string_view line = output.substr(0, end);
    out += "  ";
    out += escape::TerminalText(line);
    out += '\n';
    if (end == std::string_view::npos) break;
    output.remove_prefix(end + 1);
  }
  return out;
}

std::string OwnLogLine(std::string_view prefix, std::string_view text) {
  return std::string(prefix) + escape::TerminalText(text) + "\n";
}

std::string PairLogText(const PairResult& r) {
  return OwnLogLine("# ", r.name) + r.log +
         OwnLogLine("# result: ",
                    std::string(StatusName(r.status)) + (r.detail.empty() ? "" : " " + r.detail));
}

}  // namespace rocewatch::lint::verify
