#pragma once

// What a collector's table is rendered from, when that is its own snapshot section alone
// (CollectorInfo::render_input): the render cache (exporter/pass/render_cache.h) keeps a copy of the
// section and serves the text it rendered from it while the section stays equal, so settings
// that rarely change (PCIe, rdma_cm, verbs) and optics between their reads are not rendered
// again on every scrape. A renderer that reads a little of another section too names what it
// reads (SectionAnd: ecn reads which priorities have PFC on). Collectors whose sections change
// on every pass (counters: rdma, ethtool, netdev) leave it empty; dcb, whose section holds
// pause counters too, keys on what its table shows of them (collectors/dcb/collector.cpp).

#include <memory>
#include <utility>

#include "exporter/model/snapshot.h"

namespace rocewatch::collectors {

struct RenderInput {
  std::shared_ptr<const void> (*keep)(const NodeSnapshot&) = nullptr;  // a copy of the input
  bool (*same)(const NodeSnapshot&, const void* kept) = nullptr;       // equal to that copy
  explicit operator bool() const { return keep != nullptr && same != nullptr; }
};

// The collector's renderer reads `Section` of the snapshot and nothing else; `Section` compares
// with == (exactly: a NaN reading is never equal, so it is rendered again, never served stale).
template <class Section>
RenderInput OwnSection() {
  return {[](const NodeSnapshot& snap) -> std::shared_ptr<const void> {
            return std::make_shared<const Section>(static_cast<const Section&>(snap));
          },
          [](const NodeSnapshot& snap, const void* kept) {
            return static_cast<const Section&>(snap) == *static_cast<const Section*>(kept);
          }};
}

// The collector's renderer reads `Section` and, of the rest of the snapshot, only what `Read`
// returns (a value compared with ==): its text is served again while both are equal.
template <class Section, auto Read>
RenderInput SectionAnd() {
  using Extra = decltype(Read(std::declval<const NodeSnapshot&>()));
  struct Kept {
    Section section;
    Extra extra;
  };
  return {[](const NodeSnapshot& snap) -> std::shared_ptr<const void> {
            return std::make_shared<const Kept>(Kept{static_cast<const Section&>(snap), Read(snap)});
          },
          [](const NodeSnapshot& snap, const void* kept) {
            const Kept& k = *static_cast<const Kept*>(kept);
            return static_cast<const Section&>(snap) == k.section && Read(snap) == k.extra;
          }};
}

}  // namespace rocewatch::collectors
