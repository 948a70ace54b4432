// liblldpctl's synchronous mode: lldpctl_new_name with no callbacks connects to the socket
// itself and blocks on each request. liblldpctl reports a failed connect only as
// LLDPCTL_ERR_CANNOT_CONNECT, so the socket is first connected here once to learn the errno
// (no lldpd, or no permission) that decides between "no data" and "not allowed".

#include "exporter/kernel/lldpctl_client.h"

#include <lldpctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <vector>

#include "exporter/lldp/neighbors_json.h"

namespace rocewatch::kernel {
namespace {

Answer Fail(int error) {
  Answer a;
  a.error = error;
  return a;
}

int ProbeConnect(const std::string& path) {
  sockaddr_un addr{};
  if (path.size() >= sizeof addr.sun_path) return ENAMETOOLONG;
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, path.data(), path.size());
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return errno;
  int error = 0;
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) error = errno;
  ::close(fd);
  return error;
}

std::string Str(lldpctl_atom_t* atom, lldpctl_key_t key) {
  if (atom == nullptr) return {};
  const char* s = lldpctl_atom_get_str(atom, key);
  return s == nullptr ? std::string() : std::string(s);
}

// Owns one reference of an atom.
struct AtomRef {
  lldpctl_atom_t* atom;
  explicit AtomRef(lldpctl_atom_t* a) : atom(a) {}
  ~AtomRef() {
    if (atom != nullptr) lldpctl_atom_dec_ref(atom);
  }
  AtomRef(const AtomRef&) = delete;
  AtomRef& operator=(const AtomRef&) = delete;
};

lldp::Neighbor ReadNeighbor(const std::string& netdev, lldpctl_atom_t* nb, std::time_t now) {
  lldp::Neighbor n;
  n.netdev = netdev;
  n.protocol = Str(nb, lldpctl_k_port_protocol);
  n.port_id_subtype = Str(nb, lldpctl_k_port_id_subtype);
  n.port_id = Str(nb, lldpctl_k_port_id);
  n.port_description = Str(nb, lldpctl_k_port_descr);
  const long ttl = lldpctl_atom_get_int(nb, lldpctl_k_port_ttl);
  // lldpctl_k_port_age is the time lldpd last saw the neighbour's information change
  // (p_lastchange), what lldpcli prints as the age.
  const long changed = lldpctl_atom_get_int(nb, lldpctl_k_port_age);
  if (changed > 0 && changed <= now) n.age_seconds = static_cast<double>(now - changed);
  AtomRef chassis(lldpctl_atom_get(nb, lldpctl_k_port_chassis));
  if (chassis.atom != nullptr) {
    n.chassis_id_subtype = Str(chassis.atom, lldpctl_k_chassis_id_subtype);
    n.chassis_id = Str(chassis.atom, lldpctl_k_chassis_id);
    n.system_name = Str(chassis.atom, lldpctl_k_chassis_name);
    n.system_description = Str(chassis.atom, lldpctl_k_chassis_descr);
    AtomRef mgmts(lldpctl_atom_get(chassis.atom, lldpctl_k_chassis_mgmt));
    if (mgmts.atom != nullptr) {
      lldpctl_atom_t* mgmt = nullptr;
      lldpctl_atom_foreach(mgmts.atom, mgmt) {
        if (n.management_address.empty()) n.management_address = Str(mgmt, lldpctl_k_mgmt_ip);
      }
    }
  }
  if (ttl > 0) n.ttl_seconds = static_cast<double>(ttl);
  // The organizationally specific TLVs lldpd did not decode (lldpcli's "unknown-tlvs"): the
  // neighbour port's custom TLV list, each with its OUI, subtype and information string.
  AtomRef customs(lldpctl_atom_get(nb, lldpctl_k_custom_tlvs));
  if (customs.atom != nullptr) {
    lldpctl_atom_t* custom = nullptr;
    lldpctl_atom_foreach(customs.atom, custom) {
      if (n.unknown_tlvs.size() >= lldp::kMaxUnknownTlvs) continue;
      size_t oui_length = 0, info_length = 0;
      const std::uint8_t* oui =
          lldpctl_atom_get_buffer(custom, lldpctl_k_custom_tlv_oui, &oui_length);
      const std::uint8_t* info =
          lldpctl_atom_get_buffer(custom, lldpctl_k_custom_tlv_oui_info_string, &info_length);
      const long subtype = lldpctl_atom_get_int(custom, lldpctl_k_custom_tlv_oui_subtype);
      if (oui == nullptr || oui_length != 3 || subtype < 0 || subtype > 255 ||
          info_length > lldp::kMaxTlvInfoBytes || (info == nullptr && info_length > 0))
        continue;
      lldp::LldpUnknownTlv t;
      std::copy(oui, oui + 3, t.oui.begin());
      t.subtype = static_cast<std::uint8_t>(subtype);
      if (info_length > 0) t.info.assign(info, info + info_length);
      n.unknown_tlvs.push_back(std::move(t));
    }
  }
  return n;
}

}  // namespace

std::string DefaultLldpdSocket() {
  const char* path = lldpctl_get_default_transport();
  return path == nullptr ? std::string("/run/lldpd.socket") : std::string(path);
}

Answer QueryLldpNeighbors(const std::string& socket_path) {
  const std::string path = socket_path.empty() ? DefaultLldpdSocket() : socket_path;
  if (int error = ProbeConnect(path); error != 0) return Fail(error);
  lldpctl_conn_t* conn = lldpctl_new_name(path.c_str(), nullptr, nullptr, nullptr);
  if (conn == nullptr) return Fail(ENOMEM);
  std::vector<lldp::Neighbor> neighbors;
  int error = 0;
  {
    AtomRef interfaces(lldpctl_get_interfaces(conn));
    if (interfaces.atom == nullptr) {
      error = lldpctl_last_error(conn) == LLDPCTL_ERR_CANNOT_CONNECT ? ECONNREFUSED : EPROTO;
    } else {
      const std::time_t now = std::time(nullptr);
      lldpctl_atom_t* iface = nullptr;
      lldpctl_atom_foreach(interfaces.atom, iface) {
        const std::string name = Str(iface, lldpctl_k_interface_name);
        AtomRef port(lldpctl_get_port(iface));
        if (port.atom == nullptr) continue;  // the interface went away in between
        AtomRef list(lldpctl_atom_get(port.atom, lldpctl_k_port_neighbors));
        if (list.atom == nullptr) continue;
        lldpctl_atom_t* nb = nullptr;
        lldpctl_atom_foreach(list.atom, nb) {
          if (neighbors.size() < lldp::kMaxNeighbors)
            neighbors.push_back(ReadNeighbor(name, nb, now));
        }
      }
    }
  }
  lldpctl_release(conn);
  if (error != 0) return Fail(error);
  Answer a;
  const std::string text = lldp::EncodeNeighborsJson(neighbors);
  a.bytes.assign(text.begin(), text.end());
  return a;
}

}  // namespace rocewatch::kernel
