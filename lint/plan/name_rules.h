#pragma once

// The character set of each name a plan gives (docs/plan.md, "Names"). Names end up in shell
// scripts, systemd units, udev rules, file names and terminals; these rules keep out of the plan
// what no node could have anyway, and every renderer still escapes what it writes
// (rocewatch/escape.h). Each function returns why `name` breaks its rule, or "" when it does not;
// with `reason`, it also keeps that sentence there as a catalogue message ("plan.name.*",
// lint/i18n/), for a finding rendered in the report's language.

#include <string>
#include <string_view>

#include "lint/i18n/catalogue.h"

namespace rocewatch::lint::plan {

// A host name (RFC 1123 §2.1, RFC 952): dot-separated labels of 1–63 letters, digits and '-',
// no label starting or ending with '-', at most 253 characters in all.
std::string HostNameProblem(std::string_view name, i18n::StoredMessage* reason = nullptr);

// A network interface name as the kernel accepts it (dev_valid_name, net/core/dev.c): 1–15
// bytes (IFNAMSIZ 16 with the NUL), not "." or "..", no '/', ':' or white space; and, our rule,
// printable (PrintableProblem).
std::string NetdevNameProblem(std::string_view name, i18n::StoredMessage* reason = nullptr);

// An RDMA device name (ib_device_rename: IB_DEVICE_NAME_MAX 64 with the NUL; a kobject name
// holds no '/'): 1–63 bytes, not "." or "..", no '/' or white space, printable.
std::string RdmaDeviceNameProblem(std::string_view name, i18n::StoredMessage* reason = nullptr);

// Free text that is printed and written into comments (cluster, profile names, versions,
// labels): at most 256 bytes of well-formed UTF-8 with no control character (C0, DEL, C1), no
// Unicode line separator and no bidirectional control — what rocewatch::escape::TerminalText
// leaves as it is, tabs excepted.
std::string PrintableProblem(std::string_view text, i18n::StoredMessage* reason = nullptr);

}  // namespace rocewatch::lint::plan
