// The driver units (exporter/drivers/): each table is consistent with itself, with the port
// statistic kinds the ethtool collector serves and with the other drivers, and a driver is
// found by the name the kernel reports, nothing else.

#include <gtest/gtest.h>

#include <cctype>
#include <set>
#include <string>
#include <vector>

#include "exporter/drivers/all.h"
#include "exporter/ethtool/classify.h"

namespace rocewatch::drivers {
namespace {

TEST(Drivers, EveryUnitIsRegisteredOnceAndCitesItsSources) {
  std::set<std::string_view> names, netdev_drivers, rdma_drivers;
  ASSERT_EQ(AllDrivers().size(), std::size(kDriverUnits));
  for (const Driver* d : AllDrivers()) {
    SCOPED_TRACE(std::string(d->name));
    EXPECT_TRUE(names.insert(d->name).second);
    for (std::string_view n : d->netdev_drivers) EXPECT_TRUE(netdev_drivers.insert(n).second) << n;
    for (std::string_view n : d->rdma_drivers) EXPECT_TRUE(rdma_drivers.insert(n).second) << n;
    EXPECT_FALSE(d->ethtool_source.empty());
    EXPECT_FALSE(d->hw_counter_source.empty());
    EXPECT_FALSE(d->ecn_where.empty());
    if (d->ecn == EcnSettings::kNotExposed) {
      EXPECT_TRUE(d->ecn_where.starts_with("not exposed by this driver"));
    }
    EXPECT_FALSE(d->quirks.empty());
  }
}

TEST(Drivers, FoundByTheKernelsNameOnly) {
  EXPECT_EQ(FindByNetdevDriver("mlx5_core"), &Mlx5Driver());
  EXPECT_EQ(FindByNetdevDriver("ice"), &IceDriver());
  EXPECT_EQ(FindByNetdevDriver("bnxt_en"), &BnxtDriver());
  EXPECT_EQ(FindByNetdevDriver("ionic"), &IonicDriver());
  EXPECT_EQ(FindByRdmaDriver("bnxt_en"), &BnxtDriver());
  EXPECT_EQ(FindByRdmaDriver("irdma"), &IceDriver());
  EXPECT_EQ(FindByRdmaDriver("rdma_rxe"), &RxeDriver());
  for (std::string_view other : {"", "mlx5", "mlx5_core ", "MLX5_CORE", "bnxt", "virtio_net", "veth",
                                 "i40e", "mlx4_en"}) {
    EXPECT_EQ(FindByNetdevDriver(other), nullptr) << other;
  }
  EXPECT_EQ(FindByNetdevDriver("rdma_rxe"), nullptr);  // rxe prints no ethtool -S of its own
}

TEST(Drivers, PortNamesFeedKnownKindsInTheirUnits) {
  for (const Driver* d : AllDrivers()) {
    SCOPED_TRACE(std::string(d->name));
    std::set<std::string_view> names, kinds;
    for (const PortName& p : d->port) {
      EXPECT_TRUE(names.insert(p.name).second) << "duplicate " << p.name;
      const ethtool::PortStatSpec* kind = ethtool::FindPortKind(p.kind);
      ASSERT_NE(kind, nullptr) << p.name << " feeds " << p.kind << ", which is no port kind";
      EXPECT_GT(p.scale, 0.0) << p.name;
      // A unit conversion says the unit it converts to.
      if (p.scale < 1.0 && kind->type == ethtool::StatType::kCounter) {
        EXPECT_TRUE(p.kind.ends_with("_seconds")) << p.name;
      }
      // The name is the port's, not claimed by a per-priority name or a queue shape first.
      const auto c = ethtool::ClassifyStrings(std::vector<std::string>{std::string(p.name)}, d);
      ASSERT_EQ(c.port.size(), 1u) << p.name;
      EXPECT_EQ(c.port[0].spec, kind);
    }
    for (const KnownName& k : d->known) {
      const std::string name = std::string(k.prefix) + (k.digit ? "3" : "") + std::string(k.suffix);
      const auto c = ethtool::ClassifyStrings(std::vector<std::string>{name}, d);
      EXPECT_TRUE(c.port.empty() && c.per_priority.empty()) << name << " is known and also served";
      EXPECT_EQ(c.unclassified, 0u) << name;
    }
  }
}

TEST(Drivers, PriorityNamesAreOneDigitAndNeverXonAsPause) {
  for (const Driver* d : AllDrivers()) {
    SCOPED_TRACE(std::string(d->name));
    for (const PriorityName& p : d->priority) {
      EXPECT_GT(p.scale, 0.0);
      if (p.kind == PriorityKind::kPauseDurationSeconds) {
        EXPECT_DOUBLE_EQ(p.scale, 1e-6);
      }
      const std::string lower = std::string(p.prefix) + std::string(p.suffix);
      if (p.kind == PriorityKind::kPauseFrames) {
        EXPECT_EQ(lower.find("xon"), std::string::npos) << lower;
        EXPECT_EQ(lower.find("pfc_ena"), std::string::npos) << lower << " counts XON too";
      }
      for (int prio = 0; prio < 8; ++prio) {
        const std::string name = std::string(p.prefix) + std::to_string(prio) + std::string(p.suffix);
        const auto c = ethtool::ClassifyStrings(std::vector<std::string>{name}, d);
        ASSERT_EQ(c.per_priority.size(), 1u) << name;
        EXPECT_EQ(c.per_priority[0].priority, prio);
        EXPECT_EQ(c.per_priority[0].kind, p.kind) << name << " is claimed by an earlier pattern";
        EXPECT_EQ(c.per_priority[0].direction, p.direction);
      }
      const std::string eight = std::string(p.prefix) + "8" + std::string(p.suffix);
      EXPECT_TRUE(ethtool::ClassifyStrings(std::vector<std::string>{eight}, d).per_priority.empty()) << eight;
    }
  }
}

TEST(Drivers, HwCounterNamesMapToOneEventEach) {
  for (const Driver* d : AllDrivers()) {
    SCOPED_TRACE(std::string(d->name));
    std::set<std::string_view> names;
    for (const HwCounterName& h : d->hw_counters) {
      EXPECT_TRUE(names.insert(h.name).second) << "duplicate " << h.name;
      TransportEvent e{};
      ASSERT_TRUE(FindTransportEvent(*d, h.name, e));
      EXPECT_EQ(e, h.event);
      EXPECT_NE(TransportEventName(e), "unknown");
    }
    TransportEvent e{};
    EXPECT_FALSE(FindTransportEvent(*d, "no_such_counter", e));
  }
  // The vocabulary of docs/metrics.md, in order.
  const std::vector<std::string_view> vocabulary = {
      "cnp_sent", "cnp_handled", "cnp_ignored", "ecn_marked", "out_of_sequence", "duplicate_request",
      "sequence_error_nak", "local_ack_timeout", "retransmits", "retry_exceeded", "rnr_nak_received",
      "rnr_retry_exceeded", "implied_nak_sequence_error"};
  ASSERT_EQ(vocabulary.size(), kTransportEventCount);
  for (std::size_t i = 0; i < vocabulary.size(); ++i)
    EXPECT_EQ(TransportEventName(static_cast<TransportEvent>(i)), vocabulary[i]);
}

TEST(Drivers, PortKindsAreSnakeCaseAndUnique) {
  std::set<std::string_view> kinds;
  for (const ethtool::PortStatSpec& s : ethtool::PortStatTable()) {
    EXPECT_TRUE(kinds.insert(s.kind).second) << "duplicate kind " << s.kind;
    for (char ch : s.kind) {
      EXPECT_TRUE(std::islower(static_cast<unsigned char>(ch)) || std::isdigit(static_cast<unsigned char>(ch)) ||
                  ch == '_')
          << s.kind;
    }
    EXPECT_FALSE(s.help.empty()) << s.kind;
    EXPECT_EQ(ethtool::FindPortKind(s.kind), &s);
  }
  EXPECT_EQ(ethtool::FindPortKind("no_such_kind"), nullptr);
}

}  // namespace
}  // namespace rocewatch::drivers
