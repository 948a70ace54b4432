#pragma once

namespace rocewatch::cli {

// `roce_exporter capture DIR [flags]`: write what the exporter reads on this
// node to DIR for `--replay DIR` (docs/capture.md). Exit 0, 1 on failure, 2 bad usage.
int RunCapture(int argc, const char* const* argv);

}  // namespace rocewatch::cli
