#include "lint/verify/remote_script.h"

#include <cstdio>
#include <random>

#include "lint/fix/templates.h"
#include "lint/verify/templates.h"
#include "rocewatch/escape.h"

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

Result<std::string> PerftestScript(const PerftestInvocation& r) {
  return fix::templates::FillTemplate(
      templates::kPerftest, {{"ROLE", r.server_address.empty() ? "server" : "client"},
                             {"DEVICE_WORD", ShWord(r.ib_dev)},
                             {"GID_WORD", ShWord(r.gid)},
                             {"PID_FILE_WORD", ShWord(r.pid_file)},
                             {"PORT", std::to_string(r.ib_port)},
                             {"TOOL_WORD", ShWord(r.tool)},
                             {"TIMEOUT_SECONDS", Seconds(r.timeout_seconds)},
                             {"ARGUMENTS", PerftestArguments(r)}});
}

Result<std::string> CleanupScript(const std::string& pid_file) {
  return fix::templates::FillTemplate(templates::kCleanup, {{"PID_FILE_WORD", ShWord(pid_file)}});
}

}  // namespace rocewatch::lint::verify
