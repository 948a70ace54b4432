// The command-line flag parser (include/rocewatch/flags.h) on any argv: the arguments are the
// input split at NUL bytes, parsed against a flag set like the exporter's.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_check.h"
#include "rocewatch/duration.h"
#include "rocewatch/flags.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rocewatch;
  std::vector<std::string> args{"roce_exporter"};
  std::string_view rest = fuzz::Text(data, size);
  while (!rest.empty() && args.size() < 64) {
    auto nul = rest.find('\0');
    args.emplace_back(rest.substr(0, nul));
    if (nul == std::string_view::npos) break;
    rest.remove_prefix(nul + 1);
  }
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());

  FlagSet flags("roce_exporter");
  flags.AddString("web.listen-address", ":9879", "Address to listen on.", "ADDRESS");
  flags.AddString("web.timeout", "10s", "Scrape timeout.", "DURATION");
  flags.AddString("path.sysfs", "/sys", "sysfs mount point.", "PATH");
  flags.AddBool("collector.optics", true, "Enable the optics collector.");
  flags.AddBool("log.json", false, "Log as JSON.");
  const Status status = flags.Parse(static_cast<int>(argv.size()), argv.data());
  if (status.ok()) {
    FUZZ_CHECK(flags.positional().size() < args.size());
    (void)flags.Get("web.listen-address");
    (void)flags.GetBool("collector.optics");
    (void)flags.WasSet("log.json");
    (void)ParseDuration(flags.Get("web.timeout"));
  }
  (void)flags.Usage();
  return 0;
}
