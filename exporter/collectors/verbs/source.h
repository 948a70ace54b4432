#pragma once

#include <memory>

#include "sources/source.h"

namespace rocewatch::sources {

// libibverbs ibv_query_port: active MTU and speed.
Result<std::unique_ptr<Source>> MakeVerbsSource(const SourceEnv& env);

}  // namespace rocewatch::sources
