#pragma once

// Finding: one deviation found by a roce-lint check, as a value (STYLE.md: "findings are values,
// not prints"). Every check of the project produces these; reports render them.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "lint/i18n/catalogue.h"
#include "lint/core/fix_text.h"
#include "lint/core/setting_value.h"

namespace rocewatch::lint {

// Ordered: a higher value is more severe, so `severity >= fail_on` reads naturally.
enum class Severity { kInfo = 0, kWarning = 1, kError = 2, kCritical = 3 };

// "info", "warning", "error", "critical".
std::string_view SeverityName(Severity severity);
// Parses the names above (ASCII case-insensitive); nullopt for anything else.
std::optional<Severity> ParseSeverity(std::string_view text);
// The accepted names, for help texts and "did you mean".
const std::vector<std::string>& SeverityNames();

// The setting a finding is about, typed, for `roce-lint fix` (no report prints it): the key in
// the drift check's names ("pfc", "dscp.26", "dcqcn.np.rpg_gd", "netdev_mtu", …, see
// lint/checks/settings.h) and the values expected and found. Empty key: not a setting.
struct SettingDelta {
  std::string key;
  SettingValue expected, found;

  bool operator==(const SettingDelta&) const = default;
};

struct Finding {
  std::string check;  // stable ID, e.g. "plan.duplicate-roce-ip" or "qos.pfc-priorities"
  Severity severity = Severity::kError;
  std::string node;      // node name from the plan, empty when the finding is cluster-wide
  std::string device;    // RDMA device (ib_dev), e.g. "mlx5_0"
  std::string port;      // RDMA port number, e.g. "1"
  std::string netdev;    // network interface, e.g. "ens1f0np0"
  std::string expected;  // what the plan (or the majority of peers) wants
  std::string found;     // what was there instead
  std::string message;   // one sentence an operator can act on
  std::string fix;       // the command or edit that fixes it (fix_steps rendered, when it has any)
  std::string location;  // plan findings: "plan.json:12:5 /nodes/3/nics/0/roce_ip"
  SettingDelta setting;  // typed expected/found of a setting, for fixes
  // message, expected, found and fix as catalogue messages (lint/i18n/), rendered in the report's
  // language; an empty ID: the field is a value (a number, a command), the same in every language.
  i18n::StoredMessage message_text{}, expected_text{}, found_text{}, fix_text{};
  // The fix as the check stated it, when it changes settings: `fix` is empty until
  // fix::RenderFixes writes the commands into it.
  FixText fix_steps;

  bool operator==(const Finding&) const = default;
};

// Sets a finding's texts from phrases: each field its English, and its catalogue message for
// the reports in another language.
void SetTexts(Finding& finding, i18n::Phrase expected, i18n::Phrase found, i18n::Phrase message);
void SetTexts(Finding& finding, i18n::Phrase expected, i18n::Phrase found, i18n::Phrase message, i18n::Phrase fix);

// The most severe finding's severity; nullopt for an empty list.
std::optional<Severity> MaxSeverity(const std::vector<Finding>& findings);
// Number of findings at or above `threshold`.
std::size_t CountAtOrAbove(const std::vector<Finding>& findings, Severity threshold);

}  // namespace rocewatch::lint
