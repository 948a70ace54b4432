// The jobs with QPs on a NIC's device, appended to a counters finding's message (pause storm,
// CNP storm): who a storm on this port hurts, or who makes it.

#include "lint/checks/counters/group.h"
#include "lint/observe/jobs_on_device.h"

namespace rocewatch::lint::checks::counters {

i18n::Phrase WithJobsOnPort(const NicContext& c, i18n::Phrase message) {
  const auto jobs = observe::JobsOnDevice(c.view, c.nic.ib_dev);
  if (!jobs || jobs->empty()) return message;
  i18n::StoredArgs args = {{"device", c.nic.ib_dev}, {"jobs", observe::JobList(*jobs)}};
  i18n::AddPhraseArg(args, "message", message);
  return i18n::Phrase::Of("check.counters.jobs_on_port", args);
}

}  // namespace rocewatch::lint::checks::counters
