#include "http/web_config.h"

// yaml-cpp 0.7's node/impl.h trips GCC 12's -Wdangling-pointer (a false positive on its
// temporaries, reported at lines of that header).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wdangling-pointer"
#include <yaml-cpp/yaml.h>
#pragma GCC diagnostic pop

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <functional>
#include <set>

#include "http/basic_auth.h"
#include "rocewatch/strings.h"

namespace rocewatch::http {
namespace {

// exporter-toolkit's extraHTTPHeaders: the headers a web config may add, with the values
// allowed where the header is an enumeration.
struct AllowedHeader {
  const char* name;
  std::vector<std::string> values;  // empty: any value
};
const std::vector<AllowedHeader>& AllowedHeaders() {
  static const std::vector<AllowedHeader> kHeaders = {
      {"Strict-Transport-Security", {}},
      {"X-Content-Type-Options", {"nosniff"}},
      {"X-Frame-Options", {"deny", "sameorigin"}},
      {"X-XSS-Protection", {}},
      {"Content-Security-Policy", {}},
  };
  return kHeaders;
}

const std::vector<std::pair<std::string, ClientAuth>>& ClientAuthNames() {
  static const std::vector<std::pair<std::string, ClientAuth>> kNames = {
      {"NoClientCert", ClientAuth::kNoClientCert},
      {"RequestClientCert", ClientAuth::kRequestClientCert},
      {"RequireAnyClientCert", ClientAuth::kRequireAnyClientCert},
      {"RequireClientCert", ClientAuth::kRequireAnyClientCert},  // exporter-toolkit's old name
      {"VerifyClientCertIfGiven", ClientAuth::kVerifyClientCertIfGiven},
      {"RequireAndVerifyClientCert", ClientAuth::kRequireAndVerifyClientCert},
  };
  return kNames;
}

// exporter-toolkit's curve names (Go's tls.CurveID) and OpenSSL's names for the same groups.
const std::vector<std::pair<std::string, std::string>>& CurveNames() {
  static const std::vector<std::pair<std::string, std::string>> kNames = {
      {"CurveP256", "P-256"}, {"CurveP384", "P-384"}, {"CurveP521", "P-521"}, {"X25519", "X25519"}};
  return kNames;
}

std::vector<std::string> Keys(const auto& table) {
  std::vector<std::string> out;
  for (const auto& e : table) out.push_back(e.first);
  return out;
}

// Walks one YAML document, turning every problem into "PATH:LINE: message".
class Parser {
 public:
  explicit Parser(const std::string& path) : path_(path) {}

  Error At(const YAML::Node& node, const std::string& message) const {
    std::string where = path_.empty() ? std::string("web config") : path_;
    if (node.IsDefined() && node.Mark().line >= 0)
      where += ":" + std::to_string(node.Mark().line + 1);
    return Error{where + ": " + message};
  }
  Error At(const YAML::Mark& mark, const std::string& message) const {
    std::string where = path_.empty() ? std::string("web config") : path_;
    if (mark.line >= 0) where += ":" + std::to_string(mark.line + 1);
    return Error{where + ": " + message};
  }

  // Calls `fn` for each key of the mapping `map`; unknown and repeated keys are errors.
  Status ForEachKey(
      const YAML::Node& map, const std::string& section, const std::vector<std::string>& known,
      const std::function<Status(const std::string&, const YAML::Node&, const YAML::Node&)>& fn)
      const {
    if (map.IsNull()) return {};
    if (!map.IsMap()) return At(map, section + ": expected a mapping of keys to values");
    std::set<std::string> seen;
    for (auto it = map.begin(); it != map.end(); ++it) {
      // A copy (a Node is a handle): `it->` yields a temporary, and a reference to its `first`
      // dangles at the end of this statement (ASan: stack-use-after-scope).
      const YAML::Node key = it->first;
      if (!key.IsScalar()) return At(key, section + ": keys must be plain strings");
      const std::string name = key.Scalar();
      if (!seen.insert(name).second)
        return At(key, section + ": key " + Quote(name) + " appears twice");
      if (!known.empty()) {
        bool ok = false;
        for (const auto& k : known) ok = ok || k == name;
        if (!ok) {
          std::string msg = "unknown key " + Quote(name) + " in " + section;
          if (auto hint = DidYouMean(name, known)) msg += " (did you mean " + Quote(*hint) + "?)";
          return At(key, msg);
        }
      }
      Status s = fn(name, key, it->second);
      if (!s.ok()) return s;
    }
    return {};
  }

  // A string value; a key without a value (null) reads as "".
  Result<std::string> String(const YAML::Node& value, const std::string& what) const {
    if (value.IsNull()) return std::string();
    if (!value.IsScalar()) return At(value, what + ": expected a string");
    return value.Scalar();
  }

  Result<bool> Bool(const YAML::Node& value, const std::string& what) const {
    if (value.IsScalar() && (value.Scalar() == "true" || value.Scalar() == "false"))
      return value.Scalar() == "true";
    return At(value, what + ": expected true or false");
  }

  Result<std::vector<std::string>> StringList(const YAML::Node& value,
                                              const std::string& what) const {
    std::vector<std::string> out;
    if (value.IsNull()) return out;
    if (!value.IsSequence()) return At(value, what + ": expected a list of strings");
    for (const auto& item : value) {
      if (!item.IsScalar()) return At(item, what + ": expected a list of strings");
      out.push_back(item.Scalar());
    }
    return out;
  }

  // A name from `table`; anything else is an error listing the valid names.
  template <class T>
  Result<T> Enum(const YAML::Node& value, const std::string& what,
                 const std::vector<std::pair<std::string, T>>& table) const {
    auto text = String(value, what);
    if (!text) return text.error();
    for (const auto& [name, v] : table) {
      if (name == *text) return v;
    }
    std::string msg = what + ": unknown value " + Quote(*text) + ", expected one of ";
    for (std::size_t i = 0; i < table.size(); ++i) msg += (i ? ", " : "") + table[i].first;
    if (auto hint = DidYouMean(*text, Keys(table))) msg += " (did you mean " + Quote(*hint) + "?)";
    return At(value, msg);
  }

  std::string Resolve(const std::string& file) const {
    if (file.empty() || file.front() == '/' || path_.empty()) return file;
    auto slash = path_.rfind('/');
    if (slash == std::string::npos) return file;
    return path_.substr(0, slash + 1) + file;
  }

  Status ParseTls(const YAML::Node& node, TlsServerConfig& tls,
                  const YAML::Node& section_key) const {
    static const std::vector<std::string> kKeys = {"cert",
                                                   "key",
                                                   "client_ca",
                                                   "cert_file",
                                                   "key_file",
                                                   "client_auth_type",
                                                   "client_ca_file",
                                                   "client_allowed_sans",
                                                   "min_version",
                                                   "max_version",
                                                   "cipher_suites",
                                                   "prefer_server_cipher_suites",
                                                   "curve_preferences"};
    static const std::vector<std::pair<std::string, TlsVersion>> kVersions = {
        {"TLS12", TlsVersion::kTls12}, {"TLS13", TlsVersion::kTls13}};
    bool sans_given = false;
    const std::string section = "tls_server_config";
    Status s = ForEachKey(
        node, section, kKeys,
        [&](const std::string& name, const YAML::Node& key, const YAML::Node& value) -> Status {
          const std::string what = section + "." + name;
          if (name == "min_version" || name == "max_version") {
            auto text = String(value, what);
            if (!text) return text.error();
            if (*text == "TLS10" || *text == "TLS11")
              return At(value,
                        what + ": " + *text +
                            " is not offered by roce_exporter (TLS 1.0 and 1.1 are obsolete, RFC "
                            "8996); use TLS12 or TLS13");
            auto v = Enum(value, what, kVersions);
            if (!v) return v.error();
            (name == "min_version" ? tls.min_version : tls.max_version) = *v;
            return {};
          }
          if (name == "client_auth_type") {
            auto v = Enum(value, what, ClientAuthNames());
            if (!v) return v.error();
            tls.client_auth = *v;
            return {};
          }
          if (name == "prefer_server_cipher_suites") {
            auto v = Bool(value, what);
            if (!v) return v.error();
            tls.prefer_server_cipher_suites = *v;
            return {};
          }
          if (name == "client_allowed_sans" || name == "cipher_suites" ||
              name == "curve_preferences") {
            auto list = StringList(value, what);
            if (!list) return list.error();
            if (name == "client_allowed_sans") {
              tls.client_allowed_sans = *list;
              sans_given = true;
            } else if (name == "cipher_suites") {
              tls.cipher_suites = *list;
            } else {
              for (const auto& c : *list) {
                std::string group;
                for (const auto& [go, ossl] : CurveNames()) {
                  if (go == c) group = ossl;
                }
                if (group.empty()) {
                  std::string msg = what + ": unknown curve " + Quote(c) +
                                    ", expected CurveP256, CurveP384, CurveP521 or X25519";
                  if (auto hint = DidYouMean(c, Keys(CurveNames())))
                    msg += " (did you mean " + Quote(*hint) + "?)";
                  return At(value, msg);
                }
                tls.curve_preferences.push_back(group);
              }
            }
            return {};
          }
          auto text = String(value, what);
          if (!text) return text.error();
          (void)key;
          if (name == "cert") tls.cert = {"", *text, name};
          if (name == "key") tls.key = {"", *text, name};
          if (name == "client_ca") tls.client_ca = {"", *text, name};
          if (name == "cert_file" || name == "key_file" || name == "client_ca_file") {
            PemSource& target = name == "cert_file"  ? tls.cert
                                : name == "key_file" ? tls.key
                                                     : tls.client_ca;
            if (!text->empty()) target = {Resolve(*text), "", name};
          }
          return {};
        });
    if (!s.ok()) return s;
    // cert and cert_file both given: the loop above keeps the later one; say so instead.
    auto both = [&](const char* a, const char* b) {
      return node[a].IsDefined() && !node[a].IsNull() && node[b].IsDefined() && !node[b].IsNull();
    };
    for (auto [a, b] :
         {std::pair{"cert", "cert_file"}, {"key", "key_file"}, {"client_ca", "client_ca_file"}}) {
      if (both(a, b))
        return At(node, section + ": both " + a + " and " + b + " are given; use one of them");
    }
    if (tls.cert.empty())
      return At(section_key, section + ": no certificate: cert_file (or cert) is required for TLS");
    if (tls.key.empty())
      return At(section_key, section + ": no private key: key_file (or key) is required for TLS");
    if (tls.min_version > tls.max_version)
      return At(node, section + ": min_version " + std::string(TlsVersionName(tls.min_version)) +
                          " is above max_version " + std::string(TlsVersionName(tls.max_version)));
    const bool verifies = tls.client_auth == ClientAuth::kVerifyClientCertIfGiven ||
                          tls.client_auth == ClientAuth::kRequireAndVerifyClientCert;
    if (verifies && tls.client_ca.empty())
      return At(node, section + ": client_auth_type " +
                          std::string(ClientAuthName(tls.client_auth)) +
                          " verifies client certificates and needs client_ca_file (or client_ca)");
    if (!tls.client_ca.empty() && tls.client_auth == ClientAuth::kNoClientCert)
      return At(node,
                section + ": " + tls.client_ca.key +
                    " is given but client_auth_type is NoClientCert, so no client certificate "
                    "would be asked for; set client_auth_type: RequireAndVerifyClientCert");
    if (sans_given && tls.client_auth != ClientAuth::kRequireAnyClientCert &&
        tls.client_auth != ClientAuth::kRequireAndVerifyClientCert)
      return At(node, section +
                          ": client_allowed_sans needs client_auth_type "
                          "RequireAnyClientCert or RequireAndVerifyClientCert");
    return {};
  }

  Status ParseHttp(const YAML::Node& node, WebConfig& out) const {
    const std::string section = "http_server_config";
    return ForEachKey(
        node, section, {"http2", "headers"},
        [&](const std::string& name, const YAML::Node&, const YAML::Node& value) -> Status {
          if (name == "http2") {
            // roce_exporter speaks HTTP/1.1 only; both values are accepted so that a file shared
            // with exporter-toolkit exporters loads.
            auto v = Bool(value, section + ".http2");
            return v ? Status{} : Status{v.error()};
          }
          std::vector<std::string> names;
          for (const auto& h : AllowedHeaders()) names.push_back(h.name);
          return ForEachKey(
              value, section + ".headers", {},
              [&](const std::string& header, const YAML::Node& key, const YAML::Node& v) -> Status {
                const AllowedHeader* allowed = nullptr;
                for (const auto& h : AllowedHeaders()) {
                  if (header == h.name) allowed = &h;
                }
                if (allowed == nullptr) {
                  std::string msg = section + ".headers: header " + Quote(header) +
                                    " can not be configured (allowed: Strict-Transport-Security, "
                                    "X-Content-Type-Options, X-Frame-Options, X-XSS-Protection, "
                                    "Content-Security-Policy)";
                  if (auto hint = DidYouMean(header, names))
                    msg += " (did you mean " + Quote(*hint) + "?)";
                  return At(key, msg);
                }
                auto text = String(v, section + ".headers." + header);
                if (!text) return text.error();
                for (char c : *text) {
                  if (c == '\r' || c == '\n' || c == '\0')
                    return At(v, section + ".headers." + header +
                                     ": line breaks are not allowed in a header value");
                }
                if (text->empty()) return {};  // "Unset if blank"
                if (!allowed->values.empty()) {
                  bool ok = false;
                  for (const auto& a : allowed->values) ok = ok || a == *text;
                  if (!ok) {
                    std::string msg = section + ".headers." + header + ": invalid value " +
                                      Quote(*text) + ", expected ";
                    for (std::size_t i = 0; i < allowed->values.size(); ++i)
                      msg += (i ? " or " : "") + allowed->values[i];
                    return At(v, msg);
                  }
                }
                out.headers.emplace_back(header, *text);
                return {};
              });
        });
  }

  Status ParseUsers(const YAML::Node& node, WebConfig& out) const {
    const std::string section = "basic_auth_users";
    return ForEachKey(
        node, section, {},
        [&](const std::string& user, const YAML::Node& key, const YAML::Node& value) -> Status {
          if (user.empty()) return At(key, section + ": a user name must not be empty");
          if (user.find(':') != std::string::npos)
            return At(
                key, section + ": user " + Quote(user) +
                         ": a user name must not contain ':' (basic auth splits at the first one)");
          auto hash = String(value, section + "." + user);
          if (!hash) return hash.error();
          if (!IsBcryptHash(*hash))
            return At(value,
                      section + ": user " + Quote(user) +
                          ": the password must be a bcrypt hash ($2y$, $2b$ or $2a$, a cost "
                          "04-31, then 53 characters), as `htpasswd -nBC 10 \"\" | tr -d ':\\n'` "
                          "prints it");
          if (const auto cost = BcryptCost(*hash); cost && *cost > kMaxBcryptCost)
            return At(value, section + ": user " + Quote(user) + ": bcrypt cost " +
                                 std::to_string(*cost) + " is above the maximum " +
                                 std::to_string(kMaxBcryptCost) +
                                 " (each check of a wrong password would take about " +
                                 std::to_string(1u << (*cost - kMaxBcryptCost)) +
                                 " s or more); hash it again with a lower cost, as `htpasswd "
                                 "-nBC 10 \"\" | tr -d ':\\n'` does");
          out.users[user] = *hash;
          return {};
        });
  }

 private:
  std::string path_;
};

}  // namespace

std::string_view ClientAuthName(ClientAuth a) {
  switch (a) {
    case ClientAuth::kNoClientCert:
      return "NoClientCert";
    case ClientAuth::kRequestClientCert:
      return "RequestClientCert";
    case ClientAuth::kRequireAnyClientCert:
      return "RequireAnyClientCert";
    case ClientAuth::kVerifyClientCertIfGiven:
      return "VerifyClientCertIfGiven";
    case ClientAuth::kRequireAndVerifyClientCert:
      return "RequireAndVerifyClientCert";
  }
  return "?";
}

std::string_view TlsVersionName(TlsVersion v) {
  return v == TlsVersion::kTls12 ? "TLS12" : "TLS13";
}

bool IsBcryptHash(std::string_view hash) {
  // "$2y$10$" + 22 characters of salt + 31 of hash.
  if (hash.size() != 60 || hash[0] != '$' || hash[1] != '2' || hash[3] != '$' || hash[6] != '$')
    return false;
  if (hash[2] != 'a' && hash[2] != 'b' && hash[2] != 'y') return false;
  if (hash[4] < '0' || hash[4] > '9' || hash[5] < '0' || hash[5] > '9') return false;
  const int cost = (hash[4] - '0') * 10 + (hash[5] - '0');
  if (cost < 4 || cost > 31) return false;
  for (char c : hash.substr(7)) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '/';
    if (!ok) return false;
  }
  return true;
}

Result<WebConfig> ParseWebConfig(std::string_view yaml, const std::string& path) {
  Parser p(path);
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml));
  } catch (const YAML::Exception& ex) {
    return p.At(ex.mark, "not valid YAML: " + ex.msg);
  }
  WebConfig out;
  out.path = path;
  if (!root.IsDefined() || root.IsNull()) return out;  // an empty file: plain HTTP, no auth
  if (!root.IsMap())
    return p.At(
        root, "expected a mapping with tls_server_config, http_server_config or basic_auth_users");
  static const std::vector<std::string> kTop = {"tls_server_config", "http_server_config",
                                                "basic_auth_users", "rate_limit"};
  try {
    Status s = p.ForEachKey(
        root, "the top level", kTop,
        [&](const std::string& name, const YAML::Node& key, const YAML::Node& value) -> Status {
          if (name == "tls_server_config") {
            if (value.IsNull() || (value.IsMap() && value.size() == 0)) return {};
            TlsServerConfig tls;
            Status t = p.ParseTls(value, tls, key);
            if (!t.ok()) return t;
            out.tls = std::move(tls);
            return {};
          }
          if (name == "http_server_config") return p.ParseHttp(value, out);
          if (name == "basic_auth_users") return p.ParseUsers(value, out);
          return p.At(key,
                      "rate_limit is not supported by roce_exporter; limit request rates at a "
                      "firewall or a reverse proxy");
        });
    if (!s.ok()) return s.error();
  } catch (const YAML::Exception& ex) {
    return p.At(ex.mark, ex.msg);
  }
  return out;
}

namespace {

const char* FileKind(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISDIR(mode)) return "a directory";
  return "not a file";
}

}  // namespace

Result<std::string> ReadSmallFile(const std::string& path, const std::string& what) {
  constexpr std::size_t kMaxBytes = 1 << 20;
  // Only a regular file is read: a FIFO would block the open (and the read) until someone
  // writes, a device could answer anything. The type is checked before the open, and again
  // on what was opened (O_NONBLOCK: a FIFO swapped in between does not block the open).
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    return Error{path + ": cannot read " + what + ": " + std::strerror(errno), errno};
  if (!S_ISREG(st.st_mode))
    return Error{
        path + ": cannot read " + what + ": not a regular file (" + FileKind(st.st_mode) + ")",
        EINVAL};
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return Error{path + ": cannot read " + what + ": " + std::strerror(errno), errno};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return Error{
        path + ": cannot read " + what + ": not a regular file (" + FileKind(st.st_mode) + ")",
        EINVAL};
  }
  std::string text;
  char buf[8192];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int e = errno;
      ::close(fd);
      return Error{path + ": cannot read " + what + ": " + std::strerror(e), e};
    }
    if (n == 0) break;
    text.append(buf, static_cast<std::size_t>(n));
    if (text.size() > kMaxBytes) {
      ::close(fd);
      return Error{path + ": cannot read " + what + ": larger than 1 MiB", EFBIG};
    }
  }
  ::close(fd);
  return text;
}

Result<WebConfig> ReadWebConfigFile(const std::string& path) {
  auto text = ReadSmallFile(path, "the web config");
  if (!text) return text.error();
  return ParseWebConfig(*text, path);
}

}  // namespace rocewatch::http
