// CspSha256Source against SHA-256 digests published for the test vectors of FIPS 180-2 ("abc")
// and the empty message, in base64 as CSP writes them.

#include "lint/report/csp_hash.h"

#include <gtest/gtest.h>

namespace rocewatch::lint::report {
namespace {

TEST(CspHash, Sha256SourceOfKnownVectors) {
  EXPECT_EQ(CspSha256Source(""), "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='");
  EXPECT_EQ(CspSha256Source("abc"), "'sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0='");
  EXPECT_NE(CspSha256Source("abc\n"), CspSha256Source("abc"));
}

}  // namespace
}  // namespace rocewatch::lint::report
