#pragma once

// A finding's fix as a check states it: words, and the settings to change on the finding's NIC
// as data. A check knows no shell: lint/fix renders each change into the command of the site's
// tools after the run (fix::RenderFixes), so the commands of a finding and of `roce-lint fix`'s
// scripts come from one place.
//
//   FixText("NIC " + netdev + ": ") + SettingChange{"pfc", std::vector<std::int64_t>{3}}
//     → "NIC ens1f0np0: dcb pfc set dev ens1f0np0 prio-pfc 0:off 1:off 2:off 3:on …"

#include <functional>
#include <string>
#include <vector>

#include "lint/core/setting_value.h"
#include "lint/i18n/catalogue.h"

namespace rocewatch::lint {

// One setting to change on the finding's NIC (its netdev, device and port). The keys and their
// values:
//   "pfc"                 priorities (PFC on exactly these)
//   "trust"               "pcp", or a DSCP → priority map (trust DSCP through these entries)
//   "dscp.<D>"            the priority DSCP D goes to
//   "ecn.<np|rp>.<P>"     1 or 0: ECN on or off at that point for priority P
//   "dcqcn.<np|rp>.<N>"   the value of DCQCN parameter N
//   "netdev_mtu"          the MTU
//   "global_pause"        0: 802.3x pause off
//   "optional_counters"   the optional RDMA counters to enable, comma-separated
//   "cm.roce_mode"        "RoCE v2"
//   "cm.tos"              the rdma_cm ToS byte
struct SettingChange {
  std::string key;
  SettingValue value;

  bool operator==(const SettingChange&) const = default;
};

// One part of a fix, in the order written: words (`change.key` empty), a catalogue message or
// as written; or a change, alone or inside a catalogue message with a {command} placeholder.
struct FixPart {
  i18n::Phrase text = "";
  SettingChange change;

  bool operator==(const FixPart&) const = default;
};

class FixText {
 public:
  FixText() = default;
  FixText(std::string text);     // NOLINT(google-explicit-constructor): words as written
  FixText(const char* text);     // NOLINT(google-explicit-constructor)
  FixText(i18n::Phrase text);    // NOLINT(google-explicit-constructor): a catalogue message
  FixText(SettingChange change);  // NOLINT(google-explicit-constructor)
  // `change`'s command inside `wrapper`, a catalogue message whose {command} it fills
  // (Phrase::Of("check.peer.fix.nic", {{"netdev", nd}}) → "NIC ens1f0np0: dcb pfc set …").
  static FixText In(i18n::Phrase wrapper, SettingChange change);

  FixText& operator+=(FixText other);
  friend FixText operator+(FixText a, FixText b) { return a += std::move(b); }

  const std::vector<FixPart>& parts() const { return parts_; }
  bool empty() const { return parts_.empty(); }
  // Whether a part is a change (the text then waits for fix::RenderFixes).
  bool HasChanges() const;
  // The parts joined in English, each change written by `render`.
  std::string Render(const std::function<std::string(const SettingChange&)>& render) const;
  // The parts joined in every language (a change's command is the same in each): one part as it
  // is, more through the catalogue's "fix.concat".
  i18n::Phrase ToPhrase(const std::function<std::string(const SettingChange&)>& render) const;

  bool operator==(const FixText&) const = default;

 private:
  std::vector<FixPart> parts_;
};

}  // namespace rocewatch::lint
