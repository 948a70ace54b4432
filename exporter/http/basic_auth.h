#pragma once

// HTTP basic authentication against the bcrypt hashes of --web.config.file's
// basic_auth_users, for both transports (civetweb and the TLS listener).
//
// - bcrypt is checked with libxcrypt's crypt_r ($2a$, $2b$, $2y$), one check at a time
//   (a cost-10 check takes tens of milliseconds: running them in parallel would only let a
//   flood of bad passwords take every core);
// - an unknown user costs the same bcrypt check as a known one (against a configured hash,
//   then refused), so response times do not tell which users exist;
// - a successful (user, hash, password) check is remembered for a few minutes, so a scrape
//   every few seconds pays bcrypt once, not every time (exporter-toolkit caches the same
//   way). The cache keeps a SHA-256 of the three, never the password; a changed hash (a
//   new password in the file) misses the cache.

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

struct crypt_data;

namespace rocewatch::http {

// The realm sent in WWW-Authenticate.
inline constexpr std::string_view kAuthRealm = "roce_exporter";

struct BasicCredentials {
  std::string user;
  std::string password;
};

// Parses an Authorization header value "Basic base64(user:password)". Empty when the scheme
// is not Basic, the base64 is malformed, there is no ':' or a NUL byte is inside.
std::optional<BasicCredentials> ParseBasicAuthorization(std::string_view header_value);

class BasicAuthenticator {
 public:
  explicit BasicAuthenticator(std::chrono::seconds cache_ttl = std::chrono::minutes(5),
                              std::size_t cache_entries = 64);
  ~BasicAuthenticator();
  BasicAuthenticator(const BasicAuthenticator&) = delete;
  BasicAuthenticator& operator=(const BasicAuthenticator&) = delete;

  // Whether a request with this Authorization header (nullptr or "" when absent) may pass.
  // With no users configured every request passes.
  bool Allows(const std::map<std::string, std::string>& users, const char* authorization);

  // Whether `password` is the password of `user` in `users` (user -> bcrypt hash).
  bool Check(const std::map<std::string, std::string>& users, const std::string& user,
             const std::string& password);

  // bcrypt computations so far (a cache hit costs none); for tests.
  std::uint64_t bcrypt_checks() const;

 private:
  bool Cached(const std::string& key);
  void Remember(const std::string& key);

  std::chrono::seconds ttl_;
  std::size_t max_entries_;
  mutable std::mutex cache_mu_;
  std::unordered_map<std::string, std::chrono::steady_clock::time_point> cache_;  // key -> expiry
  mutable std::mutex bcrypt_mu_;
  std::unique_ptr<crypt_data> crypt_;  // crypt_r's 32 KiB of state, under bcrypt_mu_
  std::uint64_t checks_ = 0;           // under bcrypt_mu_
};

}  // namespace rocewatch::http
