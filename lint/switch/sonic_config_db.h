#pragma once

// SONiC's CONFIG_DB as a file: /etc/sonic/config_db.json (tables nested: {"PORT": {"Ethernet0":
// {…}}}) or a redis dump of it (sonic-db-dump, or the mock tables of sonic-utilities' tests: flat keys
// "PORT|Ethernet0"). What it reads, per port (docs/operations.md "The switch side"):
//   PORT                      name and alias (SONiC's LLDP Port ID is often the alias)
//   PORT_QOS_MAP              pfc_enable ("3,4"), dscp_to_tc_map, pfc_to_queue_map; the "global"
//                             entry's dscp_to_tc_map for a port that names none
//   DSCP_TO_TC_MAP            DSCP → traffic class: the priority a DSCP lands on (SONiC pauses
//                             by priority = TC for the lossless classes)
//   TC_TO_PRIORITY_GROUP_MAP  validated (TC 0-15 → PG 0-7): a wrong one is a broken file
//   MAP_PFC_PRIORITY_TO_QUEUE the queue of a priority (identity when absent)
//   QUEUE, WRED_PROFILE       the queue's wred_profile and its "ecn" (ecn_none: off)
//   DEVICE_METADATA           localhost.hostname: the LLDP System Name
// References may be plain names ("AZURE") or the older "[DSCP_TO_TC_MAP|AZURE]" form.

#include "lint/switch/json_walk.h"
#include "lint/switch/switch_config.h"

namespace rocewatch::lint::switch_config {

// True when `root` looks like CONFIG_DB (an upper-case table, nested or "TABLE|key").
bool LooksLikeSonic(const json& root);
// Throws Bad on a value of the wrong shape; the caller sets `source`.
SwitchConfig ReadSonicConfigDb(const json& root);

}  // namespace rocewatch::lint::switch_config
