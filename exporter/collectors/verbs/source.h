#pragma once

#include <memory>

#include "exporter/collectors/source.h"

namespace rocewatch::collectors {

// libibverbs ibv_query_port: active MTU and speed.
Result<std::unique_ptr<Source>> MakeVerbsSource(const SourceEnv& env);

}  // namespace rocewatch::collectors
