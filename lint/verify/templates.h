#pragma once

// The sh scripts `roce-lint verify` feeds to a node, as written in lint/verify/templates/*.sh
// and embedded at build time (cmake/embed_files.cmake): shellcheck and dash -n read them as
// files (tests/lint/verify/CMakeLists.txt), lint/verify/remote_script.cpp fills their placeholders
// (@NAME@) with lint/fix/templates.h's FillTemplate, every value from the plan through
// escape::ShWord.

#include <string_view>

namespace rocewatch::lint::verify::templates {

extern const std::string_view kPerftest;  // perftest.sh: find the GID index, run the tool
extern const std::string_view kCleanup;   // cleanup.sh: stop what perftest.sh started

}  // namespace rocewatch::lint::verify::templates
