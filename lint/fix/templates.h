#pragma once

// The POSIX sh parts of the `roce-lint fix` script, as written in lint/fix/templates/*.sh and
// embedded at build time (cmake/embed_files.cmake): shellcheck reads them as files
// (fix_shellcheck_templates), lint/fix/script.cpp puts them together. Only header.sh has
// placeholders (@NAME@), filled by FillTemplate with text that went through rocewatch/escape.h.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rocewatch/result.h"

namespace rocewatch::lint::fix::templates {

extern const std::string_view kHeader;    // header.sh: shebang, comments, arguments
extern const std::string_view kLibrary;   // library.sh: output, readers, step(), precheck checks
extern const std::string_view kUpstream;  // upstream.sh: readers for iproute2 dcb
extern const std::string_view kMlnx;      // mlnx.sh: readers for MLNX_OFED mlnx_qos
extern const std::string_view kRollback;  // rollback.sh: the backup and --rollback
extern const std::string_view kMain;      // main.sh: precheck, configure, summary, exit code

// `text` with every @NAME@ replaced by its value. A line that is only "#@NAME@" is replaced
// whole by the value (lines of its own, each with its newline; nothing when empty). An Error
// for a placeholder without a value or a value without its placeholder. "@" elsewhere ("$@")
// is text.
Result<std::string> FillTemplate(std::string_view text,
                                 const std::vector<std::pair<std::string_view, std::string>>& values);

}  // namespace rocewatch::lint::fix::templates
