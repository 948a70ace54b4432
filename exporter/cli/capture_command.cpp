#include "exporter/cli/capture_command.h"

#include <cstdio>
#include <string>

#include "exporter/capture/record/capture.h"
#include "exporter/cli/exporter_flags.h"
#include "exporter/fs/fd_budget.h"

namespace rocewatch::cli {

int RunCapture(int argc, const char* const* argv) {
  FlagSet flags = MakeExporterFlags();
  flags.AddString("description", "", "free text stored in capture.json (what, where, why)", "TEXT");
  Status parsed = flags.Parse(argc, argv, 2);
  if (!parsed.ok()) {
    std::fprintf(stderr, "roce_exporter capture: %s\n", parsed.error().message.c_str());
    return 2;
  }
  if (flags.GetBool("help")) {
    std::printf("usage: roce_exporter capture DIR [flags]\n\n"
                "Reads this node once, as a scrape would, and writes everything read to DIR:\n"
                "the sysfs/configfs/debugfs subset and the raw ethtool, dcbnl, ethtool netlink\n"
                "and verbs answers. `roce_exporter --replay DIR` serves it. With --replay SRC,\n"
                "captures what the exporter reads of SRC (a trimmed copy of a capture).\n\nFlags:\n%s",
                flags.Usage().c_str());
    return 0;
  }
  if (flags.positional().size() != 1) {
    std::fprintf(stderr, "roce_exporter capture: expected one directory, got %zu arguments\n",
                 flags.positional().size());
    return 2;
  }
  auto settings = SettingsFromFlags(flags);
  if (!settings) {
    std::fprintf(stderr, "roce_exporter capture: %s\n", settings.error().message.c_str());
    return 2;
  }
  fs::FdBudget::RaiseLimitAndSize();
  const std::string& dir = flags.positional().front();
  auto result = capture::Capture(settings->collector, dir, flags.Get("description"));
  if (!result) {
    std::fprintf(stderr, "roce_exporter capture: %s\n", result.error().message.c_str());
    return 1;
  }
  std::printf("captured %zu files, %zu links, %zu failed reads into %s\n", result->files,
              result->links, result->failed_reads, dir.c_str());
  if (result->vanished_processes > 0)
    std::printf("%zu QP owners exited during the capture: replayed without their comm and cgroup\n",
                result->vanished_processes);
  if (result->refused > 0)
    std::printf("refused %zu paths that lead out of their tree (symlinks leaving it, files that are "
                "not plain files): not copied, each one logged\n",
                result->refused);
  if (!result->timed_out.empty()) {
    std::string names;
    for (const auto& n : result->timed_out) names += (names.empty() ? "" : ", ") + n;
    std::fprintf(stderr,
                 "roce_exporter capture: incomplete: %s had not finished within --collector.timeout "
                 "(%s), so %s lacks what it had not read by then; capture again with a longer "
                 "--collector.timeout\n",
                 names.c_str(), flags.Get("collector.timeout").c_str(), dir.c_str());
    return 1;
  }
  return 0;
}

}  // namespace rocewatch::cli
