#pragma once

// A Content-Security-Policy hash source (CSP Level 3, "hash-source"): the page allows exactly
// the inline <script> and <style> it carries, by the SHA-256 of their text, instead of
// 'unsafe-inline' (which would let any injected inline script run).

#include <string>
#include <string_view>

namespace rocewatch::lint::report {

// "'sha256-<base64 of SHA-256(text)>'", the digest of exactly the bytes between the element's
// tags, as the browser computes it.
std::string CspSha256Source(std::string_view text);

}  // namespace rocewatch::lint::report
