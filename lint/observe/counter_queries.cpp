#include "lint/observe/counter_queries.h"

#include <cmath>

namespace rocewatch::lint::observe {
namespace {

std::string Selector(std::string_view family, std::string_view match) {
  return std::string(family) + "{" + std::string(match) + "}";
}

// The last sample within the lookback before the window's end (`offset` empty) or its start.
std::string LastAt(const std::string& selector, const std::string& offset) {
  return "last_over_time(" + selector + RangeText(kCounterLookbackSeconds) + offset + ")";
}

std::string StartOffset(const CounterWindow& window) {
  // `offset 0ms` is refused by no engine, but say nothing where there is nothing to say.
  return window.length > 0 ? " offset " + std::to_string(std::llround(window.length * 1000)) + "ms" : "";
}

}  // namespace

std::string RangeText(double seconds) {
  return "[" + std::to_string(static_cast<long long>(std::llround(seconds * 1000))) + "ms]";
}

std::string EndsQuery(std::string_view family, std::string_view match, const CounterWindow& window) {
  const std::string s = Selector(family, match);
  const std::string end = LastAt(s, "");
  return end + " - (" + LastAt(s, StartOffset(window)) + " or " + end + " * 0)";
}

std::string BothEndsQuery(std::string_view family, std::string_view match, const CounterWindow& window) {
  const std::string s = Selector(family, match);
  return LastAt(s, "") + " - " + LastAt(s, StartOffset(window));
}

std::string ResetsQuery(std::string_view family, std::string_view match, const CounterWindow& window) {
  return "resets(" + Selector(family, match) + RangeText(window.length + kCounterLookbackSeconds) + ") > 0";
}

std::string RawSamplesQuery(std::string_view family, std::string_view match, const CounterWindow& window) {
  return Selector(family, match) + RangeText(window.length + kCounterLookbackSeconds);
}

std::string ObservedAtStartQuery(std::string_view presence_family, std::string_view key_label,
                                 std::string_view match, const CounterWindow& window) {
  return "count by (" + std::string(key_label) + ") (" +
         LastAt(Selector(presence_family, match), StartOffset(window)) + ")";
}

}  // namespace rocewatch::lint::observe
