#pragma once

// --web.config.file: TLS and basic authentication in the format of Prometheus's
// exporter-toolkit (its web-configuration.md), so one file serves node_exporter and
// roce_exporter alike. Parsed with yaml-cpp; every key is checked: an unknown key is an error
// naming the file, line and key, with a did-you-mean. This file parses and checks the text
// only; the certificates and keys are loaded by http/tls_context.h.
//
// Differences from exporter-toolkit, each an explicit error rather than a silent surprise:
//   - TLS 1.0 and 1.1 are not offered (min_version/max_version TLS12 or TLS13);
//   - rate_limit is not supported;
//   - a tls_server_config that sets anything needs a certificate and a key (exporter-toolkit
//     silently falls back to plain HTTP when only, say, min_version is set);
//   - client_auth_type VerifyClientCertIfGiven/RequireAndVerifyClientCert need a client CA
//     (exporter-toolkit would verify against the system roots).

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rocewatch/result.h"

namespace rocewatch::http {

enum class ClientAuth {
  kNoClientCert,
  kRequestClientCert,
  kRequireAnyClientCert,
  kVerifyClientCertIfGiven,
  kRequireAndVerifyClientCert,
};
std::string_view ClientAuthName(ClientAuth a);

enum class TlsVersion { kTls12, kTls13 };
std::string_view TlsVersionName(TlsVersion v);

// PEM text inline in the file, or the name of a file holding it (resolved against the web
// config file's directory, as exporter-toolkit does).
struct PemSource {
  std::string file;  // absolute or relative to the config's directory; empty when inline
  std::string inline_pem;
  std::string key;  // the YAML key it came from, for messages ("cert_file", "key", …)
  bool empty() const { return file.empty() && inline_pem.empty(); }
};

struct TlsServerConfig {
  PemSource cert;       // cert_file or cert: the server certificate, then its chain
  PemSource key;        // key_file or key
  PemSource client_ca;  // client_ca_file or client_ca
  ClientAuth client_auth = ClientAuth::kNoClientCert;
  std::vector<std::string> client_allowed_sans;
  TlsVersion min_version = TlsVersion::kTls12;
  TlsVersion max_version = TlsVersion::kTls13;
  std::vector<std::string> cipher_suites;  // IANA names (as Go spells them), TLS 1.2 only
  bool prefer_server_cipher_suites = true;
  std::vector<std::string> curve_preferences;  // OpenSSL group names ("X25519", "P-256")
};

struct WebConfig {
  std::string path;  // the file it was read from ("" when parsed from text)
  std::optional<TlsServerConfig> tls;
  // http_server_config.headers: extra response headers (exporter-toolkit's fixed list).
  std::vector<std::pair<std::string, std::string>> headers;
  // basic_auth_users: user -> bcrypt hash. Empty: no authentication.
  std::map<std::string, std::string> users;
};

// Parses `yaml` as the content of the file `path` (used in messages and to resolve relative
// file names). Messages read "PATH:LINE: what is wrong".
Result<WebConfig> ParseWebConfig(std::string_view yaml, const std::string& path);

// Reads and parses `path`.
Result<WebConfig> ReadWebConfigFile(const std::string& path);

// Reads a regular file of at most 1 MiB (web config, certificates, keys); errors read
// "PATH: cannot read WHAT: reason".
Result<std::string> ReadSmallFile(const std::string& path, const std::string& what);

// True when `hash` is a bcrypt hash crypt(3) verifies: $2a$, $2b$ or $2y$, a two-digit cost
// from 04 to 31, then 53 characters of salt and hash in bcrypt's base64 alphabet.
bool IsBcryptHash(std::string_view hash);

}  // namespace rocewatch::http
