#pragma once

// The harness of the kernel-answer collectors' tests (ethtool, dcb, ethtool_netlink, fec, verbs,
// and rdma's counters): a source built from the registry and kept across collections, its page
// as served, a replay that counts calls and lets a test rewrite answers, and answers crafted as
// the kernel lays them out.

#include <gtest/gtest.h>
#include <linux/dcbnl.h>
#include <linux/ethtool.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include "common/fixture_collector.h"
#include "common/fixture_paths.h"
#include "common/rendered_text.h"
#include "common/test_dir.h"
#include "exporter/capture/files/capture_files.h"
#include "exporter/collectors/dcb/collector.h"
#include "exporter/collectors/ethtool/collector.h"
#include "exporter/collectors/ethtool_netlink/collector.h"
#include "exporter/collectors/rdma/collector.h"
#include "exporter/collectors/registry.h"
#include "exporter/inventory/inventory.h"
#include "exporter/kernel/answers.h"
#include "exporter/pass/runner.h"
#include "exporter/netlink/kernel_skb.h"

namespace rocewatch::testing::kernel_sources {

using rocewatch::testing::FixtureDir;
using rocewatch::testing::TestDir;
namespace stdfs = std::filesystem;

// --- harness ------------------------------------------------------------------------

inline Inventory FixtureInventory(const std::string& dir) {
  fs::Tree sysfs("sysfs", dir + "/sys");
  return Discover(sysfs, DiscoverOptions{}, 1);
}

inline Inventory NetdevInventory(std::initializer_list<const char*> names,
                                 std::uint64_t generation = 1) {
  Inventory inv;
  inv.generation = generation;
  for (const char* n : names)
    inv.netdevs.push_back(NetdevRef{n, "devices/virtual/net/" + std::string(n), "", 0});
  return inv;
}

struct Collected {
  NodeSnapshot snap;
  SourceStatus status;
};

// A source built from the registry (as the collector builds it), kept across collections.
class SourceUnderTest {
 public:
  SourceUnderTest(const std::string& name, kernel::KernelAnswers& kernel,
                  std::map<std::string, std::string> options = {})
      : sysfs_("sysfs", "/nonexistent") {
    const collectors::CollectorInfo* info = collectors::FindCollector(name);
    EXPECT_NE(info, nullptr) << name;
    collectors::SourceEnv env;
    env.sysfs = &sysfs_;
    env.configfs = &sysfs_;
    env.debugfs = &sysfs_;
    env.kernel = &kernel;
    env.options = WithDefaults(*info, std::move(options));
    auto made = info->make(env);
    EXPECT_TRUE(made.ok()) << (made.ok() ? "" : made.error().message);
    if (made.ok()) source_ = std::move(*made);
    name_ = name;
    if (info != nullptr) render_ = info->render;
  }

  Collected Collect(const Inventory& inventory) {
    if (inventory.generation != prepared_) {
      source_->Prepare(inventory);
      prepared_ = inventory.generation;
    }
    Collected r;
    r.status.name = name_;
    source_->Collect(inventory, r.snap, r.status);
    return r;
  }

  // The collector's page for `snap`, as /metrics serves it (its renderer from the registry).
  std::string Page(const NodeSnapshot& snap) const {
    std::string text;
    if (render_ != nullptr) RenderText(render_, snap, &text);
    return text;
  }

 private:
  fs::Tree sysfs_;
  std::unique_ptr<collectors::Source> source_;
  std::string name_;
  void (*render_)(const NodeSnapshot&, metrics::MetricSink&) = nullptr;
  std::uint64_t prepared_ = 0;
};

// Whether `text` has the sample line `line` (series and value, as served).
inline bool HasLine(const std::string& text, const std::string& line) {
  return ("\n" + text).find("\n" + line + "\n") != std::string::npos;
}

// The replay of a fixture, counting the calls and letting a test rewrite answers.
class CountingKernel final : public kernel::KernelAnswers {
 public:
  explicit CountingKernel(std::string dir) : inner_(kernel::MakeReplayKernel(std::move(dir))) {}

  std::map<std::string, int> calls;
  std::function<void(const std::string& call, const std::string& netdev, kernel::Answer&)> rewrite;

  // Counts the call as its capture key names it (ethtool/<netdev>/<call>[.<set>]): "drvinfo",
  // "sset_info", "strings", "stats", "ieee", "linkstate"…
  kernel::Answer Ask(const kernel::Request& r) override {
    const std::string key = kernel::KeyOf(r);
    const std::size_t first = key.find('/'), last = key.rfind('/');
    const std::string netdev = key.substr(first + 1, last - first - 1);
    const std::string call = key.substr(last + 1, key.find('.', last) - last - 1);
    kernel::Answer a = inner_->Ask(r);
    calls[call] += 1;
    if (rewrite) rewrite(call, netdev, a);
    return a;
  }

 private:
  std::unique_ptr<kernel::KernelAnswers> inner_;
};

// A writable copy of a fixture's kernel/ answers.
inline void CopyKernelAnswers(const std::string& fixture, const TestDir& dir) {
  stdfs::copy(fixture + "/kernel", dir / "kernel", stdfs::copy_options::recursive);
}

inline void WriteBytes(const TestDir& dir, const std::string& key,
                const std::vector<std::uint8_t>& bytes) {
  Status s = kernel::WriteAnswer(dir.path(), key, kernel::Answer{bytes, 0});
  ASSERT_TRUE(s.ok()) << s.error().message;
}

inline void WriteErrno(const TestDir& dir, const std::string& key, int err) {
  stdfs::remove(stdfs::path(dir.path()) / "kernel" / key);
  Status s = kernel::WriteAnswer(dir.path(), key, kernel::Answer{{}, err});
  ASSERT_TRUE(s.ok()) << s.error().message;
}

template <class T>
inline const T* FindNetdev(const std::vector<T>& v, const std::string& netdev) {
  for (const auto& x : v)
    if (x.netdev == netdev) return &x;
  return nullptr;
}

inline std::optional<double> Priority(const EthtoolSnapshot& e, int priority, const std::string& direction,
                               const std::string& kind) {
  std::optional<double> found;
  for (const auto& p : e.per_priority) {
    if (p.priority == priority && ethtool::DirectionName(p.direction) == direction &&
        ethtool::PriorityKindName(p.kind) == kind) {
      EXPECT_FALSE(found) << "duplicate " << kind << " priority " << priority;
      found = p.value;
    }
  }
  return found;
}

inline std::optional<double> Port(const EthtoolSnapshot& e, const std::string& kind) {
  std::optional<double> found;
  for (const auto& p : e.port) {
    if (p.spec->kind == kind) {
      EXPECT_FALSE(found) << "duplicate " << kind;
      found = p.value;
    }
  }
  return found;
}

inline bool AnyErrorHas(const SourceStatus& s, const std::string& a, const std::string& b) {
  return std::any_of(s.errors.begin(), s.errors.end(), [&](const std::string& e) {
    return e.find(a) != std::string::npos && e.find(b) != std::string::npos;
  });
}

// Crafted SIOCETHTOOL answers, laid out as the kernel fills them.
inline std::vector<std::uint8_t> DriverInfoBytes(const std::string& driver, std::uint32_t n_stats) {
  ethtool_drvinfo d{};
  d.cmd = ETHTOOL_GDRVINFO;
  std::memcpy(d.driver, driver.data(), driver.size());
  d.n_stats = n_stats;
  std::vector<std::uint8_t> out(sizeof d);
  std::memcpy(out.data(), &d, sizeof d);
  return out;
}

inline std::vector<std::uint8_t> SsetInfoBytes(std::uint32_t count) {
  std::vector<std::uint8_t> out(sizeof(ethtool_sset_info) + 4, 0);
  ethtool_sset_info h{};
  h.cmd = ETHTOOL_GSSET_INFO;
  h.sset_mask = 1u << ETH_SS_STATS;
  std::memcpy(out.data(), &h, sizeof h);
  std::memcpy(out.data() + sizeof h, &count, 4);
  return out;
}

inline std::vector<std::uint8_t> StringsBytes(const std::vector<std::string>& names) {
  ethtool_gstrings h{};
  h.cmd = ETHTOOL_GSTRINGS;
  h.string_set = ETH_SS_STATS;
  h.len = static_cast<std::uint32_t>(names.size());
  std::vector<std::uint8_t> out(sizeof h + names.size() * ETH_GSTRING_LEN, 0);
  std::memcpy(out.data(), &h, sizeof h);
  for (std::size_t i = 0; i < names.size(); ++i) {
    std::memcpy(out.data() + sizeof h + i * ETH_GSTRING_LEN, names[i].data(), names[i].size());
  }
  return out;
}

inline std::vector<std::uint8_t> StatsBytes(const std::vector<std::uint64_t>& values) {
  ethtool_stats h{};
  h.cmd = ETHTOOL_GSTATS;
  h.n_stats = static_cast<std::uint32_t>(values.size());
  std::vector<std::uint8_t> out(sizeof h + values.size() * 8);
  std::memcpy(out.data(), &h, sizeof h);
  std::memcpy(out.data() + sizeof h, values.data(), values.size() * 8);
  return out;
}

// dcbnl_ieee_fill() for a driver with ieee_getpfc and an APP table (test-only mirror).
inline std::vector<std::uint8_t> DcbReply(const std::string& ifname, std::size_t pfc_bytes,
                                   const std::vector<dcb_app>& apps) {
  testing::KernelSkb skb;
  const std::size_t m = skb.NlmsgPut(4242, 1, RTM_GETDCB, sizeof(dcbmsg), NLM_F_REQUEST);
  dcbmsg header{};
  header.dcb_family = AF_UNSPEC;
  header.cmd = DCB_CMD_IEEE_GET;
  skb.SetFamilyHeader(m, header);
  skb.NlaPutString(DCB_ATTR_IFNAME, ifname);
  const std::size_t ieee = skb.NestStartNoflag(DCB_ATTR_IEEE);
  ieee_pfc pfc{};
  pfc.pfc_cap = 8;
  pfc.pfc_en = 1u << 3;
  std::vector<std::uint8_t> pfc_raw(std::max(pfc_bytes, sizeof pfc), 0);
  std::memcpy(pfc_raw.data(), &pfc, sizeof pfc);
  skb.NlaPut(DCB_ATTR_IEEE_PFC, pfc_raw.data(), pfc_bytes);
  const std::size_t app = skb.NestStartNoflag(DCB_ATTR_IEEE_APP_TABLE);
  for (const dcb_app& a : apps) skb.NlaPutStruct(DCB_ATTR_IEEE_APP, a);
  skb.NestEnd(app);
  skb.NestEnd(ieee);
  skb.NlaPutU8(DCB_ATTR_DCBX, DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE);
  skb.NlmsgEnd(m);
  return skb.bytes();
}

inline std::size_t SamplesOf(const lint::observe::Exposition& text, const std::string& name) {
  return text.SamplesOf(name).size();
}

inline constexpr const char* kRoceNetdevs[] = {"ens1f0np0", "ens2f0np0", "ens3f0np0", "ens4f0np0"};

}  // namespace rocewatch::testing::kernel_sources
