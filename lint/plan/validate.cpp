#include "lint/plan/validate.h"

#include "lint/plan/checks_internal.h"
#include "lint/plan/plan_locator.h"

namespace rocewatch::lint::plan {

namespace internal {

Finding MakeFinding(const lint::CheckSpec& spec, i18n::Phrase message, i18n::Phrase expected,
                    i18n::Phrase found, i18n::Phrase fix) {
  Finding f;
  f.check = std::string(spec.id);
  f.severity = spec.severity;
  SetTexts(f, std::move(expected), std::move(found), std::move(message), std::move(fix));
  return f;
}

std::string ProfilePointer(std::string_view name) {
  std::string p = "/profiles";
  AppendPointerToken(p, name);
  return p;
}

}  // namespace internal

std::int64_t ActiveRoceMtu(std::int64_t netdev_mtu) {
  std::int64_t room = netdev_mtu - kRoceHeaderBytes;
  for (std::int64_t mtu : {4096, 2048, 1024, 512, 256}) {
    if (room >= mtu) return mtu;
  }
  return 0;
}

bool IsRdmaMtu(std::int64_t mtu) {
  return mtu == 256 || mtu == 512 || mtu == 1024 || mtu == 2048 || mtu == 4096;
}

std::vector<Finding> ValidatePlan(const Plan& plan) {
  PlanLocator locator(plan.source);
  FindingSink sink(locator);
  internal::CheckNames(plan, sink);
  internal::CheckNodes(plan, sink);
  internal::CheckProfiles(plan, sink);
  return sink.Finish();
}

}  // namespace rocewatch::lint::plan
