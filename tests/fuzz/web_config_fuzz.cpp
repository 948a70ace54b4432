// --web.config.file's text as an operator or an attacker with write access to it may leave
// it (http/web_config.h): ParseWebConfig on any bytes. Besides "no crash, leak, UB or hang":
// an error names the file; an accepted config holds only bcrypt hashes of at most
// kMaxBcryptCost, known header names without control characters, TLS versions in order and
// file names resolved against the config's directory.

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.h"
#include "http/basic_auth.h"
#include "http/web_config.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rocewatch::http;
  const std::string path = "/etc/roce_exporter/web.yml";
  const std::string_view text = rocewatch::fuzz::Text(data, size);
  const auto parsed = ParseWebConfig(text, path);
  if (!parsed.ok()) {
    FUZZ_CHECK(parsed.error().message.rfind(path, 0) == 0);
    return 0;
  }
  const WebConfig& c = *parsed;
  for (const auto& [user, hash] : c.users) {
    FUZZ_CHECK(IsBcryptHash(hash));
    const auto cost = BcryptCost(hash);
    FUZZ_CHECK(cost && *cost <= kMaxBcryptCost);
  }
  for (const auto& [name, value] : c.headers) {
    FUZZ_CHECK(!name.empty());
    for (char ch : value) FUZZ_CHECK(ch != '\r' && ch != '\n' && ch != '\0');
  }
  if (c.tls) {
    FUZZ_CHECK(static_cast<int>(c.tls->min_version) <= static_cast<int>(c.tls->max_version));
    for (const PemSource* s : {&c.tls->cert, &c.tls->key, &c.tls->client_ca}) {
      FUZZ_CHECK(s->file.empty() || s->file.front() == '/');
    }
  }
  return 0;
}
