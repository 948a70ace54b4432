#pragma once

// QoS (qos.*): the lossless class as planned — trust mode, PFC on exactly the planned
// priorities, the RoCE and CNP DSCPs on their priorities, no global pause, and rdma_cm defaults
// that put RoCE traffic on it. One file per check; each is registered in lint/checks/specs.h.
// Every check compares with the NIC's profile; on a netdev without DCB only dcb-unsupported runs.

#include "lint/checks/check.h"

namespace rocewatch::lint::checks::qos {

void DcbUnsupported(const NicContext& c, FindingSink& sink);
void Trust(const NicContext& c, FindingSink& sink);
void PfcPriorities(const NicContext& c, FindingSink& sink);
void DscpPriority(const NicContext& c, FindingSink& sink);
void GlobalPause(const NicContext& c, FindingSink& sink);
void CmRoceMode(const NicContext& c, FindingSink& sink);
void CmTos(const NicContext& c, FindingSink& sink);

// roce_dcb_supported is 0: the netdev answers dcbnl with EOPNOTSUPP, nothing of DCB to compare.
bool NoDcb(const NicContext& c);
// The profile wants PFC on at least one priority.
bool WantsPfc(const plan::Profile& p);

}  // namespace rocewatch::lint::checks::qos
