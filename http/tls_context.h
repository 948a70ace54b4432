#pragma once

// An OpenSSL 3 server context built from a web config's tls_server_config: certificate and
// chain, private key (checked against the certificate), TLS versions, TLS 1.2 cipher suites
// (IANA names, as exporter-toolkit spells them), groups, and the client certificate policy
// (client_auth_type, client CA, client_allowed_sans). Built once per (re)load of the web
// config; every connection holds the context it started with.

#include <openssl/types.h>

#include <memory>
#include <string>
#include <vector>

#include "http/web_config.h"
#include "rocewatch/result.h"

namespace rocewatch::http {

class TlsContext {
 public:
  // `config_path` names the web config in messages ("PATH: tls_server_config.key_file: …").
  static Result<std::shared_ptr<TlsContext>> Create(const TlsServerConfig& config,
                                                    const std::string& config_path);
  ~TlsContext();
  TlsContext(const TlsContext&) = delete;
  TlsContext& operator=(const TlsContext&) = delete;

  SSL_CTX* ssl_ctx() const { return ctx_; }
  // The files the context was built from (certificate, key, client CA).
  const std::vector<std::string>& files() const { return files_; }
  // Things worth a warning that do not stop the server (an expired certificate).
  const std::vector<std::string>& warnings() const { return warnings_; }
  // The server certificate's subject and expiry, for the log.
  const std::string& summary() const { return summary_; }

  // Whether the client certificate `cert` carries one of client_allowed_sans (DNS, IP,
  // e-mail or URI SAN, compared exactly); true when the list is empty.
  bool SanAllowed(X509* cert) const;
  ClientAuth client_auth() const { return client_auth_; }

 private:
  TlsContext() = default;
  SSL_CTX* ctx_ = nullptr;
  ClientAuth client_auth_ = ClientAuth::kNoClientCert;
  std::vector<std::string> allowed_sans_;
  std::vector<std::string> files_;
  std::vector<std::string> warnings_;
  std::string summary_;
};

// The TLS 1.2 cipher list used when cipher_suites is not given: ECDHE key exchange with
// AES-GCM or ChaCha20-Poly1305 only (forward secrecy, AEAD). TLS 1.3 suites are always on.
inline constexpr const char* kDefaultTls12Ciphers = "ECDHE+AESGCM:ECDHE+CHACHA20";

}  // namespace rocewatch::http
