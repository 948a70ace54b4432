#pragma once

// One quoting or escaping function per target language. Every name or text that comes from
// input (a plan, an exporter's or Prometheus' answer, a file name) and goes into a shell script,
// a systemd unit, a udev rule, a file name or a terminal passes the function for its target, and
// only that one. Each function is total: whatever bytes it gets (newlines, NUL, ESC, quotes,
// `$(…)`, non-UTF-8, megabytes), its output stays one inert word, comment or line of its target,
// so a caller that forgot to validate still cannot inject (docs/security.md, "Threat model").

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace rocewatch::escape {

// One POSIX sh word that the shell reads back as exactly `text`: plain words
// ([A-Za-z0-9_./:=@%+,-], not empty) as they are, anything else in single quotes with embedded
// quotes as '\'' and backslashes as '\\' (outside the quotes, so that shellcheck does not
// take them for a mistaken escape). Single quotes keep every byte, newlines included, except
// NUL, which no shell word can hold: it is written as the four characters \x00.
std::string ShWord(std::string_view text);

// Text for the rest of a `#` comment line of a sh script: the terminal text of TerminalText, so
// it never ends the comment (no newline, no carriage return, no other control character).
std::string ShComment(std::string_view text);

// Text for a value or a comment line of a systemd unit file: no line break and no other control
// character (as \xNN, shown as written: systemd does not unescape Description=), '\' doubled
// (a line ending in a backslash would continue onto the next line) and '%' doubled (systemd
// expands %-specifiers in values; an unknown one makes the unit fail to load).
std::string SystemdValue(std::string_view text);

// The text between the double quotes of a udev rule's match value (KERNEL=="…", NAME=="…") that
// matches `name`: printable ASCII kept, and every byte udev or its glob would read specially
// ('"', '\', '|', '*', '?', '[', ']', '$', '%', control characters, bytes above 0x7e) becomes
// '?', which matches any one character. The match may be wider than the name; it can never end
// the value, the rule or the line.
std::string UdevMatchValue(std::string_view name);

// Text for a terminal or a log read by people: printable ASCII and well-formed UTF-8 kept;
// \n, \r, \t as those two characters, every other control character (C0, DEL, C1), invalid
// UTF-8 byte and Unicode line separator or bidirectional control as \xNN / \u{NNNN}. The output
// never moves the cursor, starts an escape sequence or begins a new line.
std::string TerminalText(std::string_view text);

// Text for HTML (element text and double- or single-quoted attribute values) and for XML (JUnit
// reports: the same rules, one function each so that a target is named where it is used): '&',
// '<', '>', '"', '\'' as entities (&#39;), '\n' and '\t' kept, any other C0 control, DEL and
// invalid UTF-8 byte as U+FFFD (XML 1.0 allows none of them), C1 and the invisible format
// controls of TerminalText (bidi overrides such as U+202E included) as the visible text \u{NNNN}.
std::string HtmlText(std::string_view text);
std::string XmlText(std::string_view text);

// A JSON document (SARIF included) as nlohmann-json dumped it, with each C1 control, bidi and
// other invisible format control written as its \uXXXX escape: the same string to a JSON reader,
// inert bytes to a person who views the file. (dump() escapes C0 controls itself.)
std::string JsonInert(std::string_view json);

// A label value or annotation pushed to Alertmanager (shown in its UI, e-mails, chat) and a label
// value served on a /metrics page: TerminalText, cut at the limit's bytes with "…" after
// (docs/security.md). Valid UTF-8 always, so a JSON or exposition writer never fails on it.
inline constexpr std::size_t kMaxAlertmanagerTextBytes = 1024;
inline constexpr std::size_t kMaxPrometheusLabelBytes = 1024;
std::string AlertmanagerText(std::string_view text);
std::string PrometheusLabelValue(std::string_view text);

// Another program's output (a remote shell, perftest, sshd) inside one of our log files: each
// line (split at '\n'; a last line without one counts) as two blanks, its TerminalText and
// '\n', so it can neither move a reader's cursor, ring, overwrite a line (ESC, BEL, CR), nor pass
// for one of our own lines (a remote "# result: PASS" is written as "  # result: PASS").
// Empty output gives "".
std::string ForeignLogLines(std::string_view output);

// One of our own lines of such a log: "<prefix><TerminalText(text)>\n" (names and details come
// from the plan and from the remote side, so they are escaped too).
std::string OwnLogLine(std::string_view prefix, std::string_view text);

// `name` as one component of a file path, or nullopt when it cannot be one without escaping
// its directory or meaning something else: empty, ".", "..", a '/', a NUL or any other control
// character, or longer than 255 bytes (NAME_MAX).
std::optional<std::string> PathComponent(std::string_view name);

// Why PathComponent refuses `name` ("it contains '/'"), or "" when it does not.
std::string PathComponentProblem(std::string_view name);

}  // namespace rocewatch::escape
