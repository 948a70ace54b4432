#pragma once

// Numbers in verify's verdicts and reports: at most `digits` significant digits
// (printf's %g), e.g. 392.3, 0.0625.

#include <cstdio>
#include <string>

namespace rocewatch::lint::verify {

inline std::string FormatSignificant(double v, int digits = 4) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

}  // namespace rocewatch::lint::verify
