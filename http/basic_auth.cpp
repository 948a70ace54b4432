#include "http/basic_auth.h"

#include <crypt.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <algorithm>
#include <cstring>

namespace rocewatch::http {
namespace {

int Base64Value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

// Standard base64 (RFC 4648 section 4); '=' padding optional, nothing after it.
std::optional<std::string> DecodeBase64(std::string_view in) {
  while (!in.empty() && in.back() == '=') in.remove_suffix(1);
  if (in.size() % 4 == 1) return std::nullopt;
  std::string out;
  out.reserve(in.size() * 3 / 4);
  std::uint32_t acc = 0;
  int bits = 0;
  for (char c : in) {
    const int v = Base64Value(c);
    if (v < 0) return std::nullopt;
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xff));
    }
  }
  return out;
}

std::string CacheKey(const std::string& user, const std::string& hash,
                     const std::string& password) {
  std::string material = user;
  material.push_back('\0');
  material += hash;
  material.push_back('\0');
  material += password;
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(material.data(), material.size(), digest, &len, EVP_sha256(), nullptr);
  OPENSSL_cleanse(material.data(), material.size());
  return std::string(reinterpret_cast<const char*>(digest), len);
}

// The hash of `user` in `users`, comparing every name in constant time; null when unknown.
const std::string* FindUser(const std::map<std::string, std::string>& users,
                            const std::string& user) {
  const std::string* found = nullptr;
  for (const auto& [name, hash] : users) {
    const std::size_t n = std::min(name.size(), user.size());
    const int differ =
        CRYPTO_memcmp(name.data(), user.data(), n) | static_cast<int>(name.size() != user.size());
    if (differ == 0) found = &hash;
  }
  return found;
}

}  // namespace

std::optional<int> BcryptCost(std::string_view hash) {
  if (hash.size() < 7 || hash[0] != '$' || hash[1] != '2' || hash[3] != '$' || hash[6] != '$')
    return std::nullopt;
  if (hash[4] < '0' || hash[4] > '9' || hash[5] < '0' || hash[5] > '9') return std::nullopt;
  return (hash[4] - '0') * 10 + (hash[5] - '0');
}

std::optional<BasicCredentials> ParseBasicAuthorization(std::string_view value) {
  constexpr std::string_view kScheme = "basic";
  if (value.size() <= kScheme.size()) return std::nullopt;
  for (std::size_t i = 0; i < kScheme.size(); ++i) {
    char c = value[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != kScheme[i]) return std::nullopt;
  }
  value.remove_prefix(kScheme.size());
  if (value.front() != ' ') return std::nullopt;
  while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
  auto decoded = DecodeBase64(value);
  if (!decoded) return std::nullopt;
  const auto colon = decoded->find(':');
  if (colon == std::string::npos || decoded->find('\0') != std::string::npos) return std::nullopt;
  BasicCredentials out{decoded->substr(0, colon), decoded->substr(colon + 1)};
  OPENSSL_cleanse(decoded->data(), decoded->size());
  return out;
}

BasicAuthenticator::BasicAuthenticator(std::chrono::seconds cache_ttl, std::size_t cache_entries)
    : ttl_(cache_ttl), max_entries_(cache_entries) {}

BasicAuthenticator::~BasicAuthenticator() = default;

bool BasicAuthenticator::Allows(const std::map<std::string, std::string>& users,
                                const char* authorization) {
  if (users.empty()) return true;
  if (authorization == nullptr || *authorization == '\0') return false;
  auto credentials = ParseBasicAuthorization(authorization);
  if (!credentials) return false;
  const bool ok = CachedAllows(users, *credentials) || Verify(users, *credentials);
  OPENSSL_cleanse(credentials->password.data(), credentials->password.size());
  return ok;
}

bool BasicAuthenticator::Check(const std::map<std::string, std::string>& users,
                               const std::string& user, const std::string& password) {
  if (users.empty()) return true;
  const BasicCredentials c{user, password};
  return CachedAllows(users, c) || Verify(users, c);
}

bool BasicAuthenticator::CachedAllows(const std::map<std::string, std::string>& users,
                                      const BasicCredentials& c) {
  if (users.empty()) return true;
  const std::string* hash = FindUser(users, c.user);
  return hash != nullptr && Cached(CacheKey(c.user, *hash, c.password));
}

bool BasicAuthenticator::Verify(const std::map<std::string, std::string>& users,
                                const BasicCredentials& c) {
  if (users.empty()) return true;
  if (c.password.find('\0') != std::string::npos || c.user.find('\0') != std::string::npos)
    return false;
  const std::string* found = FindUser(users, c.user);
  // An unknown user is checked against a configured hash (the same cost as a known user's
  // wrong password) and then refused whatever the result.
  const std::string& hash = found != nullptr ? *found : users.begin()->second;
  const auto cost = BcryptCost(hash);
  if (!cost || *cost > kMaxBcryptCost) return false;  // refused at load already

  checks_ += 1;
  auto state = std::make_unique<crypt_data>();  // crypt_r's 32 KiB of state, per check
  std::memset(state.get(), 0, sizeof(crypt_data));
  const char* out = ::crypt_r(c.password.c_str(), hash.c_str(), state.get());
  const bool match = out != nullptr && out[0] != '*' && std::strlen(out) == hash.size() &&
                     CRYPTO_memcmp(out, hash.data(), hash.size()) == 0;
  OPENSSL_cleanse(state.get(), sizeof(crypt_data));
  if (found == nullptr || !match) return false;
  Remember(CacheKey(c.user, hash, c.password));
  return true;
}

std::uint64_t BasicAuthenticator::bcrypt_checks() const { return checks_.load(); }

bool BasicAuthenticator::Cached(const std::string& key) {
  std::lock_guard<std::mutex> lock(cache_mu_);
  auto it = cache_.find(key);
  if (it == cache_.end()) return false;
  const auto now = std::chrono::steady_clock::now();
  // An expired entry stays (until room is needed) as a credential that succeeded before.
  if (now >= it->second) return false;
  it->second = now + ttl_;  // renewed on use: a scrape every few seconds never pays again
  return true;
}

bool BasicAuthenticator::SucceededBefore(const std::map<std::string, std::string>& users,
                                         const BasicCredentials& c) {
  const std::string* hash = FindUser(users, c.user);
  if (hash == nullptr) return false;
  const std::string key = CacheKey(c.user, *hash, c.password);
  std::lock_guard<std::mutex> lock(cache_mu_);
  return cache_.count(key) != 0;
}

void BasicAuthenticator::Remember(const std::string& key) {
  if (ttl_.count() <= 0 || max_entries_ == 0) return;
  const auto now = std::chrono::steady_clock::now();
  std::lock_guard<std::mutex> lock(cache_mu_);
  if (cache_.size() >= max_entries_) {
    std::erase_if(cache_, [&](const auto& e) { return e.second <= now; });
  }
  while (cache_.size() >= max_entries_) {
    auto oldest = cache_.begin();
    for (auto it = cache_.begin(); it != cache_.end(); ++it) {
      if (it->second < oldest->second) oldest = it;
    }
    cache_.erase(oldest);
  }
  cache_[key] = now + ttl_;
}

}  // namespace rocewatch::http
