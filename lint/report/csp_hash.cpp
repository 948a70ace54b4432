#include "lint/report/csp_hash.h"

#include <openssl/evp.h>

namespace rocewatch::lint::report {

std::string CspSha256Source(std::string_view text) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(text.data(), text.size(), digest, &length, EVP_sha256(), nullptr);
  // Base64 of a 32-byte digest: 44 characters and the terminating NUL EVP_EncodeBlock writes.
  unsigned char encoded[4 * ((EVP_MAX_MD_SIZE + 2) / 3) + 1];
  const int n = EVP_EncodeBlock(encoded, digest, static_cast<int>(length));
  return "'sha256-" +
         std::string(reinterpret_cast<const char*>(encoded), static_cast<std::size_t>(n)) + "'";
}

}  // namespace rocewatch::lint::report
