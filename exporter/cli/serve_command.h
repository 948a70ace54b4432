#pragma once

namespace rocewatch::cli {

// `roce_exporter [flags]`: serve /metrics until SIGINT or SIGTERM. Returns the
// process exit code (0 clean stop, 1 runtime failure, 2 bad flags).
int RunServe(int argc, const char* const* argv);

}  // namespace rocewatch::cli
