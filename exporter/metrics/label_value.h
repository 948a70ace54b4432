#pragma once

// Label values are valid UTF-8, always (issue 13 item 6): a hw_counters file named
// "bad\xff\xfe" in a capture, or a firmware string with stray bytes, would otherwise make
// Prometheus (and `promtool check metrics`) reject the whole page. The renderers pass every
// label value through here; what is not valid UTF-8 is served with U+FFFD in place of each
// maximal ill-formed subpart (Unicode 15, §3.9, "U+FFFD substitution of maximal subparts"),
// and NUL as U+FFFD too. Replaced, not skipped: the series (a counter, a device) stays, and
// the value shows where the bytes were wrong. Counted in roce_exporter_label_values_repaired_total.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace rocewatch::metrics {

// True when `v` is valid UTF-8 and holds no NUL: served as it is.
bool IsValidLabelValue(std::string_view v);
// `v` with each maximal ill-formed UTF-8 subpart and each NUL replaced by U+FFFD (EF BF BD).
std::string RepairLabelValue(std::string_view v);

// A free-text label value that came from another machine (an LLDP system name or port
// description a switch sent): RepairLabelValue, and every control character besides (C0 with
// tab, LF and CR, DEL, C1 U+0080..U+009F) as U+FFFD too, so no ESC, BEL or CR reaches a
// terminal, a dashboard or a log that shows the value.
std::string RemoteTextLabelValue(std::string_view v);

// A label value read from a process (a comm, a cgroup path, a job's name: anyone who can start
// a process chooses them): RemoteTextLabelValue, cut to at most `max_bytes` at a character
// boundary with "…" appended where it was cut, so one process cannot make the page large
// (issue 38: a 1 MiB comm). docs/security.md lists the bounds.
std::string BoundedLabelValue(std::string_view v, std::size_t max_bytes);

// Label values repaired by the renderers since start (every rendered page counts its own).
std::uint64_t RepairedLabelValuesTotal();
void CountRepairedLabelValue();

}  // namespace rocewatch::metrics
