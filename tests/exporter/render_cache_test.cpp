// The render cache (exporter/pass/render_cache.h) on a replayed fixture with every collector: the
// page it writes is byte for byte what a fresh render of the same snapshot writes, whether a
// table is served from the cache or rendered again; a table whose input changed is rendered
// again (ecn also when only PFC changed; dcb when a setting or a pause counter it serves
// moved, not when a counter ethtool serves did); collectors without a render input (counters)
// are rendered every time.

#include "exporter/pass/render_cache.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "common/fixture_collector.h"
#include "common/fixture_paths.h"
#include "exporter/collectors/registry.h"
#include "exporter/metrics/text_renderer.h"
#include "exporter/pass/runner.h"
#include "exporter/pass/scrape_coalescer.h"

namespace rocewatch {
namespace {

using rocewatch::testing::FixtureDir;

std::unique_ptr<PassRunner> MakeCollector(const std::string& dir) {
  auto made = PassRunner::Create(testing::FixtureCollectorConfig(dir));
  EXPECT_TRUE(made.ok()) << made.error().message;
  return std::move(*made);
}

std::string Fresh(const NodeSnapshot& snap, const PassRunner& c) {
  metrics::TextRenderer text;
  RenderSnapshot(snap, c.enabled_collectors(), c.stats(), text);
  return std::move(text).Take();
}

std::string Cached(RenderCache& cache, const NodeSnapshot& snap, const PassRunner& c) {
  std::string page = "the bytes of a page before, replaced";
  cache.Render(snap, c.enabled_collectors(), c.stats(), page);
  return page;
}

std::uint64_t CacheableCollectors() {
  std::uint64_t n = 0;
  for (const auto& s : collectors::AllCollectors()) n += s.render_input ? 1 : 0;
  return n;
}

// The page is written table by table (render_cache.h): that is the text of one renderer only
// while no two collectors write the same family. Every table of the fixture with every
// collector holds only families of its own collector's spec list, and no family is in two.
TEST(RenderCache, EveryCollectorWritesOnlyItsOwnFamilies) {
  auto c = MakeCollector(FixtureDir("mlx5-roce"));
  NodeSnapshot snap = c->Collect();
  std::map<std::string, std::string> owner;
  for (const auto& s : collectors::AllCollectors())
    for (const auto* spec : s.specs())
      EXPECT_TRUE(owner.emplace(std::string(spec->name), std::string(s.name)).second)
          << spec->name << " is declared by " << owner[std::string(spec->name)] << " and " << s.name;
  std::size_t families = 0;
  for (const auto& name : c->enabled_collectors()) {
    const collectors::CollectorInfo* info = collectors::FindCollector(name);
    ASSERT_NE(info, nullptr) << name;
    metrics::TextRenderer table;
    info->render(snap, table);
    const std::string text = std::move(table).Take();
    for (std::size_t at = text.find("# TYPE "); at != std::string::npos; at = text.find("\n# TYPE ", at + 1)) {
      const std::size_t start = text[at] == '\n' ? at + 8 : at + 7;
      const std::string family = text.substr(start, text.find(' ', start) - start);
      ++families;
      EXPECT_EQ(owner[family], name) << family << " written by " << name;
    }
  }
  EXPECT_GT(families, 60u);
}

TEST(RenderCache, ServesTheSameBytesAsAFreshRender) {
  auto c = MakeCollector(FixtureDir("mlx5-roce"));
  NodeSnapshot snap = c->Collect();
  ASSERT_FALSE(snap.optics.empty());
  ASSERT_FALSE(snap.pcie.empty());
  ASSERT_GE(CacheableCollectors(), 6u);  // optics, pcie, rdma_cm, verbs, ecn, dcb
  RenderCache cache;
  const std::string fresh = Fresh(snap, *c);
  EXPECT_EQ(Cached(cache, snap, *c), fresh);
  EXPECT_EQ(cache.rendered(), CacheableCollectors());
  EXPECT_EQ(cache.served(), 0u);
  EXPECT_EQ(Cached(cache, snap, *c), fresh);  // every cacheable table from the cache now
  EXPECT_EQ(cache.served(), CacheableCollectors());
  EXPECT_NE(fresh.find("roce_module_temperature_celsius{"), std::string::npos);

  // A new pass over the same node: equal sections, the same page.
  NodeSnapshot again = c->Collect();
  EXPECT_EQ(Cached(cache, again, *c), Fresh(again, *c));
  EXPECT_EQ(cache.served(), 2 * CacheableCollectors());
}

TEST(RenderCache, RendersATableAgainWhenItsInputChanged) {
  auto c = MakeCollector(FixtureDir("mlx5-roce"));
  NodeSnapshot snap = c->Collect();
  ASSERT_FALSE(snap.optics.empty());
  ASSERT_FALSE(snap.optics[0].readings.empty());
  ASSERT_FALSE(snap.rdma_cm.empty());
  RenderCache cache;
  const std::string before = Cached(cache, snap, *c);
  const std::uint64_t rendered = cache.rendered();

  // A module reading moves (the optics source re-read the EEPROM).
  snap.optics[0].readings[0].value = snap.optics[0].readings[0].value.value_or(0) + 1.5;
  const std::string moved = Cached(cache, snap, *c);
  EXPECT_EQ(moved, Fresh(snap, *c));
  EXPECT_NE(moved, before);
  EXPECT_EQ(cache.rendered(), rendered + 1);  // optics only
  EXPECT_EQ(cache.served(), CacheableCollectors() - 1);

  // A setting changes (rdma_cm's ToS), and back: rendered both times, never served stale; and
  // so is dcb's table, whose DSCPs in use it decides.
  const auto tos = snap.rdma_cm[0].tos;
  snap.rdma_cm[0].tos = tos.value_or(0) + 4;
  EXPECT_EQ(Cached(cache, snap, *c), Fresh(snap, *c));
  snap.rdma_cm[0].tos = tos;
  EXPECT_EQ(Cached(cache, snap, *c), Fresh(snap, *c));
  EXPECT_EQ(cache.rendered(), rendered + 5);

  // A NaN reading is never equal to itself: rendered every time, the same bytes as fresh.
  snap.optics[0].readings[0].value = std::nan("");
  EXPECT_EQ(Cached(cache, snap, *c), Fresh(snap, *c));
  EXPECT_EQ(Cached(cache, snap, *c), Fresh(snap, *c));
  EXPECT_EQ(cache.rendered(), rendered + 7);
}

// The ecn table reads its section and which priorities have PFC on (dcb): served from the
// cache while both are equal, rendered again when only PFC changes, never stale.
TEST(RenderCache, EcnIsRenderedAgainWhenOnlyPfcChanged) {
  auto c = MakeCollector(FixtureDir("mlx5-roce"));
  NodeSnapshot snap = c->Collect();
  ASSERT_FALSE(snap.ecn.empty());
  ASSERT_FALSE(snap.dcb.empty());
  ASSERT_TRUE(snap.dcb[0].pfc_enabled);
  ASSERT_TRUE(collectors::FindCollector("ecn")->render_input);
  RenderCache cache;
  Cached(cache, snap, *c);
  const std::uint64_t rendered = cache.rendered();
  EXPECT_EQ(Cached(cache, snap, *c), Fresh(snap, *c));
  EXPECT_EQ(cache.rendered(), rendered);  // everything cacheable, ecn included, from the cache

  // PFC turned on for every priority of the first netdev: ecn shows those priorities now.
  const std::string before = Fresh(snap, *c);
  snap.dcb[0].pfc_enabled->fill(true);
  const std::string after = Cached(cache, snap, *c);
  EXPECT_EQ(after, Fresh(snap, *c));
  EXPECT_NE(after, before);
  EXPECT_EQ(cache.rendered(), rendered + 2);  // ecn, and dcb (its own setting changed)
}

// The dcb table is settings and, where ethtool does not serve them, dcbnl's pause counters:
// served from the cache while a counter that is no series moves, rendered again when one that
// is moves, when a priority starts pausing, and when a setting changes; never stale.
TEST(RenderCache, DcbIsRenderedAgainOnlyWhenWhatItServesChanged) {
  auto c = MakeCollector(FixtureDir("mlx5-roce"));
  NodeSnapshot snap = c->Collect();
  ASSERT_FALSE(snap.dcb.empty());
  DcbSnapshot& d = snap.dcb[0];
  ASSERT_TRUE(d.pfc_rx_pause_frames && d.pfc_tx_pause_frames);
  ASSERT_EQ((*d.pfc_rx_pause_frames)[0], 0);  // priority 0: PFC off, no pause (fixture)
  ASSERT_TRUE(collectors::FindCollector("dcb")->render_input);
  RenderCache cache;
  Cached(cache, snap, *c);
  const std::uint64_t rendered = cache.rendered();
  const std::string counters = "roce_dcb_pfc_pause_frames_total{netdev=\"" + d.netdev + "\"";

  // Priority 3 pauses more: ethtool serves that counter, dcb does not; ethtool's own is
  // rendered every pass, the dcb table comes from the cache.
  (*d.pfc_rx_pause_frames)[3] += 1000;
  std::string page = Cached(cache, snap, *c);
  EXPECT_EQ(page, Fresh(snap, *c));
  EXPECT_EQ(page.find(counters), std::string::npos);
  EXPECT_EQ(cache.rendered(), rendered);

  // Priority 0, PFC off, starts receiving pause frames: dcbnl's counter is the series that
  // shows it (ethtool has none for a PFC-off priority on mlx5), so the table is rendered again.
  (*d.pfc_rx_pause_frames)[0] = 7;
  page = Cached(cache, snap, *c);
  EXPECT_EQ(page, Fresh(snap, *c));
  EXPECT_NE(page.find(counters + ",priority=\"0\",direction=\"rx\"} 7\n"), std::string::npos);
  EXPECT_EQ(cache.rendered(), rendered + 1);

  // That served counter moves: rendered again, not served stale.
  (*d.pfc_rx_pause_frames)[0] = 9;
  page = Cached(cache, snap, *c);
  EXPECT_EQ(page, Fresh(snap, *c));
  EXPECT_NE(page.find(counters + ",priority=\"0\",direction=\"rx\"} 9\n"), std::string::npos);
  EXPECT_EQ(cache.rendered(), rendered + 2);

  // A setting changes (the trust mode): rendered again.
  d.trust = "pcp";
  page = Cached(cache, snap, *c);
  EXPECT_EQ(page, Fresh(snap, *c));
  EXPECT_NE(page.find("roce_qos_trust_info{netdev=\"" + d.netdev + "\",mode=\"pcp\"}"), std::string::npos);
  EXPECT_EQ(cache.rendered(), rendered + 3);
}

TEST(RenderCache, CollectorsWithoutARenderInputAreRenderedEveryTime) {
  auto c = MakeCollector(FixtureDir("mlx5-roce"));
  NodeSnapshot snap = c->Collect();
  ASSERT_FALSE(snap.devices.empty());
  ASSERT_FALSE(snap.devices[0].ports.empty());
  const collectors::CollectorInfo* rdma = collectors::FindCollector("rdma");
  ASSERT_NE(rdma, nullptr);
  EXPECT_FALSE(rdma->render_input);  // counters: they change every pass
  RenderCache cache;
  const std::string before = Cached(cache, snap, *c);
  auto& port = snap.devices[0].ports[0];
  port.received_bytes = port.received_bytes.value_or(0) + 4096;
  const std::string after = Cached(cache, snap, *c);
  EXPECT_EQ(after, Fresh(snap, *c));
  EXPECT_NE(after, before);
  EXPECT_EQ(cache.served(), CacheableCollectors());  // the others were served
}

}  // namespace
}  // namespace rocewatch
