#pragma once

// The sh scripts `roce-lint verify` feeds to a node's shell (`ssh HOST sh -s -- < script`):
// find the GID index of the planned RoCE v2 address (what show_gids prints, read from
// /sys/class/infiniband/DEV/ports/1/{gids,gid_attrs/types}), then run the perftest server or
// client bound to it with the profile's traffic class, MTU and queue pairs, under `timeout`,
// its pid in a file so that the cleanup script can stop it. The scripts are templates
// (lint/verify/templates/*.sh, lint/verify/templates.h); every value from the plan enters them
// through escape::ShWord only.
//
// The scripts print "rocewatch-verify: gid_index=N" and, when they cannot run perftest,
// "rocewatch-verify: error: …" and exit with kExitNoGid or kExitNoTool.

#include <cstdint>
#include <optional>
#include <string>

#include "lint/plan/address.h"
#include "rocewatch/result.h"

namespace rocewatch::lint::verify {

inline constexpr int kExitNoGid = 3;   // no such device, or no RoCE v2 GID for the address
inline constexpr int kExitNoTool = 4;  // the perftest binary is not installed

struct PerftestInvocation {
  std::string tool = "ib_write_bw";
  std::string ib_dev;
  int ib_port = 1;
  std::string gid;              // sysfs form of the planned address (GidOfAddress)
  int tcp_port = 18515;         // perftest's connection exchange port (-p)
  double duration_seconds = 60; // -D (bandwidth tests)
  std::int64_t message_bytes = 65536;
  std::int64_t queue_pairs = 1;
  std::optional<std::int64_t> traffic_class;  // --tclass
  std::optional<std::int64_t> mtu;            // -m
  bool bidirectional = false;                 // -b
  std::string server_address;  // the client connects here; empty: this is the server
  std::string pid_file;        // where the node keeps perftest's pid (PidFileFor)
  double timeout_seconds = 120;  // the node's `timeout` kills perftest after this
};

// "0000:0000:0000:0000:0000:ffff:0a01:000b" for 10.1.0.11: how sysfs gids/<i> shows it.
std::string GidOfAddress(const plan::IpAddress& address);

// /tmp/rocewatch-verify-<token>.pid; `token` is [0-9a-f] only (RandomToken).
std::string PidFileFor(const std::string& token);
std::string RandomToken();

// perftest's arguments after the tool name, without the GID index (the script adds -x).
std::string PerftestArguments(const PerftestInvocation& run);
// The whole script for the server (server_address empty) or the client. An Error (for both)
// only when a template and this renderer disagree on a placeholder.
Result<std::string> PerftestScript(const PerftestInvocation& run);
// Stops what PerftestScript started on a node (its pid file), whatever state it is in.
Result<std::string> CleanupScript(const std::string& pid_file);

}  // namespace rocewatch::lint::verify
