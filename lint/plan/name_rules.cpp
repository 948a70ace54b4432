#include "lint/plan/name_rules.h"

#include "rocewatch/escape.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::plan {
namespace {

constexpr std::size_t kMaxTextBytes = 256;

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

// A problem: its English sentence, and the message in `reason` when asked for.
std::string Why(i18n::StoredMessage* reason, i18n::MessageId id, i18n::StoredArgs args = {}) {
  i18n::StoredMessage message = i18n::Store(id, std::move(args));
  std::string english = i18n::RenderOr(i18n::Language::kEnglish, message, "");
  if (reason != nullptr) *reason = std::move(message);
  return english;
}

// The problem of a kernel object name (netdev, RDMA device) of at most `max` bytes.
std::string KernelNameProblem(std::string_view name, std::size_t max, bool colon_allowed,
                              i18n::StoredMessage* reason) {
  if (name.empty()) return Why(reason, "plan.name.empty");
  if (name.size() > max) return Why(reason, "plan.name.too_long_bytes", {{"max", std::to_string(max)}});
  if (name == "." || name == "..") return Why(reason, "plan.name.dots");
  for (char c : name) {
    if (c == '/') return Why(reason, "plan.name.contains", {{"char", "'/'"}});
    if (c == ':' && !colon_allowed) return Why(reason, "plan.name.contains", {{"char", "':'"}});
    if (IsSpace(c)) return Why(reason, "plan.name.white_space");
  }
  return PrintableProblem(name, reason);
}

}  // namespace

std::string PrintableProblem(std::string_view text, i18n::StoredMessage* reason) {
  if (text.size() > kMaxTextBytes)
    return Why(reason, "plan.name.too_long_bytes", {{"max", std::to_string(kMaxTextBytes)}});
  if (FirstInvalidUtf8(text) != std::string_view::npos) return Why(reason, "plan.name.not_utf8");
  if (escape::TerminalText(text) != text) return Why(reason, "plan.name.control");
  return "";
}

std::string HostNameProblem(std::string_view name, i18n::StoredMessage* reason) {
  if (name.empty()) return Why(reason, "plan.name.empty");
  if (name.size() > 253) return Why(reason, "plan.name.too_long_chars", {{"max", "253"}});
  std::size_t label = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (c == '.') {
      if (label == 0) return Why(reason, "plan.name.empty_label");
      if (name[i - 1] == '-') return Why(reason, "plan.name.label_ends");
      label = 0;
      continue;
    }
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '-';
    if (!ok) {
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
        return Why(reason, "plan.name.control");
      return Why(reason, "plan.name.host_char", {{"char", Quote(std::string_view(&name[i], 1))}});
    }
    if (label == 0 && c == '-') return Why(reason, "plan.name.label_starts");
    if (++label > 63) return Why(reason, "plan.name.label_too_long");
  }
  if (label == 0) return Why(reason, "plan.name.empty_label");
  if (name.back() == '-') return Why(reason, "plan.name.label_ends");
  return "";
}

std::string NetdevNameProblem(std::string_view name, i18n::StoredMessage* reason) {
  return KernelNameProblem(name, 15, false, reason);
}

std::string RdmaDeviceNameProblem(std::string_view name, i18n::StoredMessage* reason) {
  return KernelNameProblem(name, 63, true, reason);
}

}  // namespace rocewatch::lint::plan
