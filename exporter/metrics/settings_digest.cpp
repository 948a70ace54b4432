#include "exporter/metrics/settings_digest.h"

#include <cstdio>

#include "rocewatch/strings.h"

namespace rocewatch::metrics {

void SettingsDigest::Byte(unsigned char c) {
  hash_ ^= c;
  hash_ *= 1099511628211ull;
}

SettingsDigest& SettingsDigest::Add(std::string_view field) {
  for (char c : field) Byte(static_cast<unsigned char>(c));
  Byte(0x1f);  // unit separator: never inside a field we hash
  return *this;
}

SettingsDigest& SettingsDigest::Add(double value) { return Add(FormatDouble(value)); }

std::string SettingsDigest::Hex() const {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", hash_);
  return buf;
}

}  // namespace rocewatch::metrics
