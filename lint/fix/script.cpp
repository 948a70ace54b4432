#include "lint/fix/script.h"

#include <cstdint>
#include <cstdio>
#include <set>
#include <sstream>

#include "lint/core/pci.h"
#include "lint/core/tos.h"
#include "lint/fix/drivers.h"
#include "lint/fix/shell.h"
#include "lint/fix/templates.h"
#include "rocewatch/escape.h"
#include "rocewatch/strings.h"
#include "rocewatch/version.h"

namespace rocewatch::lint::fix {
namespace {

std::string Priorities(const std::vector<std::int64_t>& prios) {
  if (prios.empty()) return "none";
  std::string out;
  for (auto p : prios) out += (out.empty() ? "" : ",") + std::to_string(p);
  return out;
}

// One `step` call: subject, setting, wanted value, reader and change as shell words.
// `save` is the shell text that appends what `change` changes to the backup (lint/fix/templates/
// rollback.sh: `backup KIND SUBJECT ARG VALUE`; $_have is the value `read` printed).
void Step(std::ostream& out, const std::string& subject, const std::string& setting,
          const std::string& want, const std::string& read, const std::string& change,
          const std::string& save) {
  // A chain of commands gets one line each (inside the quotes; eval reads the newlines).
  std::string text = escape::ShWord(change);
  const std::string joint = " &&\n      ";
  for (std::size_t at = text.find(" && "); at != std::string::npos;
       at = text.find(" && ", at + joint.size()))
    text.replace(at, 4, joint);
  out << "  step " << escape::ShWord(subject) << ' ' << escape::ShWord(setting) << ' '
      << escape::ShWord(want) << " \\\n"
      << "    " << escape::ShWord(read) << " \\\n"
      << "    " << text << " \\\n"
      << "    " << escape::ShWord(save) << "\n";
}

// The backup of a setting whose value is what the step read.
std::string Save(const std::string& kind, const std::string& subject_word, const std::string& arg) {
  return "backup " + kind + " " + subject_word + (arg.empty() ? "" : " " + arg) + " \"$_have\"";
}

// The backup of a setting read by its own reader (the step reads something narrower).
std::string SaveRead(const std::string& kind, const std::string& subject_word,
                     const std::string& arg, const std::string& reader) {
  return "_w=$(" + reader + ") && backup " + kind + " " + subject_word +
         (arg.empty() ? "" : " " + arg) + " \"$_w\"";
}

// What the upstream trust and DSCP steps change: the whole DSCP APP table.
std::string SaveApp(const std::string& word) {
  return SaveRead("app", word, "-", "dcb_app_words " + word);
}

// FNV-1a, 64 bits, as 16 hex digits: the digest of the settings a script applies.
std::string Digest(const std::string& text) {
  std::uint64_t h = 1469598103934665603ull;
  // Comments (a NIC's profile name) are not settings: lines starting with "  #" are left out.
  std::string settings;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("  #", 0) != 0) settings += line + "\n";
  for (unsigned char c : settings) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
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

// The tool set a NIC's QoS and rdma_cm steps use: MLNX_OFED's tools drive mlx5 only.
Toolset NicTools(const NicTarget& t, Toolset tools) {
  return tools == Toolset::kMlnx && TakesMlnxTools(DriverOf(t.kernel_driver)) ? Toolset::kMlnx : Toolset::kUpstream;
}

void RenderPrecheck(std::ostream& out, const std::vector<NicTarget>& nics, Toolset tools) {
  out << "\n# ---- precheck: nothing is written before all of this passes "
         "--------------------------------\n"
      << "precheck() {\n"
      << "  check_root\n";
  // The tools the steps will call.
  bool qos_dcb = false, qos_mlnx = false, mtu = false, pause = false, rdma = false, acs = false;
  bool cm_configfs = false, cm_mode_mlnx = false, cm_tos_mlnx = false;
  for (const auto& t : nics) {
    const bool mlnx = NicTools(t, tools) == Toolset::kMlnx;
    rdma = rdma || !t.optional_counters.empty();
    acs = acs || !t.acs_redirect_off.empty();
    (mlnx ? qos_mlnx : qos_dcb) |= NeedsQosTool(t);
    mtu = mtu || t.mtu;
    pause = pause || t.global_pause_off;
    if (mlnx) {
      cm_mode_mlnx = cm_mode_mlnx || t.cm_roce_v2;
      cm_tos_mlnx = cm_tos_mlnx || t.cm_tos_dscp;
    } else {
      cm_configfs = cm_configfs || t.cm_roce_v2 || t.cm_tos_dscp;
    }
  }
  if (qos_dcb) out << "  need_tool dcb 'iproute2: trust, PFC and DSCP settings'\n";
  if (qos_mlnx) out << "  need_tool mlnx_qos 'MLNX_OFED: trust, PFC and DSCP settings'\n";
  if (cm_mode_mlnx) out << "  need_tool cma_roce_mode 'MLNX_OFED: rdma_cm default RoCE mode'\n";
  if (cm_tos_mlnx) out << "  need_tool cma_roce_tos 'MLNX_OFED: rdma_cm default ToS'\n";
  if (mtu) out << "  need_tool ip 'iproute2: MTU'\n";
  if (pause) out << "  need_tool ethtool 'global pause'\n";
  if (rdma) out << "  need_tool rdma 'iproute2: optional RDMA counters'\n";
  if (acs) out << "  need_tool setpci 'pciutils: ACS redirect'\n";
  if (cm_configfs) out << "  check_rdma_cm_configfs\n";
  for (const auto& t : nics) {
    const std::string ib = escape::ShWord(t.ib_dev), nd = escape::ShWord(t.netdev);
    out << "  check_nic " << ib << ' ' << nd << "\n";
    // The profile's driver, else the one the metrics reported: the script's tools were picked
    // for it, so it runs on no NIC of another driver.
    if (t.driver)
      out << "  check_driver " << ib << ' ' << escape::ShWord(*t.driver) << "\n";
    else if (!t.kernel_driver.empty())
      out << "  check_driver " << ib << ' ' << escape::ShWord(t.kernel_driver) << "\n";
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
    if (NeedsEcnFiles(t)) {
      switch (EcnFilesOf(DriverOf(t.kernel_driver))) {
        case EcnFiles::kMlx5Sysfs: out << "  check_ecn_sysfs " << nd << "\n"; break;
        case EcnFiles::kBnxtCc: out << "  check_bnxt_cc " << ib << "\n"; break;
        case EcnFiles::kNone: break;  // each step says "not exposed by this driver"
      }
    }
  }
  out << "}\n";
}

// ECN and DCQCN through bnxt_re's configfs cc group: one ecn_enable for every priority, the
// CNP's DSCP and priority; the other DCQCN parameters have no file there.
void RenderBnxtCcSteps(std::ostream& out, const NicTarget& t) {
  const std::string ib = escape::ShWord(t.ib_dev);
  auto cc_step = [&](const std::string& setting, const std::string& file, std::int64_t value) {
    Step(out, t.ib_dev, "bnxt_re cc " + setting, std::to_string(value), "bnxt_cc_value " + ib + " " + file,
         "bnxt_cc_write " + ib + " " + file + " " + std::to_string(value),
         SaveRead("bnxt_cc", ib, file, "bnxt_cc_read " + ib + " " + file));
  };
  if (t.ecn_np || t.ecn_rp) {
    const bool on = (t.ecn_np && !t.ecn_np->empty()) || (t.ecn_rp && !t.ecn_rp->empty());
    cc_step("ecn_enable (every priority)", "ecn_enable", on ? 1 : 0);
  }
  for (const auto& [name, value] : NpOrder(t.dcqcn_np)) {
    if (name == "cnp_dscp")
      cc_step("cnp_dscp", "cnp_dscp", value);
    else if (name == "cnp_802p_prio")
      cc_step("cnp_prio", "cnp_prio", value);
    else
      out << "  not_exposed " << escape::ShWord(t.netdev) << ' ' << escape::ShWord("dcqcn np." + name) << ' '
          << escape::ShWord(std::to_string(value)) << ' ' << escape::ShWord("bnxt_re's cc has no " + name) << "\n";
  }
  for (const auto& [name, value] : t.dcqcn_rp)
    out << "  not_exposed " << escape::ShWord(t.netdev) << ' ' << escape::ShWord("dcqcn rp." + name) << ' '
        << escape::ShWord(std::to_string(value)) << ' ' << escape::ShWord("bnxt_re's cc has no " + name) << "\n";
}

// ECN and DCQCN on a driver that exposes neither: each planned one said once, nothing written.
void RenderNotExposedEcn(std::ostream& out, const NicTarget& t) {
  const std::string nd = escape::ShWord(t.netdev);
  const std::string why = escape::ShWord((t.kernel_driver.empty() ? std::string("its driver") : t.kernel_driver) +
                                         " has no ECN/DCQCN file");
  for (auto [point, prios] : {std::pair{"np", &t.ecn_np}, std::pair{"rp", &t.ecn_rp}})
    if (*prios)
      out << "  not_exposed " << nd << ' ' << escape::ShWord(std::string("ecn ") + point + " priorities") << ' '
          << escape::ShWord(Priorities(**prios)) << ' ' << why << "\n";
  for (auto [point, params] : {std::pair{"np", &t.dcqcn_np}, std::pair{"rp", &t.dcqcn_rp}})
    for (const auto& [name, value] : *params)
      out << "  not_exposed " << nd << ' ' << escape::ShWord(std::string("dcqcn ") + point + "." + name) << ' '
          << escape::ShWord(std::to_string(value)) << ' ' << why << "\n";
}

void RenderSteps(std::ostream& out, const NicTarget& t, Toolset script_tools) {
  const Roots& roots = ScriptRoots();
  const std::string& nd = t.netdev;
  const std::string word = escape::ShWord(nd);  // the netdev inside READ and CHANGE text
  const Toolset tools = NicTools(t, script_tools);
  const bool mlnx = tools == Toolset::kMlnx;
  out << "\n  # " << escape::ShComment(t.ib_dev) << " / " << escape::ShComment(nd) << ", profile "
      << escape::ShComment(t.profile) << "\n";
  if (t.trust) {
    if (*t.trust == "pcp") {
      Step(out, nd, "trust", "pcp", (mlnx ? "mlnx_trust " : "dcb_trust ") + word,
           SetTrustPcp(tools, nd), mlnx ? Save("trust", word, "-") : SaveApp(word));
    } else if (mlnx || !t.trust_dscp.empty()) {
      // MLNX_OFED's trust step also sets the DSCP entries: each is saved with the trust.
      std::string save = mlnx ? Save("trust", word, "-") : SaveApp(word);
      if (mlnx)
        for (const auto& kv : t.trust_dscp) {
          const std::string d = std::to_string(kv.first);
          save += " && " + SaveRead("dscp", word, d, "mlnx_dscp " + word + " " + d);
        }
      Step(out, nd, "trust", *t.trust, (mlnx ? "mlnx_trust " : "dcb_trust ") + word,
           SetTrustDscp(tools, nd, t.trust_dscp), save);
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
         SetPfc(tools, nd, *t.pfc), Save("pfc", word, "-"));
  for (const auto& [dscp, prio] : t.dscp_priority)
    Step(out, nd, "dscp " + std::to_string(dscp) + " priority", std::to_string(prio),
         (mlnx ? "mlnx_dscp " : "dcb_dscp ") + word + " " + std::to_string(dscp),
         SetDscpPriority(tools, nd, dscp, prio),
         mlnx ? Save("dscp", word, std::to_string(dscp)) : SaveApp(word));
  switch (EcnFilesOf(DriverOf(t.kernel_driver))) {
    case EcnFiles::kMlx5Sysfs:
      for (auto [point, prios] : {std::pair{"np", &t.ecn_np}, std::pair{"rp", &t.ecn_rp}}) {
        if (!*prios) continue;
        Step(out, nd, std::string("ecn ") + point + " priorities", Priorities(**prios),
             "ecn_priorities " + word + " " + point, SetEcnPriorities(roots, nd, point, **prios),
             Save("ecn", word, point));
      }
      for (auto [point, params] : {std::pair{"np", NpOrder(t.dcqcn_np)},
                                   std::pair{"rp", std::vector<std::pair<std::string, std::int64_t>>(
                                                       t.dcqcn_rp.begin(), t.dcqcn_rp.end())}}) {
        for (const auto& [name, value] : params)
          Step(out, nd, std::string("dcqcn ") + point + "." + name, std::to_string(value),
               "read_value " + DcqcnParameterPath(roots, nd, point, name),
               SetDcqcnParameter(roots, nd, point, name, value),
               Save("dcqcn", word, escape::ShWord(std::string(point) + "." + name)));
      }
      break;
    case EcnFiles::kBnxtCc: RenderBnxtCcSteps(out, t); break;
    case EcnFiles::kNone: RenderNotExposedEcn(out, t); break;
  }
  if (t.global_pause_off)
    Step(out, nd, "global pause", "rx off, tx off", "ethtool_pause " + word, SetGlobalPauseOff(nd),
         SaveRead("pause", word, "-", "ethtool_pause_words " + word));
  if (t.mtu)
    Step(out, nd, "mtu", std::to_string(*t.mtu), "ip_mtu " + word, SetMtu(nd, *t.mtu),
         Save("mtu", word, "-"));
  const std::string dev_port = escape::ShWord(t.ib_dev) + " " + escape::ShWord(t.port);
  const std::string subject = t.ib_dev + " port " + t.port;
  if (t.cm_roce_v2)
    Step(out, subject, "rdma_cm default_roce_mode", std::string(kCmRoceModeV2),
         "cm_roce_mode " + escape::ShWord(t.ib_dev) + " " + escape::ShWord(t.port),
         SetCmRoceModeV2(tools, roots, t.ib_dev, t.port), Save("cm_mode", dev_port, ""));
  if (t.cm_tos_dscp)
    Step(out, subject, "rdma_cm default_roce_tos dscp", std::to_string(*t.cm_tos_dscp),
         "cm_tos_dscp " + escape::ShWord(t.ib_dev) + " " + escape::ShWord(t.port),
         SetCmTos(tools, roots, t.ib_dev, t.port, TosForDscp(*t.cm_tos_dscp)),
         SaveRead("cm_tos", dev_port, "", "cm_tos_value " + dev_port));
  // Exactly the planned optional counters; the reader fails, naming them, where the driver has
  // no such counter (the check counters.optional-disabled says the same).
  if (!t.optional_counters.empty()) {
    std::string want;
    for (const auto& c : t.optional_counters) want += (want.empty() ? "" : ",") + c;
    Step(out, subject, "optional counters", want,
         "optional_counters " + dev_port + " " + escape::ShWord(want),
         SetOptionalCounters(t.ib_dev, t.port, t.optional_counters),
         Save("optional_counters", dev_port, ""));
  }
  // ACS redirect off on each bridge a finding named (gpudirect.acs-redirect); the backup keeps
  // the bits that were on, which the rollback sets back.
  for (const auto& bridge : t.acs_redirect_off) {
    const std::string b = escape::ShWord(bridge);
    Step(out, bridge, "ACS redirect", "ReqRedir- CmpltRedir-", "acs_redirect " + b, AcsRedirectCommand(bridge, 0),
         Save("acs", b, "redirect"));
  }
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
    for (const auto& counter : t.optional_counters)
      if (!IsSafeName(counter) || counter.find_first_of(".:") != std::string::npos)
        return Error{"node " + Quote(node.name) + ": optional counter " + Quote(counter) +
                     " cannot be used in a script (letters, digits, '_', '-')"};
  }
  const bool mlnx = options.tools == Toolset::kMlnx;
  // Plan values reach the script text only through rocewatch/escape.h: ShComment in comments,
  // ShWord as words.
  std::string nic_lines;
  for (const auto& t : nics)
    nic_lines += "#   " + escape::ShComment(t.ib_dev) + " / " + escape::ShComment(t.netdev) +
                 ": profile " + escape::ShComment(t.profile) + ", " +
                 std::to_string(t.SettingCount()) +
                 (t.SettingCount() == 1 ? " setting\n" : " settings\n");
  // The settings first: their digest is the plan's, as far as this node goes.
  std::ostringstream settings;
  settings << "configure() {";
  for (const auto& t : nics) RenderSteps(settings, t, options.tools);
  if (nics.empty()) settings << "\n  :\n";
  settings << "}\n";
  auto header = templates::FillTemplate(
      templates::kHeader,
      {{"NODE_COMMENT", escape::ShComment(node.name)},
       {"CLUSTER_COMMENT", escape::ShComment(options.cluster)},
       {"PLAN_COMMENT", escape::ShComment(options.plan_name)},
       {"TOOLS_COMMENT", mlnx ? "MLNX_OFED tools (mlnx_qos, cma_roce_mode, cma_roce_tos,\n# ip, "
                                "ethtool, sysfs writes)"
                              : "upstream tools (iproute2 dcb and ip, ethtool,\n# sysfs and "
                                "configfs writes)"},
       {"SCOPE_COMMENT",
        options.only_findings ? ", limited to the settings the checks found wrong" : ""},
       {"NIC_COMMENT_LINES", nic_lines},
       {"NODE_WORD", escape::ShWord(node.name)},
       {"VERSION_WORD", escape::ShWord(kVersion)},
       {"DIGEST_WORD", escape::ShWord("fnv1a64:" + Digest(settings.str()))}});
  if (!header) return header.error();
  std::ostringstream out;
  out << *header;
  out << templates::kLibrary << (mlnx ? templates::kMlnx : templates::kUpstream)
      << templates::kRollback;
  RenderPrecheck(out, nics, options.tools);
  out << "\n# ---- the settings, in plan order "
         "------------------------------------------------------------\n"
      << settings.str();
  out << templates::kMain;
  return out.str();
}

}  // namespace rocewatch::lint::fix
