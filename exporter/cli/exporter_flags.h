#pragma once

// roce_exporter's flags, built from the source registry so that every
// collector has --[no-]collector.<name> and --collector.<name>.<option>.

#include "exporter/endpoints/exporter_server.h"
#include "exporter/pass/runner.h"
#include "rocewatch/flags.h"

namespace rocewatch::cli {

FlagSet MakeExporterFlags();

// Everything the flags decide, validated: bad regexes, paths that are not
// directories, listen addresses and option values become Errors naming the flag.
struct ExporterSettings {
  PassConfig collector;
  endpoints::ServerOptions server;
  std::string log_level;
  double timeout_offset_seconds = 0.5;
  double coalesce_window_seconds = 0.2;
  // With --replay: what is replayed, from its capture.json (for the start-up log).
  std::string replaying;
};
Result<ExporterSettings> SettingsFromFlags(const FlagSet& flags);

}  // namespace rocewatch::cli
