#include "lint/fix/fix_hints.h"

#include <string_view>

#include "lint/core/setting_table.h"
#include "lint/fix/commands.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::fix {
namespace {

constexpr Toolset kTools = Toolset::kUpstream;

// "ecn.np.3" / "dcqcn.rp.rpg_gd" → "np" and "3"; false for another shape.
bool SplitPointKey(std::string_view key, const setting::Spec& family, std::string& point, std::string& rest) {
  const std::size_t at = family.key.size();
  if (!family.Names(key) || key.size() < at + 4 || key[at + 2] != '.') return false;
  point = std::string(key.substr(at, 2));
  rest = std::string(key.substr(at + 3));
  return point == "np" || point == "rp";
}

}  // namespace

std::string RenderChange(const SettingChange& change, const Finding& finding) {
  const std::string& key = change.key;
  const std::string& nd = finding.netdev;
  const auto* number = std::get_if<std::int64_t>(&change.value);
  const auto* text = std::get_if<std::string>(&change.value);
  const auto* priorities = std::get_if<std::vector<std::int64_t>>(&change.value);
  const auto* entries = std::get_if<std::map<std::int64_t, std::int64_t>>(&change.value);
  std::string point, rest;
  const setting::Spec* spec = setting::Find(key);
  if (spec == &setting::kPfc && priorities) return SetPfc(kTools, nd, *priorities);
  if (spec == &setting::kTrust && entries) return SetTrustDscp(kTools, nd, *entries);
  if (spec == &setting::kTrust && text && *text == "pcp") return SetTrustPcp(kTools, nd);
  if (spec == &setting::kDscp && number)
    if (auto dscp = ParseI64(std::string_view(key).substr(setting::kDscp.key.size())))
      return SetDscpPriority(kTools, nd, *dscp, *number);
  if (SplitPointKey(key, setting::kEcnPriority, point, rest) && number)
    if (auto priority = ParseI64(rest)) return SetEcn(nd, point, *priority, *number != 0);
  if (SplitPointKey(key, setting::kDcqcn, point, rest) && number) return SetDcqcnParameter(nd, point, rest, *number);
  if (spec == &setting::kNetdevMtu && number) return SetMtu(nd, *number);
  if (spec == &setting::kGlobalPause && number && *number == 0) return SetGlobalPauseOff(nd);
  if (spec == &setting::kOptionalCounters && text) {
    std::vector<std::string> counters;
    for (auto name : Split(*text, ','))
      if (!name.empty()) counters.emplace_back(name);
    return SetOptionalCounters(finding.device, finding.port, counters);
  }
  if (spec == &setting::kCmRoceMode && text && *text == kCmRoceModeV2)
    return SetCmRoceModeV2(kTools, finding.device, finding.port);
  if (spec == &setting::kCmTos && number) return SetCmTos(kTools, finding.device, finding.port, *number);
  // A change no command makes (a check's mistake, caught by fix_hints_test): say what, not how.
  return "set " + key + " on " + (nd.empty() ? finding.device : nd);
}

void RenderFixes(std::vector<Finding>& findings) {
  for (Finding& f : findings)
    if (f.fix_steps.HasChanges()) {
      i18n::Phrase fix = f.fix_steps.ToPhrase([&](const SettingChange& c) { return RenderChange(c, f); });
      f.fix = std::move(fix.english);
      f.fix_text = std::move(fix.message);
    }
}

}  // namespace rocewatch::lint::fix
