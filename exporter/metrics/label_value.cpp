#include "exporter/metrics/label_value.h"

#include <algorithm>
#include <atomic>

namespace rocewatch::metrics {
namespace {

std::atomic<std::uint64_t> g_repaired{0};

// Length of the well-formed UTF-8 sequence at s[i] (Unicode Table 3-7), or 0 with `bad` set to
// the length of the maximal ill-formed subpart there (at least 1).
std::size_t Sequence(std::string_view s, std::size_t i, std::size_t& bad) {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) return 1;
  std::size_t need = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    need = 1;
  } else if (c == 0xE0) {
    need = 2, lo = 0xA0;
  } else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) {
    need = 2;
  } else if (c == 0xED) {
    need = 2, hi = 0x9F;  // no surrogates
  } else if (c == 0xF0) {
    need = 3, lo = 0x90;
  } else if (c >= 0xF1 && c <= 0xF3) {
    need = 3;
  } else if (c == 0xF4) {
    need = 3, hi = 0x8F;  // nothing above U+10FFFF
  } else {
    bad = 1;  // 80..C1, F5..FF never start a sequence
    return 0;
  }
  for (std::size_t k = 1; k <= need; ++k) {
    if (i + k >= s.size()) {
      bad = k;
      return 0;
    }
    const auto d = static_cast<unsigned char>(s[i + k]);
    if (d < (k == 1 ? lo : 0x80) || d > (k == 1 ? hi : 0xBF)) {
      bad = k;
      return 0;
    }
  }
  return need + 1;
}

}  // namespace

bool IsValidLabelValue(std::string_view v) {
  std::size_t i = 0;
  while (i < v.size()) {
    const auto c = static_cast<unsigned char>(v[i]);
    if (c == 0) return false;
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t bad = 0;
    std::size_t n = Sequence(v, i, bad);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string RepairLabelValue(std::string_view v) {
  static constexpr std::string_view kReplacement = "\xEF\xBF\xBD";
  std::string out;
  out.reserve(v.size() + 8);
  std::size_t i = 0;
  while (i < v.size()) {
    if (v[i] == '\0') {
      out += kReplacement;
      ++i;
      continue;
    }
    std::size_t bad = 0;
    std::size_t n = Sequence(v, i, bad);
    if (n == 0) {
      out += kReplacement;
      i += bad;
      continue;
    }
    out.append(v.substr(i, n));
    i += n;
  }
  return out;
}

std::string RemoteTextLabelValue(std::string_view v) {
  static constexpr std::string_view kReplacement = "\xEF\xBF\xBD";
  const std::string repaired = RepairLabelValue(v);
  std::string out;
  out.reserve(repaired.size());
  for (std::size_t i = 0; i < repaired.size(); ++i) {
    const auto c = static_cast<unsigned char>(repaired[i]);
    const auto next = i + 1 < repaired.size() ? static_cast<unsigned char>(repaired[i + 1]) : 0;
    if (c < 0x20 || c == 0x7f) {
      out += kReplacement;
    } else if (c == 0xC2 && next >= 0x80 && next <= 0x9F) {  // U+0080..U+009F, well-formed
      out += kReplacement;
      ++i;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string BoundedLabelValue(std::string_view v, std::size_t max_bytes) {
  // Cut the input first (a megabyte is not repaired whole), one character's room over for the
  // repair to see where the last one ends.
  std::string out = RemoteTextLabelValue(v.substr(0, max_bytes + 4));
  if (out.size() <= max_bytes && v.size() <= max_bytes) return out;
  std::size_t end = std::min(max_bytes, out.size());
  while (end > 0 && (static_cast<unsigned char>(out[end]) & 0xC0) == 0x80) --end;  // a continuation byte
  out.resize(end);
  out += "\xE2\x80\xA6";  // …
  return out;
}

std::uint64_t RepairedLabelValuesTotal() { return g_repaired.load(std::memory_order_relaxed); }
void CountRepairedLabelValue() { g_repaired.fetch_add(1, std::memory_order_relaxed); }

}  // namespace rocewatch::metrics
