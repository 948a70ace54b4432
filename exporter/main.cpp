// roce_exporter: Prometheus exporter for the RoCE/RDMA NICs of a node.
//   roce_exporter [flags]                 serve /metrics
//   roce_exporter capture DIR [flags]     record what this node answers, for --replay
//   roce_exporter decode-eeprom FILE      decode a module EEPROM dump to JSON
//   roce_exporter catalogue               every metric family it declares, as JSON (docs/metrics.json)
//   roce_exporter convert KIND ... FILE DIR  a pasted ethtool -S / -m dump -> capture answers
//   roce_exporter metrics-contract …     build tool: roce-lint's metric header, docs/metrics.md's tables

#include <malloc.h>

#include <cstdlib>
#include <cstring>

#include "capture/convert/convert_command.h"
#include "cli/capture_command.h"
#include "cli/catalogue_command.h"
#include "cli/decode_eeprom_command.h"
#include "cli/metrics_contract.h"
#include "cli/serve_command.h"

int main(int argc, char** argv) {
  // Two malloc arenas, not one per thread: per-thread arenas kept about 8 MiB of
  // freed-but-unreturned memory on a 32-device node, and a single arena made the collector
  // threads (then one per source) queue on its lock (21 % more CPU and 45 % more wall a scrape on 32
  // devices). Two cost 0.5 MiB and keep n32 under its 16 MiB; four save 0.14 ms more for 0.9
  // MiB more (docs/performance.md). MALLOC_ARENA_MAX still overrides.
  if (std::getenv("MALLOC_ARENA_MAX") == nullptr) mallopt(M_ARENA_MAX, 2);
  // A fixed mmap threshold (glibc otherwise raises it to the largest block freed): buffers
  // above 128 KiB, such as a scrape's text and the ethtool answers, are mapped and returned to
  // the kernel when freed instead of staying in the heap. MALLOC_MMAP_THRESHOLD_ overrides.
  if (std::getenv("MALLOC_MMAP_THRESHOLD_") == nullptr) mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  if (argc > 1 && std::strcmp(argv[1], "capture") == 0)
    return rocewatch::cli::RunCapture(argc, argv);
  if (argc > 1 && std::strcmp(argv[1], "convert") == 0)
    return rocewatch::cli::RunConvert(argc, argv);
  if (argc > 1 && std::strcmp(argv[1], "decode-eeprom") == 0)
    return rocewatch::cli::RunDecodeEeprom(argc, argv);
  if (argc > 1 && std::strcmp(argv[1], "catalogue") == 0)
    return rocewatch::cli::RunCatalogue(argc, argv);
  if (argc > 1 && std::strcmp(argv[1], "metrics-contract") == 0)
    return rocewatch::cli::RunMetricsContract(argc, argv);
  return rocewatch::cli::RunServe(argc, argv);
}
