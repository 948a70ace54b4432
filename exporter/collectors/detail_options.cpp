#include "exporter/collectors/detail_options.h"

#include "rocewatch/strings.h"

namespace rocewatch::collectors {
namespace {

std::string Flag(std::string_view source, const std::string& option) {
  return "--collector." + std::string(source) + "." + option;
}

}  // namespace

Result<bool> BoolOption(const SourceEnv& env, std::string_view source, const std::string& option,
                        bool fallback) {
  const std::string& text = env.Option(option);
  if (text.empty()) return fallback;
  if (text == "true") return true;
  if (text == "false") return false;
  return Error{Flag(source, option) + ": expected true or false, got " + Quote(text)};
}

Result<std::vector<std::uint32_t>> DscpListOption(const SourceEnv& env, std::string_view source,
                                                  const std::string& option) {
  std::vector<std::uint32_t> out;
  const std::string& text = env.Option(option);
  if (text.empty()) return out;
  for (std::string_view field : Split(text, ',')) {
    auto dscp = ParseU64(field);
    if (!dscp || *dscp > 63)
      return Error{Flag(source, option) + ": expected DSCPs 0..63 separated by commas, got " +
                   Quote(field) + " in " + Quote(text)};
    out.push_back(static_cast<std::uint32_t>(*dscp));
  }
  return out;
}

}  // namespace rocewatch::collectors
