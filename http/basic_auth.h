#pragma once

// HTTP basic authentication against the bcrypt hashes of --web.config.file's
// basic_auth_users, for both transports (one http::Server serves HTTP and HTTPS).
//
// - bcrypt is checked with libxcrypt's crypt_r ($2a$, $2b$, $2y$); the server runs Verify
//   on a small bounded pool of its own, off its event loop, so a flood of wrong passwords
//   takes that pool and nothing else (a cached scrape never waits for it);
// - a hash costs at most kMaxBcryptCost (checked at config load, and again here);
// - the user is looked up in constant time (every configured name is compared, with
//   CRYPTO_memcmp, whatever matches);
// - an unknown user costs the same bcrypt check as a known one (against a configured hash,
//   then refused), so response times do not tell which users exist;
// - a successful (user, hash, password) check is remembered for a few minutes, so a scrape
//   every few seconds pays bcrypt once, not every time (exporter-toolkit caches the same
//   way), and a hit renews it. The cache keeps a SHA-256 of the three, never the password; a
//   changed hash (a new password in the file) misses the cache.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace rocewatch::http {

// The realm the exporter sends in WWW-Authenticate.
inline constexpr std::string_view kAuthRealm = "roce_exporter";

// The highest bcrypt cost accepted (2^14 rounds: about 1 s per check on one core). Go's
// bcrypt, and so exporter-toolkit, accepts up to 31 (bcrypt.MaxCost), where one check
// takes days; see docs/security.md.
inline constexpr int kMaxBcryptCost = 14;

// The cost of a bcrypt hash ("$2y$10$…" -> 10); empty when it is not one.
std::optional<int> BcryptCost(std::string_view hash);

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

  // Whether `password` is the password of `user` in `users` (user -> bcrypt hash):
  // CachedAllows, else Verify.
  bool Check(const std::map<std::string, std::string>& users, const std::string& user,
             const std::string& password);
  // Whether a successful check of these credentials is remembered (cheap: one SHA-256).
  bool CachedAllows(const std::map<std::string, std::string>& users, const BasicCredentials& c);
  // Whether these credentials succeeded before, even if that success has expired since
  // (kept while the cache has room): the server keeps room in its auth pool for them.
  bool SucceededBefore(const std::map<std::string, std::string>& users, const BasicCredentials& c);
  // The bcrypt check (tens of milliseconds at cost 10), remembered when it succeeds.
  // Thread-safe; checks run in parallel on as many threads as call it.
  bool Verify(const std::map<std::string, std::string>& users, const BasicCredentials& c);

  // bcrypt computations so far (a cache hit costs none); for tests.
  std::uint64_t bcrypt_checks() const;

 private:
  bool Cached(const std::string& key);
  void Remember(const std::string& key);

  std::chrono::seconds ttl_;
  std::size_t max_entries_;
  mutable std::mutex cache_mu_;
  std::unordered_map<std::string, std::chrono::steady_clock::time_point> cache_;  // key -> expiry
  std::atomic<std::uint64_t> checks_{0};
};

}  // namespace rocewatch::http
