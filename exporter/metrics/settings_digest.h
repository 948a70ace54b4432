#pragma once

// The fingerprint of a settings table that is exported as one series instead of one
// series per entry (docs/design.md#cost-at-fleet-scale): FNV-1a 64 of the table's canonical
// text, as 16 hex digits. Equal tables give equal digests on every node, so drift across
// a fleet is `count by (digest)`; the entries of two nodes are one flag away
// (--collector.dcb.full-tables).

#include <string>
#include <string_view>

namespace rocewatch::metrics {

class SettingsDigest {
 public:
  // Adds one field; fields are separated so "1","23" and "12","3" differ.
  SettingsDigest& Add(std::string_view field);
  SettingsDigest& Add(double value);
  std::string Hex() const;

 private:
  void Byte(unsigned char c);
  unsigned long long hash_ = 14695981039346656037ull;
};

}  // namespace rocewatch::metrics
