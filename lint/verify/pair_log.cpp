#include "lint/verify/pair_log.h"

#include "rocewatch/escape.h"

namespace rocewatch::lint::verify {

std::string PairLogText(const PairResult& r) {
  return escape::OwnLogLine("# ", r.name) + r.log +
         escape::OwnLogLine("# result: ",
                    std::string(StatusName(r.status)) + (r.detail.empty() ? "" : " " + r.detail));
}

}  // namespace rocewatch::lint::verify
