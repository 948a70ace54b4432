#pragma once

// The live path to lldpd: liblldpctl (the lldpd project's client library, Debian
// liblldpctl-dev) over lldpd's control socket, read only (no atom is ever set). The answer to
// call::LldpNeighbors is the neighbours of every interface as json0 text, written by the lldp
// decoder's encoder (lldp/neighbors_json.h), so a capture keeps it and a replay decodes it
// through the same decoder. The socket I/O is here, beside the live kernel's other calls;
// lldp/ stays a pure decoder.

#include <string>

#include "exporter/kernel/answers.h"

namespace rocewatch::kernel {

// The control socket liblldpctl uses when none is given (lldpd's -u default, /run/lldpd.socket
// on Debian).
std::string DefaultLldpdSocket();

// Every neighbour lldpd holds. Errors as errno: ENOENT or ECONNREFUSED when no lldpd listens on
// `socket_path` ("" = DefaultLldpdSocket()), EACCES when this user may not open the socket (it is
// root:_lldpd 0770), ENAMETOOLONG for a path longer than sun_path, EPROTO when lldpd answered
// something liblldpctl could not use.
Answer QueryLldpNeighbors(const std::string& socket_path);

}  // namespace rocewatch::kernel
