#pragma once

// NVIDIA Cumulus Linux's NVUE configuration as `nv config show -o json` prints it: a list of
// {"header": …} and {"set": …} objects, an object with "set", or the "set" object itself. What
// it reads (docs/operations.md "The switch side"):
//   system.hostname                              the LLDP System Name
//   qos.roce {enable, mode}                      RoCE mode's defaults (Cumulus' RoCE page):
//                                                lossless: PFC on switch priority 3; both
//                                                modes: DSCP 26 → 3, DSCP 48 → 6, ECN on TC 3
//   qos.pfc.<profile>.switch-priority.<p>        PFC priorities
//   qos.mapping.<profile>.dscp.<d>.switch-priority   DSCP → switch priority
//   qos.egress-queue-mapping.<profile>.switch-priority.<p>.traffic-class   (identity when absent)
//   qos.congestion-control.<profile>.traffic-class.<tc>.ecn   enable/disable
//   interface.<swp>.qos.{pfc,mapping,congestion-control,egress-queue-mapping}.profile
// A port names its profiles; one that names none, or is not listed, has default-global's.

#include "lint/switch/json_walk.h"
#include "lint/switch/switch_config.h"

namespace rocewatch::lint::switch_config {

// The "set" object of an NVUE document and its JSON path ("/1/set", "/set", ""), or nullptr
// when `root` is not NVUE's shape.
const json* NvueSetObject(const json& root, std::string& path);
// Throws Bad on a value of the wrong shape; the caller sets `source`. `path` is set's JSON path.
SwitchConfig ReadNvueConfig(const json& set, const std::string& path);

}  // namespace rocewatch::lint::switch_config
