#include "lint/verify/remote_script.h"

#include <cstdio>
#include <random>

#include "rocewatch/escape.h"
#include "rocewatch/strings.h"

namespace rocewatch::lint::verify {
namespace {

using escape::ShWord;

std::string Seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", s < 1 ? 1.0 : s);
  return buf;
}

}  // namespace

std::string GidOfAddress(const plan::IpAddress& address) {
  std::uint8_t gid[16] = {};
  if (address.v6) {
    for (int i = 0; i < 16; ++i) gid[i] = address.bytes[i];
  } else {
    gid[10] = gid[11] = 0xff;  // IPv4-mapped (RFC 4291 2.5.5.2), as RoCE v2 GIDs carry IPv4
    for (int i = 0; i < 4; ++i) gid[12 + i] = address.bytes[i];
  }
  std::string out;
  char buf[8];
  for (int i = 0; i < 16; i += 2) {
    std::snprintf(buf, sizeof buf, "%s%02x%02x", i ? ":" : "", gid[i], gid[i + 1]);
    out += buf;
  }
  return out;
}

std::string RandomToken() {
  std::random_device rd;
  char buf[33];
  std::snprintf(buf, sizeof buf, "%08x%08x%08x%08x", rd(), rd(), rd(), rd());
  return buf;
}

std::string PidFileFor(const std::string& token) { return "/tmp/rocewatch-verify-" + token + ".pid"; }

std::string PerftestArguments(const PerftestInvocation& r) {
  std::string a = "-d " + ShWord(r.ib_dev) + " -i " + std::to_string(r.ib_port) + " -p " +
                  std::to_string(r.tcp_port) + " -F --report_gbits -s " +
                  std::to_string(r.message_bytes);
  if (r.tool.find("_bw") != std::string::npos) {
    a += " -q " + std::to_string(r.queue_pairs) + " -D " + Seconds(r.duration_seconds);
    if (r.bidirectional) a += " -b";
  }
  if (r.traffic_class) a += " --tclass=" + std::to_string(*r.traffic_class);
  if (r.mtu) a += " -m " + std::to_string(*r.mtu);
  if (!r.server_address.empty()) a += " " + ShWord(r.server_address);
  return a;
}

std::string PerftestScript(const PerftestInvocation& r) {
  const std::string role = r.server_address.empty() ? "server" : "client";
  std::string s;
  s += "#!/bin/sh\n# roce-lint verify: perftest " + role + " (docs/verify.md)\n";
  s += "set -u\n";
  s += "dev=" + ShWord(r.ib_dev) + "\n";
  s += "want=" + ShWord(r.gid) + "\n";
  s += "pidfile=" + ShWord(r.pid_file) + "\n";
  s += "port=\"${ROCEWATCH_SYSFS:-/sys}/class/infiniband/$dev/ports/" + std::to_string(r.ib_port) +
       "\"\n";
  s += R"SH(if [ ! -d "$port/gids" ]; then
  echo "rocewatch-verify: error: no RDMA device $dev here ($port/gids does not exist)"
  exit 3
fi
idx=
for f in "$port"/gids/*; do
  i=${f##*/}
  [ "$(cat "$f" 2>/dev/null)" = "$want" ] || continue
  case "$(cat "$port/gid_attrs/types/$i" 2>/dev/null)" in
    *[Vv]2*) idx=$i; break ;;
  esac
done
if [ -z "$idx" ]; then
  echo "rocewatch-verify: error: $dev has no RoCE v2 GID for $want (the planned roce_ip is not on its netdev?)"
  exit 3
fi
echo "rocewatch-verify: gid_index=$idx"
)SH";
  s += "tool=" + ShWord(r.tool) + "\n";
  s += R"SH(if ! command -v "$tool" >/dev/null 2>&1; then
  echo "rocewatch-verify: error: $tool is not installed (Debian/Ubuntu: apt-get install perftest)"
  exit 4
fi
# Its own process group (setsid), so that the clean-up stops everything it started, and a
# deadline of its own (timeout) should roce-lint itself go away.
run=
if command -v setsid >/dev/null 2>&1; then run="setsid"; fi
if command -v timeout >/dev/null 2>&1; then run="$run timeout -k 5 )SH" +
       Seconds(r.timeout_seconds) + R"SH("; fi
)SH";
  s += "$run \"$tool\" -x \"$idx\" " + PerftestArguments(r) + " &\n";
  s += R"SH(pid=$!
echo "$pid" > "$pidfile"
wait "$pid"
rc=$?
rm -f "$pidfile"
exit "$rc"
)SH";
  return s;
}

std::string CleanupScript(const std::string& pid_file) {
  std::string s = "#!/bin/sh\n# roce-lint verify: stop perftest (docs/verify.md)\n";
  s += "pidfile=" + escape::ShWord(pid_file) + "\n";
  s += R"SH(if [ -f "$pidfile" ]; then
  pid=$(cat "$pidfile")
  case "$pid" in
    ''|*[!0-9]*) ;;
    *) # setsid made it a process group leader: the group first, else the process alone.
       if kill -TERM -"$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null; then
         echo "rocewatch-verify: stopped $pid"
       fi ;;
  esac
  rm -f "$pidfile"
fi
exit 0
)SH";
  return s;
}

}  // namespace rocewatch::lint::verify
