#include "lint/fix/script.h"

#include <set>
#include <sstream>

#include "lint/fix/shell.h"
#include "rocewatch/escape.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::fix {
namespace {

// The functions every script carries: output, reading values, the step runner, the checks of
// the precheck. Readers print the value and return 0, or print why they could not and return 1.
constexpr const char* kLibrary = R"SH(
# ---- library: the same in every script rendered by roce-lint fix ----------------------------
PROBLEMS=0 CHANGED=0 UNCHANGED=0 FAILED=0

say() { printf '%s\n' "$*"; }

# $1 on one line.
oneline() { printf '%s' "$1" | tr '\n\t' '  ' | sed 's/  */ /g; s/^ //; s/ $//'; }

# The first line of a sysfs or configfs file.
read_value() {
  if [ ! -e "$1" ]; then
    printf 'no %s' "$1"
    return 1
  fi
  if ! _v=$(head -n 1 -- "$1" 2>&1); then
    printf '%s' "$_v"
    return 1
  fi
  printf '%s' "$_v"
}

# The names in directory $1, separated by spaces ("" when none).
list_dir() {
  _names=''
  for _f in "$1"/*; do
    if [ -e "$_f" ] || [ -L "$_f" ]; then
      _names="$_names${_names:+ }${_f##*/}"
    fi
  done
  printf '%s' "$_names"
}

# The priorities p (0-7) whose file $1/p reads 1: "3", "3,4" or "none".
enabled_list() {
  _on=''
  for _p in 0 1 2 3 4 5 6 7; do
    if ! _v=$(read_value "$1/$_p"); then
      printf '%s' "$_v"
      return 1
    fi
    if [ "$_v" = 1 ]; then
      _on="$_on${_on:+,}$_p"
    fi
  done
  printf '%s' "${_on:-none}"
}

# ECN of netdev $1 at point $2 (np, rp).
ecn_priorities() { enabled_list "$SYSFS/class/net/$1/ecn/roce_$2/enable"; }

# The MTU of netdev $1, from the kernel (ip), not from $SYSFS.
ip_mtu() {
  if ! _out=$(ip -j link show dev "$1" 2>&1); then
    printf '%s' "$_out"
    return 1
  fi
  _mtu=$(printf '%s' "$_out" | sed -n 's/.*"mtu":\([0-9]*\).*/\1/p')
  if [ -z "$_mtu" ]; then
    printf 'no "mtu" in the answer of ip -j link show dev %s' "$1"
    return 1
  fi
  printf '%s' "$_mtu"
}

# 802.3x pause of netdev $1: "rx off, tx off".
ethtool_pause() {
  if ! _out=$(ethtool -a "$1" 2>&1); then
    printf '%s' "$_out"
    return 1
  fi
  _rx=$(printf '%s\n' "$_out" | sed -n 's/^RX:[[:space:]]*//p')
  _tx=$(printf '%s\n' "$_out" | sed -n 's/^TX:[[:space:]]*//p')
  if [ -z "$_rx" ] || [ -z "$_tx" ]; then
    printf 'unexpected answer of ethtool -a %s: %s' "$1" "$(oneline "$_out")"
    return 1
  fi
  printf 'rx %s, tx %s' "$_rx" "$_tx"
}

# rdma_cm default RoCE mode of device $1 port $2 (configfs; "unset" before the group exists).
cm_roce_mode() {
  if [ ! -d "$CONFIGFS/rdma_cm/$1" ]; then
    printf 'unset (no %s)' "$CONFIGFS/rdma_cm/$1"
    return 0
  fi
  read_value "$CONFIGFS/rdma_cm/$1/ports/$2/default_roce_mode"
}

# The DSCP that rdma_cm's default ToS of device $1 port $2 carries (ToS / 4).
cm_tos_dscp() {
  if [ ! -d "$CONFIGFS/rdma_cm/$1" ]; then
    printf 'unset (no %s)' "$CONFIGFS/rdma_cm/$1"
    return 0
  fi
  if ! _tos=$(read_value "$CONFIGFS/rdma_cm/$1/ports/$2/default_roce_tos"); then
    printf '%s' "$_tos"
    return 1
  fi
  case $_tos in
    '' | *[!0-9]*)
      printf 'unexpected default_roce_tos %s' "$_tos"
      return 1
      ;;
  esac
  printf '%s' "$((_tos / 4))"
}

fail() {
  say "$1"
  FAILED=$((FAILED + 1))
}

# Why a read or a change failed, on one line, with what an unsupported operation means.
explain() {
  _msg=$(oneline "$2")
  case $_msg in
    *'Operation not supported'*) _msg="$_msg ($1 does not support this setting: no DCB or driver support)" ;;
  esac
  printf '%s' "${_msg:-no message}"
}

# step SUBJECT SETTING WANT READ CHANGE
# Runs READ (shell text that prints the current value); when that differs from WANT, runs
# CHANGE (shell text) and reads the value back. One line of output either way.
step() {
  if ! _have=$(eval "$4"); then
    fail "$1: $2 $3 -> FAILED: cannot read it: $(explain "$1" "$_have")"
    return 0
  fi
  if [ "$_have" = "$3" ]; then
    say "$1: $2 $3: unchanged"
    UNCHANGED=$((UNCHANGED + 1))
    return 0
  fi
  if [ "$MODE" = dry-run ]; then
    say "$1: $2 $3 -> would set (now: $_have): $(oneline "$5")"
    CHANGED=$((CHANGED + 1))
    return 0
  fi
  if ! _out=$(eval "$5" 2>&1); then
    fail "$1: $2 $3 -> FAILED (was: $_have): $(explain "$1" "$_out")"
    return 0
  fi
  if ! _now=$(eval "$4") || [ "$_now" != "$3" ]; then
    fail "$1: $2 $3 -> FAILED (was: $_have): changed, but it reads back $(oneline "$_now")"
    return 0
  fi
  say "$1: $2 $3 -> set (was: $_have)"
  CHANGED=$((CHANGED + 1))
}

# A step the script cannot carry out, reported as a failure.
cannot() {
  fail "$1: $2 -> FAILED: $3"
}

problem() {
  say "precheck: $*"
  PROBLEMS=$((PROBLEMS + 1))
}

# need_tool TOOL WHAT-FOR
need_tool() {
  if ! command -v "$1" >/dev/null 2>&1; then
    problem "$1 not found in PATH ($2)"
  fi
}

# check_nic IBDEV NETDEV: the RDMA device exists, maps to the planned netdev, has a driver.
check_nic() {
  _ib=$SYSFS/class/infiniband
  if [ ! -e "$_ib/$1" ]; then
    _present=$(list_dir "$_ib")
    problem "$1 not in $_ib; present: ${_present:-none}"
    return 0
  fi
  _nets=$(list_dir "$_ib/$1/device/net")
  _ndev=$(read_value "$_ib/$1/ports/1/gid_attrs/ndevs/0") || _ndev=''
  case " $_nets $_ndev " in
    *" $2 "*) ;;
    *) problem "$1 maps to netdev ${_nets:-${_ndev:-none}}, not $2 as planned" ;;
  esac
  if [ ! -e "$SYSFS/class/net/$2" ]; then
    _present=$(list_dir "$SYSFS/class/net")
    problem "$2 not in $SYSFS/class/net; present: ${_present:-none}"
  fi
  if [ ! -e "$_ib/$1/device/driver" ]; then
    problem "$1 has no driver bound (no $_ib/$1/device/driver): is its driver loaded?"
  fi
}

# The driver bound to RDMA device $1 ("" when none).
driver_of() {
  _link=$(readlink "$SYSFS/class/infiniband/$1/device/driver" 2>/dev/null) || _link=''
  printf '%s' "${_link##*/}"
}

# check_driver IBDEV DRIVER
check_driver() {
  _drv=$(driver_of "$1")
  if [ -n "$_drv" ] && [ "$_drv" != "$2" ]; then
    problem "$1 is driven by $_drv, the profile wants $2"
  fi
}

# check_firmware IBDEV VERSION...: fw_ver is one the profile accepts.
check_firmware() {
  _dev=$1
  shift
  if [ ! -e "$SYSFS/class/infiniband/$_dev" ]; then
    return 0
  fi
  if ! _fw=$(read_value "$SYSFS/class/infiniband/$_dev/fw_ver"); then
    problem "$_dev: cannot read its firmware version: $_fw"
    return 0
  fi
  for _ok in "$@"; do
    if [ "$_fw" = "$_ok" ]; then
      return 0
    fi
  done
  problem "$_dev firmware is $_fw, the profile accepts $*"
}

# check_driver_version IBDEV NETDEV VERSION...: from /sys/module/<driver>/version (MLNX_OFED)
# or ethtool -i (in-tree drivers report the kernel release).
check_driver_version() {
  _dev=$1 _nd=$2
  shift 2
  if [ ! -e "$SYSFS/class/infiniband/$_dev" ]; then
    return 0
  fi
  _drv=$(driver_of "$_dev")
  _ver=''
  if [ -n "$_drv" ] && [ -r "$SYSFS/module/$_drv/version" ]; then
    _ver=$(read_value "$SYSFS/module/$_drv/version") || _ver=''
  elif command -v ethtool >/dev/null 2>&1; then
    _ver=$(ethtool -i "$_nd" 2>/dev/null | sed -n 's/^version:[[:space:]]*//p') || _ver=''
  fi
  if [ -z "$_ver" ]; then
    problem "$_dev: cannot tell its driver version (no $SYSFS/module/${_drv:-?}/version, no answer from ethtool -i $_nd)"
    return 0
  fi
  for _ok in "$@"; do
    if [ "$_ver" = "$_ok" ]; then
      return 0
    fi
  done
  problem "$_dev driver ${_drv:-?} version is $_ver, the profile accepts $*"
}

# check_ecn_sysfs NETDEV: the ECN and DCQCN files exist (MLNX_OFED mlx5_core has them).
check_ecn_sysfs() {
  if [ -e "$SYSFS/class/net/$1" ] && [ ! -d "$SYSFS/class/net/$1/ecn" ]; then
    problem "$1 has no $SYSFS/class/net/$1/ecn: its driver offers no ECN/DCQCN files (MLNX_OFED's mlx5_core does)"
  fi
}

check_rdma_cm_configfs() {
  if [ ! -d "$CONFIGFS/rdma_cm" ]; then
    problem "no $CONFIGFS/rdma_cm: load rdma_cm (modprobe rdma_cm) and mount configfs (mount -t configfs none /sys/kernel/config)"
  fi
}

check_root() {
  if [ "$MODE" != dry-run ] && [ "$(id -u)" != 0 ]; then
    problem "must run as root to change settings (uid $(id -u)); --dry-run runs unprivileged"
  fi
}

note_host() {
  _host=$(uname -n)
  if [ "${_host%%.*}" != "${NODE%%.*}" ]; then
    say "note: this host is $_host; the script was rendered for node $NODE"
  fi
}
)SH";

constexpr const char* kUpstreamLibrary = R"SH(
# ---- upstream readers: iproute2 dcb -------------------------------------------------------

# The priorities with PFC on netdev $1: "3", "3,4" or "none".
dcb_pfc() {
  if ! _out=$(dcb -j pfc show dev "$1" prio-pfc 2>&1); then
    printf '%s' "$_out"
    return 1
  fi
  _arr=$(printf '%s' "$_out" | tr -d ' \n' | sed -n 's/.*"prio_pfc":\[\([a-z,]*\)\].*/\1/p')
  if [ -z "$_arr" ]; then
    printf 'unexpected answer of dcb -j pfc show dev %s: %s' "$1" "$(oneline "$_out")"
    return 1
  fi
  printf '%s' "$_arr" | tr ',' '\n' | awk '$0 == "true" { o = o (o == "" ? "" : ",") NR - 1 } END { print (o == "" ? "none" : o) }'
}

# The DSCP APP entries of netdev $1, one "DSCP PRIORITY" line each.
dcb_dscp_entries() {
  if ! _out=$(dcb -j app show dev "$1" dscp-prio 2>&1); then
    printf '%s' "$_out"
    return 1
  fi
  printf '%s' "$_out" | tr -d ' \n' | tr '[' '\n' | sed -n 's/^\([0-9]*\),\([0-9]*\)\].*/\1 \2/p'
}

# Trust mode of netdev $1: dscp when it has DSCP APP entries, else pcp.
dcb_trust() {
  if ! _entries=$(dcb_dscp_entries "$1"); then
    printf '%s' "$_entries"
    return 1
  fi
  if [ -n "$_entries" ]; then printf dscp; else printf pcp; fi
}

# The priorities DSCP $2 maps to on netdev $1: "3" (or "3,5", or "none").
dcb_dscp() {
  if ! _entries=$(dcb_dscp_entries "$1"); then
    printf '%s' "$_entries"
    return 1
  fi
  printf '%s\n' "$_entries" | awk -v d="$2" '$1 == d { o = o (o == "" ? "" : ",") $2 } END { print (o == "" ? "none" : o) }'
}
)SH";

constexpr const char* kMlnxLibrary = R"SH(
# ---- MLNX_OFED readers: mlnx_qos -i -------------------------------------------------------

mlnx_qos_show() {
  if ! _out=$(mlnx_qos -i "$1" 2>&1); then
    printf '%s' "$_out"
    return 1
  fi
  printf '%s\n' "$_out"
}

# Trust mode of netdev $1 ("Priority trust state: dscp").
mlnx_trust() {
  if ! _out=$(mlnx_qos_show "$1"); then
    printf '%s' "$_out"
    return 1
  fi
  _trust=$(printf '%s\n' "$_out" | sed -n 's/.*[Tt]rust state:[[:space:]]*\([a-z]*\).*/\1/p' | head -n 1)
  if [ -z "$_trust" ]; then
    printf 'no trust state in the answer of mlnx_qos -i %s' "$1"
    return 1
  fi
  printf '%s' "$_trust"
}

# The priorities with PFC on netdev $1 (the "enabled" row under "PFC configuration:").
mlnx_pfc() {
  if ! _out=$(mlnx_qos_show "$1"); then
    printf '%s' "$_out"
    return 1
  fi
  _row=$(printf '%s\n' "$_out" | awk '/PFC configuration/ { f = 1; next } f && $1 == "enabled" { print; exit }')
  if [ -z "$_row" ]; then
    printf 'no PFC configuration in the answer of mlnx_qos -i %s' "$1"
    return 1
  fi
  printf '%s\n' "$_row" | awk '{ for (i = 2; i <= 9; i++) if ($i == 1) o = o (o == "" ? "" : ",") i - 2 } END { print (o == "" ? "none" : o) }'
}

# The priorities DSCP $2 maps to on netdev $1 (the "prio:P dscp:..." rows).
mlnx_dscp() {
  if ! _out=$(mlnx_qos_show "$1"); then
    printf '%s' "$_out"
    return 1
  fi
  printf '%s\n' "$_out" | awk -v d="$2" '$1 ~ /^prio:[0-7]$/ && $2 ~ /^dscp:/ { p = substr($1, 6); n = split(substr($2, 6), a, ","); for (i = 1; i <= n; i++) if (a[i] != "" && a[i] + 0 == d) o = o (o == "" ? "" : ",") p } END { print (o == "" ? "none" : o) }'
}
)SH";

std::string Priorities(const std::vector<std::int64_t>& prios) {
  if (prios.empty()) return "none";
  std::string out;
  for (auto p : prios) out += (out.empty() ? "" : ",") + std::to_string(p);
  return out;
}

// One `step` call: subject, setting, wanted value, reader and change as shell words.
void Step(std::ostream& out, const std::string& subject, const std::string& setting,
          const std::string& want, const std::string& read, const std::string& change) {
  // A chain of commands gets one line each (inside the quotes; eval reads the newlines).
  std::string text = escape::ShWord(change);
  const std::string joint = " &&\n      ";
  for (std::size_t at = text.find(" && "); at != std::string::npos;
       at = text.find(" && ", at + joint.size()))
    text.replace(at, 4, joint);
  out << "  step " << escape::ShWord(subject) << ' ' << escape::ShWord(setting) << ' ' << escape::ShWord(want) << " \\\n"
      << "    " << escape::ShWord(read) << " \\\n"
      << "    " << text << "\n";
}

// The DCQCN np parameters in script order: the CNP's marking first, then by name.
std::vector<std::pair<std::string, std::int64_t>> NpOrder(
    const std::map<std::string, std::int64_t>& np) {
  std::vector<std::pair<std::string, std::int64_t>> out;
  for (const char* first : {"cnp_dscp", "cnp_802p_prio"})
    if (auto it = np.find(first); it != np.end()) out.emplace_back(*it);
  for (const auto& kv : np)
    if (kv.first != "cnp_dscp" && kv.first != "cnp_802p_prio") out.emplace_back(kv);
  return out;
}

bool NeedsQosTool(const NicTarget& t) { return t.trust || t.pfc || !t.dscp_priority.empty(); }
bool NeedsEcnFiles(const NicTarget& t) {
  return t.ecn_np || t.ecn_rp || !t.dcqcn_np.empty() || !t.dcqcn_rp.empty();
}

void RenderPrecheck(std::ostream& out, const std::vector<NicTarget>& nics, Toolset tools) {
  out << "\n# ---- precheck: nothing is written before all of this passes "
         "--------------------------------\n"
      << "precheck() {\n"
      << "  check_root\n";
  // The tools the steps will call.
  bool qos = false, mtu = false, pause = false, cm_mode = false, cm_tos = false;
  for (const auto& t : nics) {
    qos = qos || NeedsQosTool(t);
    mtu = mtu || t.mtu;
    pause = pause || t.global_pause_off;
    cm_mode = cm_mode || t.cm_roce_v2;
    cm_tos = cm_tos || t.cm_tos_dscp;
  }
  if (tools == Toolset::kUpstream) {
    if (qos) out << "  need_tool dcb 'iproute2: trust, PFC and DSCP settings'\n";
  } else {
    if (qos) out << "  need_tool mlnx_qos 'MLNX_OFED: trust, PFC and DSCP settings'\n";
    if (cm_mode) out << "  need_tool cma_roce_mode 'MLNX_OFED: rdma_cm default RoCE mode'\n";
    if (cm_tos) out << "  need_tool cma_roce_tos 'MLNX_OFED: rdma_cm default ToS'\n";
  }
  if (mtu) out << "  need_tool ip 'iproute2: MTU'\n";
  if (pause) out << "  need_tool ethtool 'global pause'\n";
  if (tools == Toolset::kUpstream && (cm_mode || cm_tos)) out << "  check_rdma_cm_configfs\n";
  for (const auto& t : nics) {
    const std::string ib = escape::ShWord(t.ib_dev), nd = escape::ShWord(t.netdev);
    out << "  check_nic " << ib << ' ' << nd << "\n";
    if (t.driver) out << "  check_driver " << ib << ' ' << escape::ShWord(*t.driver) << "\n";
    if (!t.firmware.empty()) {
      out << "  check_firmware " << ib;
      for (const auto& v : t.firmware) out << ' ' << escape::ShWord(v);
      out << "\n";
    }
    if (!t.driver_version.empty()) {
      out << "  check_driver_version " << ib << ' ' << nd;
      for (const auto& v : t.driver_version) out << ' ' << escape::ShWord(v);
      out << "\n";
    }
    if (NeedsEcnFiles(t)) out << "  check_ecn_sysfs " << nd << "\n";
  }
  out << "}\n";
}

void RenderSteps(std::ostream& out, const NicTarget& t, Toolset tools) {
  const Roots& roots = ScriptRoots();
  const std::string& nd = t.netdev;
  const std::string word = escape::ShWord(nd);  // the netdev inside READ and CHANGE text
  const bool mlnx = tools == Toolset::kMlnx;
  out << "\n  # " << escape::ShComment(t.ib_dev) << " / " << escape::ShComment(nd) << ", profile "
      << escape::ShComment(t.profile) << "\n";
  if (t.trust) {
    if (*t.trust == "pcp") {
      Step(out, nd, "trust", "pcp", (mlnx ? "mlnx_trust " : "dcb_trust ") + word,
           SetTrustPcp(tools, nd));
    } else if (mlnx || !t.trust_dscp.empty()) {
      Step(out, nd, "trust", *t.trust, (mlnx ? "mlnx_trust " : "dcb_trust ") + word,
           SetTrustDscp(tools, nd, t.trust_dscp));
    } else {
      out << "  cannot " << word << " 'trust dscp' "
          << escape::ShWord(
                 "dcb sets trust dscp by adding DSCP entries, and the profile names no "
                 "roce_dscp/roce_priority "
                 "or cnp_dscp/cnp_priority")
          << "\n";
    }
  }
  if (t.pfc)
    Step(out, nd, "pfc", Priorities(*t.pfc), (mlnx ? "mlnx_pfc " : "dcb_pfc ") + word,
         SetPfc(tools, nd, *t.pfc));
  for (const auto& [dscp, prio] : t.dscp_priority)
    Step(out, nd, "dscp " + std::to_string(dscp) + " priority", std::to_string(prio),
         (mlnx ? "mlnx_dscp " : "dcb_dscp ") + word + " " + std::to_string(dscp),
         SetDscpPriority(tools, nd, dscp, prio));
  for (auto [point, prios] : {std::pair{"np", &t.ecn_np}, std::pair{"rp", &t.ecn_rp}}) {
    if (!*prios) continue;
    Step(out, nd, std::string("ecn ") + point + " priorities", Priorities(**prios),
         "ecn_priorities " + word + " " + point, SetEcnPriorities(roots, nd, point, **prios));
  }
  for (auto [point, params] : {std::pair{"np", NpOrder(t.dcqcn_np)},
                               std::pair{"rp", std::vector<std::pair<std::string, std::int64_t>>(
                                                   t.dcqcn_rp.begin(), t.dcqcn_rp.end())}}) {
    for (const auto& [name, value] : params)
      Step(out, nd, std::string("dcqcn ") + point + "." + name, std::to_string(value),
           "read_value " + DcqcnParameterPath(roots, nd, point, name),
           SetDcqcnParameter(roots, nd, point, name, value));
  }
  if (t.global_pause_off)
    Step(out, nd, "global pause", "rx off, tx off", "ethtool_pause " + word, SetGlobalPauseOff(nd));
  if (t.mtu) Step(out, nd, "mtu", std::to_string(*t.mtu), "ip_mtu " + word, SetMtu(nd, *t.mtu));
  const std::string subject = t.ib_dev + " port " + t.port;
  if (t.cm_roce_v2)
    Step(out, subject, "rdma_cm default_roce_mode", std::string(kCmRoceModeV2),
         "cm_roce_mode " + escape::ShWord(t.ib_dev) + " " + escape::ShWord(t.port),
         SetCmRoceModeV2(tools, roots, t.ib_dev, t.port));
  if (t.cm_tos_dscp)
    Step(out, subject, "rdma_cm default_roce_tos dscp", std::to_string(*t.cm_tos_dscp),
         "cm_tos_dscp " + escape::ShWord(t.ib_dev) + " " + escape::ShWord(t.port),
         SetCmTos(tools, roots, t.ib_dev, t.port, TosForDscp(*t.cm_tos_dscp)));
}

}  // namespace

Result<std::string> RenderScript(const plan::Node& node, const std::vector<NicTarget>& nics,
                                 const ScriptOptions& options) {
  if (!IsSafeName(node.name))
    return Error{"node name " + Quote(node.name) +
                 " cannot be used in a script or as a directory name "
                 "(letters, digits, '_', '.', ':', '-')"};
  for (const auto& t : nics) {
    for (const auto* name : {&t.ib_dev, &t.netdev})
      if (!IsSafeName(*name))
        return Error{"node " + Quote(node.name) + ": " + Quote(*name) +
                     " cannot be used in a script (letters, digits, '_', '.', ':', '-')"};
    if (!IsSafeName(t.port))
      return Error{"node " + Quote(node.name) + ": port " + Quote(t.port) +
                   " cannot be used in a script"};
  }
  const bool mlnx = options.tools == Toolset::kMlnx;
  std::ostringstream out;
  out << "#!/bin/sh\n"
      << "# shellcheck disable=SC2016,SC2317  # step() evaluates READ and CHANGE, shell text in "
         "quotes\n"
      << "#\n"
      << "# RoCE settings of node " << escape::ShComment(node.name) << " (cluster "
      << escape::ShComment(options.cluster) << ").\n"
      << "# Rendered by `roce-lint fix` from " << escape::ShComment(options.plan_name) << " with the "
      << (mlnx ? "MLNX_OFED tools (mlnx_qos, cma_roce_mode, cma_roce_tos,\n# ip, ethtool, sysfs "
                 "writes)"
               : "upstream tools (iproute2 dcb and ip, ethtool,\n# sysfs and configfs writes)")
      << (options.only_findings ? ", limited to the settings the checks found wrong" : "") << ".\n"
      << "# Do not edit: change the plan and render it again.\n"
      << "#\n";
  for (const auto& t : nics)
    out << "#   " << escape::ShComment(t.ib_dev) << " / " << escape::ShComment(t.netdev)
        << ": profile " << escape::ShComment(t.profile) << ", "
        << t.SettingCount() << (t.SettingCount() == 1 ? " setting\n" : " settings\n");
  out << "#\n"
      << "# Usage: " << kScriptFileName << " [--dry-run | --precheck]\n"
      << "#   (none)      precheck, then change every setting that differs from the plan\n"
      << "#   --dry-run   precheck, then only report what would change\n"
      << "#   --precheck  only the precheck\n"
      << "# Every setting is read first and changed only when it differs; one line of output "
         "each,\n"
      << "# then a summary line: rocewatch: node=NAME mode=apply changed=N unchanged=N failed=N\n"
      << "# Exit codes: " << kScriptOk << " every setting as planned, " << kScriptFailedSettings
      << " a setting could not be read or changed,\n"
      << "#   " << kScriptUsage << " bad arguments, " << kScriptPrecheckFailed
      << " precheck failed (nothing was changed).\n"
      << "# Environment: ROCEWATCH_SYSFS (default /sys), ROCEWATCH_CONFIGFS (default "
         "/sys/kernel/config).\n"
      << "set -eu\n"
      << "\n"
      << "NODE=" << escape::ShWord(node.name) << "\n"
      << "SYSFS=${ROCEWATCH_SYSFS:-/sys}\n"
      << "CONFIGFS=${ROCEWATCH_CONFIGFS:-/sys/kernel/config}\n"
      << "MODE=apply\n"
      << "usage() { echo 'usage: " << kScriptFileName << " [--dry-run | --precheck]'; }\n"
      << "if [ $# -gt 1 ]; then\n"
      << "  usage >&2\n"
      << "  exit " << kScriptUsage << "\n"
      << "fi\n"
      << "case ${1-} in\n"
      << "  '') ;;\n"
      << "  --dry-run) MODE=dry-run ;;\n"
      << "  --precheck) MODE=precheck ;;\n"
      << "  -h | --help)\n"
      << "    usage\n"
      << "    exit 0\n"
      << "    ;;\n"
      << "  *)\n"
      << "    usage >&2\n"
      << "    exit " << kScriptUsage << "\n"
      << "    ;;\n"
      << "esac\n";
  out << kLibrary << (mlnx ? kMlnxLibrary : kUpstreamLibrary);
  RenderPrecheck(out, nics, options.tools);
  out << "\n# ---- the settings, in plan order "
         "------------------------------------------------------------\n"
      << "configure() {";
  for (const auto& t : nics) RenderSteps(out, t, options.tools);
  if (nics.empty()) out << "\n  :\n";
  out << "}\n";
  out << R"SH(
# ---- main ------------------------------------------------------------------------------------
note_host
precheck
if [ "$PROBLEMS" -gt 0 ]; then
  if [ "$PROBLEMS" -eq 1 ]; then _s=''; else _s=s; fi
  say "precheck failed: $PROBLEMS problem$_s; nothing was changed"
  exit )SH"
      << kScriptPrecheckFailed << R"SH(
fi
say "precheck passed (node $NODE, sysfs $SYSFS, configfs $CONFIGFS)"
if [ "$MODE" = precheck ]; then
  exit 0
fi
configure
if [ "$MODE" = dry-run ]; then
  say "rocewatch: node=$NODE mode=dry-run would_change=$CHANGED unchanged=$UNCHANGED failed=$FAILED"
else
  say "rocewatch: node=$NODE mode=apply changed=$CHANGED unchanged=$UNCHANGED failed=$FAILED"
fi
if [ "$FAILED" -gt 0 ]; then
  exit )SH"
      << kScriptFailedSettings << R"SH(
fi
exit 0
)SH";
  return out.str();
}

}  // namespace rocewatch::lint::fix
