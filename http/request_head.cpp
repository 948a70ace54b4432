#include "http/request_head.h"

#include "rocewatch/strings.h"

namespace rocewatch::http {
namespace {

// RFC 9110 section 5.6.2 tchar.
bool IsTokenChar(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  switch (c) {
    case '!':
    case '#':
    case '$':
    case '%':
    case '&':
    case '\'':
    case '*':
    case '+':
    case '-':
    case '.':
    case '^':
    case '_':
    case '`':
    case '|':
    case '~':
      return true;
    default:
      return false;
  }
}

char Lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

std::string LowerCopy(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = Lower(c);
  return out;
}

bool ContainsToken(std::string_view list, std::string_view token) {
  for (std::string_view item : Split(list, ',')) {
    item = Trim(item);
    if (item.size() != token.size()) continue;
    bool same = true;
    for (std::size_t i = 0; i < item.size(); ++i) same = same && Lower(item[i]) == token[i];
    if (same) return true;
  }
  return false;
}

ParsedHead Bad(int status, std::string reason) {
  ParsedHead p;
  p.kind = ParsedHead::Kind::kBad;
  p.status = status;
  p.reason = std::move(reason);
  return p;
}

// The line in `s` from `from` up to its LF; npos when no LF yet. The CR before the LF is
// stripped from the returned line.
std::size_t LineEnd(std::string_view s, std::size_t from) { return s.find('\n', from); }

std::string_view StripCr(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

}  // namespace

const std::string* RequestHead::Header(std::string_view lower_name) const {
  for (const auto& [name, value] : headers) {
    if (name == lower_name) return &value;
  }
  return nullptr;
}

bool RequestHead::WantsKeepAlive() const {
  const std::string* connection = Header("connection");
  if (minor_version == 0) return connection != nullptr && ContainsToken(*connection, "keep-alive");
  return connection == nullptr || !ContainsToken(*connection, "close");
}

bool RequestHead::HasBody() const {
  if (Header("transfer-encoding") != nullptr) return true;
  const std::string* length = Header("content-length");
  if (length == nullptr) return false;
  auto n = ParseU64(*length);
  return !n || *n > 0;
}

ParsedHead ParseRequestHead(std::string_view buffer, const RequestLimits& limits) {
  // RFC 9112 section 2.2: ignore at least one empty line (CRLF) before the request line.
  std::size_t start = 0;
  while (start + 1 < buffer.size() && start < 4 && buffer[start] == '\r' &&
         buffer[start + 1] == '\n')
    start += 2;
  // Every line ends in CRLF (RFC 9112 section 2.2): a bare LF is refused, not read as a line
  // end, so a proxy that reads it otherwise cannot be made to see another request.
  for (std::size_t lf = buffer.find('\n', start); lf != std::string_view::npos;
       lf = buffer.find('\n', lf + 1)) {
    if (lf == 0 || buffer[lf - 1] != '\r') return Bad(400, "line ended by a bare LF");
    if (lf + 2 < buffer.size() && buffer[lf + 1] == '\r' && buffer[lf + 2] == '\n') break;
  }

  const std::size_t line_end = LineEnd(buffer, start);
  if (line_end == std::string_view::npos) {
    if (buffer.size() - start > limits.max_request_line)
      return Bad(414,
                 "request line longer than " + std::to_string(limits.max_request_line) + " bytes");
    if (buffer.size() > limits.max_head_bytes) return Bad(431, "request head too large");
    ParsedHead p;
    return p;
  }
  if (line_end - start > limits.max_request_line)
    return Bad(414,
               "request line longer than " + std::to_string(limits.max_request_line) + " bytes");

  // The end of the head: an empty line.
  std::size_t pos = line_end + 1;
  std::size_t head_end = std::string_view::npos;
  std::size_t header_lines = 0;
  while (pos <= buffer.size()) {
    const std::size_t end = LineEnd(buffer, pos);
    if (end == std::string_view::npos) break;
    if (StripCr(buffer.substr(pos, end - pos)).empty()) {
      head_end = end + 1;
      break;
    }
    if (++header_lines > limits.max_headers)
      return Bad(431, "more than " + std::to_string(limits.max_headers) + " header fields");
    pos = end + 1;
  }
  if (head_end == std::string_view::npos) {
    if (buffer.size() > limits.max_head_bytes)
      return Bad(431,
                 "request head longer than " + std::to_string(limits.max_head_bytes) + " bytes");
    ParsedHead p;
    return p;
  }
  if (head_end > limits.max_head_bytes)
    return Bad(431, "request head longer than " + std::to_string(limits.max_head_bytes) + " bytes");

  ParsedHead out;
  RequestHead& h = out.head;
  // Request line: method SP request-target SP HTTP-version.
  std::string_view line = StripCr(buffer.substr(start, line_end - start));
  const std::size_t sp1 = line.find(' ');
  const std::size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
  if (sp1 == std::string_view::npos || sp2 == std::string_view::npos ||
      line.find(' ', sp2 + 1) != std::string_view::npos)
    return Bad(400, "malformed request line");
  std::string_view method = line.substr(0, sp1);
  std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  std::string_view version = line.substr(sp2 + 1);
  if (method.empty() || method.size() > 20) return Bad(400, "malformed method");
  for (char c : method) {
    if (!IsTokenChar(c)) return Bad(400, "malformed method");
  }
  if (target.empty()) return Bad(400, "empty request target");
  for (char c : target) {
    if (static_cast<unsigned char>(c) <= 0x20 || static_cast<unsigned char>(c) >= 0x7f)
      return Bad(400, "request target with control or non-ASCII characters");
  }
  if (version.size() != 8 || version.substr(0, 5) != "HTTP/")
    return Bad(400, "malformed HTTP version");
  if (version == "HTTP/1.1") {
    h.minor_version = 1;
  } else if (version == "HTTP/1.0") {
    h.minor_version = 0;
  } else {
    return Bad(505, "only HTTP/1.0 and HTTP/1.1 are served");
  }
  h.method = std::string(method);
  h.target = std::string(target);
  std::string_view path = target;
  if (path.front() != '/') {
    // absolute-form (RFC 9112 section 3.2.2): scheme://authority/path
    const std::size_t scheme = path.find("://");
    if (scheme == std::string_view::npos || path == "*")
      return Bad(400, "request target is not a path");
    const std::size_t slash = path.find('/', scheme + 3);
    path = slash == std::string_view::npos ? std::string_view("/") : path.substr(slash);
  }
  const std::size_t query = path.find_first_of("?#");
  if (query != std::string_view::npos) path = path.substr(0, query);
  h.path = std::string(path);

  // Header fields.
  pos = line_end + 1;
  while (pos < head_end) {
    const std::size_t end = LineEnd(buffer, pos);
    std::string_view field = StripCr(buffer.substr(pos, end - pos));
    pos = end + 1;
    if (field.empty()) break;
    if (field.front() == ' ' || field.front() == '\t')
      return Bad(400, "obsolete header line folding");
    const std::size_t colon = field.find(':');
    if (colon == std::string_view::npos || colon == 0) return Bad(400, "malformed header field");
    std::string_view name = field.substr(0, colon);
    for (char c : name) {
      if (!IsTokenChar(c)) return Bad(400, "malformed header field name");
    }
    std::string_view value = field.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
      value.remove_prefix(1);
    while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
    for (char c : value) {
      const auto u = static_cast<unsigned char>(c);
      if ((u < 0x20 && c != '\t') || u == 0x7f)
        return Bad(400, "control character in a header value");
    }
    std::string lower = LowerCopy(name);
    // RFC 9112 section 6.3 and RFC 9110 section 7.2: framing and Host must be read the same
    // way by every hop; a second copy is refused rather than choosing one.
    if ((lower == "content-length" || lower == "host" || lower == "transfer-encoding") &&
        h.Header(lower) != nullptr)
      return Bad(400, "more than one " + std::string(name) + " header field");
    if (lower == "content-length" && !ParseU64(value))
      return Bad(400, "Content-Length is not a decimal number");
    h.headers.emplace_back(std::move(lower), std::string(value));
  }
  if (h.Header("content-length") != nullptr && h.Header("transfer-encoding") != nullptr)
    return Bad(400, "both Content-Length and Transfer-Encoding");
  if (h.minor_version == 1 && h.Header("host") == nullptr)
    return Bad(400, "HTTP/1.1 request without Host");
  out.kind = ParsedHead::Kind::kComplete;
  out.consumed = head_end;
  return out;
}

}  // namespace rocewatch::http
