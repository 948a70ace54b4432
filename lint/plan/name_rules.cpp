#include "lint/plan/name_rules.h"

#include "rocewatch/escape.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::plan {
namespace {

constexpr std::size_t kMaxTextBytes = 256;

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

// The problem of a kernel object name (netdev, RDMA device) of at most `max` bytes.
std::string KernelNameProblem(std::string_view name, std::size_t max, bool colon_allowed) {
  if (name.empty()) return "it is empty";
  if (name.size() > max) return "it is longer than " + std::to_string(max) + " bytes";
  if (name == "." || name == "..") return "\".\" and \"..\" are not names";
  for (char c : name) {
    if (c == '/') return "it contains '/'";
    if (c == ':' && !colon_allowed) return "it contains ':'";
    if (IsSpace(c)) return "it contains white space";
  }
  return PrintableProblem(name);
}

}  // namespace

std::string PrintableProblem(std::string_view text) {
  if (text.size() > kMaxTextBytes)
    return "it is longer than " + std::to_string(kMaxTextBytes) + " bytes";
  if (FirstInvalidUtf8(text) != std::string_view::npos) return "it is not valid UTF-8";
  if (escape::TerminalText(text) != text) return "it contains a control character";
  return "";
}

std::string HostNameProblem(std::string_view name) {
  if (name.empty()) return "it is empty";
  if (name.size() > 253) return "it is longer than 253 characters";
  std::size_t label = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (c == '.') {
      if (label == 0) return "it has an empty label (\"..\", or a '.' at either end)";
      if (name[i - 1] == '-') return "a label ends with '-'";
      label = 0;
      continue;
    }
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '-';
    if (!ok) {
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
        return "it contains a control character";
      return "it contains " + Quote(std::string_view(&name[i], 1)) +
             " (only letters, digits, '-' and '.')";
    }
    if (label == 0 && c == '-') return "a label starts with '-'";
    if (++label > 63) return "a label is longer than 63 characters";
  }
  if (label == 0) return "it has an empty label (\"..\", or a '.' at either end)";
  if (name.back() == '-') return "a label ends with '-'";
  return "";
}

std::string NetdevNameProblem(std::string_view name) { return KernelNameProblem(name, 15, false); }

std::string RdmaDeviceNameProblem(std::string_view name) {
  return KernelNameProblem(name, 63, true);
}

}  // namespace rocewatch::lint::plan
