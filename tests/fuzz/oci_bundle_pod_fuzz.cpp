// An OCI bundle's config.json (exporter/oci/bundle_pod.h): whatever the text, a pod it names has
// a namespace and a name the API server would accept (RFC 1123, bounded), so nothing else of
// the file reaches a label.

#include <cstddef>
#include <cstdint>
#include <string>

#include "exporter/oci/bundle_pod.h"
#include "fuzz_check.h"

namespace {

bool Of(const std::string& s, std::string_view alphabet) {
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || alphabet.find(c) != std::string_view::npos)) return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = rocewatch::fuzz::Text(data, size);
  auto pod = rocewatch::oci::DecodeBundlePod(text, "4fe556a4-0bd7-45be-966f-46e2cbf4c4ac");
  if (pod) {
    FUZZ_CHECK(!pod->namespace_name.empty() && pod->namespace_name.size() <= 63 && Of(pod->namespace_name, "-"));
    FUZZ_CHECK(!pod->pod.empty() && pod->pod.size() <= 253 && Of(pod->pod, "-."));
  } else {
    FUZZ_CHECK(!pod.error().message.empty());
  }
  return 0;
}
