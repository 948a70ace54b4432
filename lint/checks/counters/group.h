#pragma once

// Counters (counters.*): what grew over the observation window (two scrapes, consecutive runs of
// `serve`, or increase() through Prometheus). Without a window these checks are skipped, never
// guessed. One file per check; each is registered in lint/checks/specs.h.

#include <string>

#include "lint/checks/check.h"

namespace rocewatch::lint::checks::counters {

void PauseOnNonPfcPriority(const NicContext& c, FindingSink& sink);
void PauseStorm(const NicContext& c, FindingSink& sink);
void Discards(const NicContext& c, FindingSink& sink);
void TransportErrors(const NicContext& c, FindingSink& sink);
void CnpStorm(const NicContext& c, FindingSink& sink);
void LinkFlaps(const NicContext& c, FindingSink& sink);
void FecUncorrectable(const NicContext& c, FindingSink& sink);
void FecBer(const NicContext& c, FindingSink& sink);
// Not a window check: the optional hw counters' enable state as the exporter reads it.
void OptionalDisabled(const NicContext& c, FindingSink& sink);

// "1.5e+03/s": an increase over the window as a rate.
std::string PerSecond(double increase, double window);
// "60 s".
std::string Window(double seconds);
// Argument "and_switch": " and check switch port leaf-0:Ethernet8" in every language, or empty
// when the plan names no switch port.
void AddAndSwitchPortArg(i18n::StoredArgs& args, const NicContext& c);
// `message` followed by the jobs with QPs on the NIC's device (roce_rdma_job_qps,
// --collector.rdma.per-job), in every language; `message` alone where the exporter serves no
// per-job view or no job holds QPs there.
i18n::Phrase WithJobsOnPort(const NicContext& c, i18n::Phrase message);

}  // namespace rocewatch::lint::checks::counters
