#pragma once

// Inventory (inventory.*): can we see the node, and does it have the NICs the plan says, wired
// to the planned netdevs and carrying the planned RoCE addresses? One file per check; each is
// registered in lint/checks/specs.h. All but exporter-unreachable look at a node that answered.

#include "lint/checks/check.h"

namespace rocewatch::lint::checks::inventory {

void ExporterUnreachable(const NodeContext& c, FindingSink& sink);
void CollectorFailing(const NodeContext& c, FindingSink& sink);
void DeviceMissing(const NodeContext& c, FindingSink& sink);
void NetdevMismatch(const NodeContext& c, FindingSink& sink);
void RoceIpMissing(const NodeContext& c, FindingSink& sink);
void UnplannedDevice(const NodeContext& c, FindingSink& sink);

// Whether the node has the NIC's RDMA device (roce_device_info); inventory.device-missing
// reports the NICs that it lacks, the other checks skip them.
bool HasDevice(const observe::NodeView& view, const plan::Nic& nic);

}  // namespace rocewatch::lint::checks::inventory
