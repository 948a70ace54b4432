#pragma once

// The switch side of the fixture's links for the peer.* tests: an LLDP neighbour per NIC, the
// DCBX series the lldp collector serves for it, and a SONiC config of leaf-0.

#include <string>
#include <vector>

#include "check_test_util.h"

namespace rocewatch::lint::testing {

// Node `node`'s NIC `nic` sees leaf-<nic>, Port ID `port_id` (Ethernet<8·node> is as the plan cables it).
inline std::string Nd(int nic) { return Netdev(nic); }

inline void Neighbour(Cluster& c, int node, int nic, const std::string& port_id,
                      const std::string& description) {
  c.Add(node, "roce_lldp_neighbor_info{netdev=\"" + Nd(nic) + "\",chassis_id=\"0c:42:a1:00:00:0" +
               std::to_string(nic) + "\",chassis_id_subtype=\"mac\",system_name=\"leaf-" + std::to_string(nic) +
               "\",port_id=\"" + port_id + "\",port_id_subtype=\"ifname\",port_description=\"" + description +
               "\",management_address=\"\"} 1");
}

// The lldp collector's series for a switch port sending PFC on `pfc` and UDP 4791 on `app`.
inline void Dcbx(Cluster& c, int node, int nic, std::vector<int> pfc, int app = 3) {
  const std::string n = "netdev=\"" + Nd(nic) + "\"";
  c.Add(node, "roce_lldp_peer_dcbx_sent{" + n + "} 1");
  c.Add(node, "roce_lldp_peer_dcbx_info{" + n + ",tlv=\"pfc\",willing=\"false\"} 1");
  c.Add(node, "roce_lldp_peer_dcbx_info{" + n + ",tlv=\"app\",willing=\"\"} 1");
  for (int p : pfc) c.Add(node, "roce_lldp_peer_pfc_enabled{" + n + ",priority=\"" + std::to_string(p) + "\"} 1");
  c.Add(node, "roce_lldp_peer_pfc_capability{" + n + "} 8");
  c.Add(node, "roce_lldp_peer_app_info{" + n + ",selector=\"dgram\",protocol=\"4791\",priority=\"" +
               std::to_string(app) + "\"} 1");
}

// Node 1 with lldpd answering, both NICs' switch ports agreeing with the NICs.
inline Cluster Agreeing() {
  Cluster c(1, 2);
  c.Add(1, "roce_lldp_daemon_reachable 1");
  for (int nic : {0, 1}) {
    Neighbour(c, 1, nic, "Ethernet8", "Ethernet8");
    Dcbx(c, 1, nic, {3});
  }
  return c;
}

// leaf-0 as SONiC describes it: Ethernet8 (alias etp3) with PFC on 3, the RoCE DSCP on TC 3,
// the CNP DSCP on TC `cnp_tc`, and queue 3 with or without ECN.
inline std::string SonicLeaf(int cnp_tc, bool ecn) {
  return std::string(R"({"DEVICE_METADATA": {"localhost": {"hostname": "leaf-0"}},
    "PORT": {"Ethernet8": {"alias": "etp3"}},
    "PORT_QOS_MAP": {"Ethernet8": {"pfc_enable": "3", "dscp_to_tc_map": "RDMA"}},
    "DSCP_TO_TC_MAP": {"RDMA": {"26": "3", "48": ")") +
         std::to_string(cnp_tc) + R"("}},
    "WRED_PROFILE": {"LOSSLESS": {"ecn": "ecn_all"}},
    "QUEUE": {"Ethernet8|3": {)" + (ecn ? R"("wred_profile": "LOSSLESS")" : "") + "}}}";
}

}  // namespace rocewatch::lint::testing
