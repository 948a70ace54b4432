#include "exporter/collectors/source.h"

namespace rocewatch::collectors {

const std::string& SourceEnv::Option(const std::string& name) const {
  static const std::string kEmpty;
  auto it = options.find(name);
  return it == options.end() ? kEmpty : it->second;
}

}  // namespace rocewatch::collectors
