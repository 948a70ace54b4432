#include "rocewatch/escape.h"

#include <cstdio>

namespace rocewatch::escape {
namespace {

bool IsWordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("_./:=@%+,-").find(c) != std::string_view::npos;
}

void AppendHex(std::string& out, unsigned char c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02x", c);
  out += buf;
}

// The length of the well-formed UTF-8 sequence at s[i] (RFC 3629), 0 when there is none, and
// its code point.
std::size_t Utf8At(std::string_view s, std::size_t i, char32_t& cp) {
  const auto b = static_cast<unsigned char>(s[i]);
  std::size_t extra = 0;
  unsigned char low = 0x80, high = 0xBF;
  if (b >= 0xC2 && b <= 0xDF) {
    extra = 1;
    cp = b & 0x1F;
  } else if (b >= 0xE0 && b <= 0xEF) {
    extra = 2;
    cp = b & 0x0F;
    if (b == 0xE0) low = 0xA0;
    if (b == 0xED) high = 0x9F;
  } else if (b >= 0xF0 && b <= 0xF4) {
    extra = 3;
    cp = b & 0x07;
    if (b == 0xF0) low = 0x90;
    if (b == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (i + extra >= s.size()) return 0;
  for (std::size_t k = 1; k <= extra; ++k) {
    const auto c = static_cast<unsigned char>(s[i + k]);
    if (k == 1 ? (c < low || c > high) : (c < 0x80 || c > 0xBF)) return 0;
    cp = cp << 6 | (c & 0x3F);
  }
  return extra + 1;
}

// Code points that are not C0 controls but still move, reorder or hide what a reader sees: C1
// controls, line and paragraph separators, bidirectional marks, embeddings, overrides and
// isolates, and the other invisible format controls (Unicode category Cf: soft hyphen,
// zero-width space and joiners, word joiner and invisible operators, the deprecated format
// characters, byte order mark, interlinear annotation, tag characters).
bool IsInvisibleControl(char32_t cp) {
  return (cp >= 0x80 && cp <= 0x9F) || cp == 0xAD || cp == 0x061C || cp == 0x180E ||
         (cp >= 0x200B && cp <= 0x200F) || cp == 0x2028 || cp == 0x2029 || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2060 && cp <= 0x2064) || (cp >= 0x2066 && cp <= 0x206F) || cp == 0xFEFF ||
         (cp >= 0xFFF9 && cp <= 0xFFFB) || cp == 0xE0001 || (cp >= 0xE0020 && cp <= 0xE007F);
}

void AppendCodePoint(std::string& out, char32_t cp) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "\\u{%04x}", static_cast<unsigned>(cp));
  out += buf;
}

// HTML and XML text: the five markup characters as entities, '\n' and '\t' kept, every other
// C0 control and DEL as U+FFFD, an invalid UTF-8 byte as U+FFFD (an XML reader refuses the
// document otherwise), C1 and the invisible format controls as the text \u{NNNN}.
std::string MarkupText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x80) {
      switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        default:
          if ((u < 0x20 && c != '\n' && c != '\t') || u == 0x7f) out += "\xEF\xBF\xBD";
          else out += c;
      }
      ++i;
      continue;
    }
    char32_t cp = 0;
    const std::size_t n = Utf8At(text, i, cp);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else if (IsInvisibleControl(cp) || cp == 0xFFFE || cp == 0xFFFF) {
      AppendCodePoint(out, cp);
      i += n;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

// TerminalText of at most `max` bytes of `text`, "…" after it when cut.
std::string CappedTerminalText(std::string_view text, std::size_t max) {
  if (text.size() <= max) return TerminalText(text);
  std::size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
  return TerminalText(text.substr(0, cut)) + "…";
}

}  // namespace

std::string ShWord(std::string_view text) {
  bool plain = !text.empty();
  for (char c : text) plain = plain && IsWordChar(c);
  if (plain) return std::string(text);
  std::string out = "'";
  for (char c : text) {
    if (c == '\'')
      out += "'\\''";
    else if (c == '\0')
      out += "\\x00";
    else if (c == '\\')
      out += "'\\\\'";  // outside the quotes: shellcheck reads '…\' as a mistaken escape (SC1003)
    else
      out += c;
  }
  return out + "'";
}

std::string HtmlText(std::string_view text) { return MarkupText(text); }

std::string XmlText(std::string_view text) { return MarkupText(text); }

std::string JsonInert(std::string_view json) {
  std::string out;
  out.reserve(json.size());
  for (std::size_t i = 0; i < json.size();) {
    const auto u = static_cast<unsigned char>(json[i]);
    char32_t cp = 0;
    const std::size_t n = u < 0x80 ? 0 : Utf8At(json, i, cp);
    if (n == 0) {
      out += json[i++];
      continue;
    }
    if (IsInvisibleControl(cp) && cp < 0x10000) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
      out += buf;
    } else if (IsInvisibleControl(cp)) {  // a tag character: its UTF-16 surrogate pair
      const char32_t v = cp - 0x10000;
      char buf[16];
      std::snprintf(buf, sizeof buf, "\\u%04x\\u%04x", static_cast<unsigned>(0xD800 + (v >> 10)),
                    static_cast<unsigned>(0xDC00 + (v & 0x3FF)));
      out += buf;
    } else {
      out.append(json.substr(i, n));
    }
    i += n;
  }
  return out;
}

std::string AlertmanagerText(std::string_view text) { return CappedTerminalText(text, kMaxAlertmanagerTextBytes); }

std::string PrometheusLabelValue(std::string_view text) { return CappedTerminalText(text, kMaxPrometheusLabelBytes); }

std::string TerminalText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
      ++i;
    } else if (c == '\n') {
      out += "\\n";
      ++i;
    } else if (c == '\r') {
      out += "\\r";
      ++i;
    } else if (c == '\t') {
      out += "\\t";
      ++i;
    } else if (c < 0x80) {
      AppendHex(out, c);
      ++i;
    } else {
      char32_t cp = 0;
      std::size_t n = Utf8At(text, i, cp);
      if (n == 0) {
        AppendHex(out, c);
        ++i;
      } else if (IsInvisibleControl(cp)) {
        AppendCodePoint(out, cp);
        i += n;
      } else {
        out.append(text.substr(i, n));
        i += n;
      }
    }
  }
  return out;
}

std::string ShComment(std::string_view text) { return TerminalText(text); }

std::string SystemdValue(std::string_view text) {
  std::string out;
  for (char ch : TerminalText(text)) {
    if (ch == '\\' || ch == '%') out += ch;
    out += ch;
  }
  return out;
}

std::string UdevMatchValue(std::string_view name) {
  std::string out;
  for (char ch : name) {
    const auto c = static_cast<unsigned char>(ch);
    bool special = c < 0x20 || c >= 0x7f ||
                   std::string_view("\"\\|*?[]$%").find(ch) != std::string_view::npos;
    out += special ? '?' : ch;
  }
  return out;
}

std::string PathComponentProblem(std::string_view name) {
  if (name.empty()) return "it is empty";
  if (name == "." || name == "..") return "it names a directory itself (\".\" or \"..\")";
  if (name.size() > 255) return "it is longer than 255 bytes";
  for (char ch : name) {
    const auto c = static_cast<unsigned char>(ch);
    if (ch == '/') return "it contains '/'";
    if (c == 0) return "it contains a NUL byte";
    if (c < 0x20 || c == 0x7f) return "it contains a control character";
  }
  return "";
}

std::optional<std::string> PathComponent(std::string_view name) {
  if (!PathComponentProblem(name).empty()) return std::nullopt;
  return std::string(name);
}

std::string ForeignLogLines(std::string_view output) {
  std::string out;
  while (!output.empty()) {
    const std::size_t end = output.find('\n');
    out += "  ";
    out += TerminalText(output.substr(0, end));
    out += '\n';
    if (end == std::string_view::npos) break;
    output.remove_prefix(end + 1);
  }
  return out;
}

std::string OwnLogLine(std::string_view prefix, std::string_view text) {
  return std::string(prefix) + TerminalText(text) + "\n";
}

}  // namespace rocewatch::escape
