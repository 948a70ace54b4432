#pragma once

// How `apply` and `verify` reach the nodes: --transport, --ssh-command, --host and
// --remote-shell, declared and read once into fix::BatchOptions (lint/fix/batch.h).

#include <optional>
#include <string>
#include <vector>

#include "lint/cli/args.h"
#include "lint/fix/batch.h"

namespace rocewatch::lint::cli {

const std::vector<FlagSpec>& TransportFlagSpecs();
// Sets `options` from the transport flags; the message naming the bad flag otherwise.
std::optional<std::string> ReadTransportFlags(const ParsedArgs& args, fix::BatchOptions& options);

}  // namespace rocewatch::lint::cli
