#include "exporter/collectors/gpudirect/topology.h"

#include <algorithm>

#include "exporter/inventory/pci_function.h"
#include "rocewatch/strings.h"

namespace rocewatch::collectors::gpudirect {
namespace {

// NCCL's ancestors of the chain's last function: every second function above it.
std::vector<std::string> NcclAncestors(const std::vector<std::string>& chain) {
  std::vector<std::string> out;
  for (std::ptrdiff_t i = static_cast<std::ptrdiff_t>(chain.size()) - 3; i >= 0; i -= 2)
    out.push_back(chain[static_cast<std::size_t>(i)]);
  return out;
}

bool Known(std::optional<std::int64_t> numa) { return numa && *numa >= 0; }

}  // namespace

PciChain ParsePciChain(std::string_view dir) {
  PciChain c;
  std::size_t end = 0;  // where `part` ends in `dir`
  for (std::string_view part : Split(dir, '/')) {
    end += part.size();
    if (IsPciAddress(part)) {
      if (c.chain.empty()) c.host = std::string(dir.substr(0, end - part.size() - (end > part.size() ? 1 : 0)));
      c.chain.emplace_back(part);
      c.dirs.emplace_back(dir.substr(0, end));
    } else if (!c.chain.empty() && part.substr(0, 3) != "pci") {
      break;  // past the function (…/0000:1a:00.0/infiniband/mlx5_0)
    }
    end += 1;
  }
  return c;
}

std::string_view RelationName(Relation r) {
  switch (r) {
    case Relation::kPix: return "PIX";
    case Relation::kPxb: return "PXB";
    case Relation::kPhb: return "PHB";
    case Relation::kNode: return "NODE";
    case Relation::kSys: return "SYS";
  }
  return "SYS";
}

std::optional<Relation> ParseRelation(std::string_view name) {
  for (Relation r : {Relation::kPix, Relation::kPxb, Relation::kPhb, Relation::kNode, Relation::kSys})
    if (RelationName(r) == name) return r;
  return std::nullopt;
}

PathBetween Between(const PciChain& a, std::optional<std::int64_t> numa_a, const PciChain& b,
                    std::optional<std::int64_t> numa_b) {
  PathBetween p;
  if (a.chain.empty() || b.chain.empty() || a.host != b.host) {
    const bool other_node = Known(numa_a) && Known(numa_b) && *numa_a != *numa_b;
    p.relation = other_node ? Relation::kSys : Relation::kNode;
    return p;
  }
  const auto up_a = NcclAncestors(a.chain), up_b = NcclAncestors(b.chain);
  auto meet = std::find_if(up_a.begin(), up_a.end(), [&](const std::string& x) {
    return std::find(up_b.begin(), up_b.end(), x) != up_b.end();
  });
  if (meet == up_a.end()) {
    p.relation = Relation::kPhb;
    return p;
  }
  p.relation = (meet == up_a.begin() && up_b.front() == *meet) ? Relation::kPix : Relation::kPxb;
  // The raw meeting point: the last function both chains share.
  std::size_t common = 0;
  while (common < a.chain.size() && common < b.chain.size() && a.chain[common] == b.chain[common]) ++common;
  for (std::size_t i = a.chain.size() - 1; i-- > common;) p.bridges.push_back(a.chain[i]);
  if (common > 0) p.bridges.push_back(a.chain[common - 1]);
  for (std::size_t i = common; i + 1 < b.chain.size(); ++i) p.bridges.push_back(b.chain[i]);
  return p;
}

}  // namespace rocewatch::collectors::gpudirect
