#pragma once

// The relation between two PCI functions in NCCL's and nvidia-smi's words (no I/O), from the
// canonical sysfs directories of the two (devices/pci0000:17/0000:17:01.0/…/0000:1a:00.0):
//
//   PIX   both hang below one PCIe switch (one bridge in NCCL's sense)
//   PXB   they meet in a switch, but at least one of them is below a further switch
//   PHB   they meet only at the PCIe host bridge (the same pciDDDD:BB)
//   NODE  different host bridges of one NUMA node
//   SYS   different NUMA nodes: the traffic crosses the SMP interconnect (UPI, xGMI)
//
// NCCL's topology (src/graph/xml.cc, ncclTopoGetXmlFromSys) climbs a device's sysfs path two
// levels at a time, so a switch is one node (its upstream port; its downstream ports are
// skipped) and a root port is never one; "a single PCIe bridge" is one such node. The same
// rule is applied here to the sysfs path, so the names agree with NCCL's and nvidia-smi's.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rocewatch::collectors::gpudirect {

struct PciChain {
  std::string host;                  // the host bridge's directory (devices/pci0000:17)
  std::vector<std::string> chain;    // root port first, the function itself last
  std::vector<std::string> dirs;     // each function's canonical directory, as `chain`
};

// The chain of a canonical sysfs directory; empty `chain` when it holds no PCI address. A
// host bridge inside the chain (a VMD domain's pci10000:e0) is crossed, not a new start.
PciChain ParsePciChain(std::string_view canonical_dir);

enum class Relation { kPix = 1, kPxb = 2, kPhb = 3, kNode = 4, kSys = 5 };
std::string_view RelationName(Relation r);
// "PIX" → kPix …; nullopt for anything else.
std::optional<Relation> ParseRelation(std::string_view name);

struct PathBetween {
  Relation relation = Relation::kSys;
  // The bridges a peer-to-peer transfer crosses when the two meet below the host bridge (PIX,
  // PXB): from the first's side up to where they meet and down the second's; empty otherwise.
  std::vector<std::string> bridges;
};

// numa: the functions' numa_node (-1 or absent: unknown; two unknowns count as one node).
PathBetween Between(const PciChain& a, std::optional<std::int64_t> numa_a, const PciChain& b,
                    std::optional<std::int64_t> numa_b);

}  // namespace rocewatch::collectors::gpudirect
