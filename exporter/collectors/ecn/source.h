#pragma once

#include <memory>
#include <string_view>

#include "exporter/collectors/clock.h"
#include "exporter/collectors/source.h"

namespace rocewatch::collectors {

// ECN/DCQCN settings: per-priority enable for the notification (np) and
// reaction (rp) points and the DCQCN parameters, from MLNX_OFED's
// /sys/class/net/<if>/ecn/roce_{np,rp}/ and upstream mlx5's debugfs
// mlx5/<bdf>/cc_params/ (root only; skipped quietly when unreadable). A clean read is
// served again until --collector.ecn.interval (option "interval", a Prometheus duration;
// "0s" reads on every collection) has passed on `clock`'s monotonic seconds; a new
// inventory is read at once.
Result<std::unique_ptr<Source>> MakeEcnSource(const SourceEnv& env);
Result<std::unique_ptr<Source>> MakeEcnSource(const SourceEnv& env, SourceClock clock);

// Maps a debugfs cc_params file name ("rp_ai_rate") to its point and the name
// MLNX_OFED's sysfs uses for the same parameter ("rp", "rpg_ai_rate"), so the
// plan names each parameter once. False for names without an rp_/np_ prefix.
bool MapCcParamName(std::string_view file, std::string& point, std::string& name);

}  // namespace rocewatch::collectors
