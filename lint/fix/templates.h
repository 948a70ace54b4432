#pragma once

// The POSIX sh parts of the `roce-lint fix` script and the `--persist` files, as written in
// lint/fix/templates/ and embedded at build time (cmake/embed_files.cmake): shellcheck and
// dash -n read the shell ones as files (fix_shellcheck_templates), lint/fix/script.cpp and
// lint/fix/persist.cpp put them together. Placeholders (@NAME@: header.sh and the persist_*
// files) are filled by FillTemplate with text that went through rocewatch/escape.h, the one
// function for the file's kind (ShWord, ShComment, SystemdValue, UdevMatchValue).
// lint/verify/templates.h's scripts are filled by the same FillTemplate.

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

// `roce-lint fix --persist` (lint/fix/persist.h): the files, their names and paths written out.
extern const std::string_view kPersistInstall;  // persist_install.sh: install.sh
extern const std::string_view kPersistUnit;     // persist_unit.service: the systemd unit
extern const std::string_view kPersistUdev;     // persist_udev.rules: the udev rule

// `text` with every @NAME@ replaced by its value. A line that is only "#@NAME@" is replaced
// whole by the value (lines of its own, each with its newline; nothing when empty). An Error
// for a placeholder without a value or a value without its placeholder. "@" elsewhere ("$@")
// is text.
Result<std::string> FillTemplate(std::string_view text,
                                 const std::vector<std::pair<std::string_view, std::string>>& values);

}  // namespace rocewatch::lint::fix::templates
