#include "http/tls_context.h"

#include <arpa/inet.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <algorithm>
#include <mutex>

#include "rocewatch/strings.h"

namespace rocewatch::http {
namespace {

struct BioFree {
  void operator()(BIO* b) const { BIO_free(b); }
};
struct X509Free {
  void operator()(X509* x) const { X509_free(x); }
};
struct PkeyFree {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
using BioPtr = std::unique_ptr<BIO, BioFree>;
using X509Ptr = std::unique_ptr<X509, X509Free>;
using PkeyPtr = std::unique_ptr<EVP_PKEY, PkeyFree>;

// The most specific message OpenSSL queued, and the queue emptied.
std::string OpenSslReason() {
  unsigned long e = ERR_peek_last_error();
  ERR_clear_error();
  if (e == 0) return "unknown OpenSSL error";
  const char* reason = ERR_reason_error_string(e);
  return reason != nullptr ? reason : "OpenSSL error " + std::to_string(e);
}

int ExIndex() {
  static const int index = SSL_CTX_get_ex_new_index(0, nullptr, nullptr, nullptr, nullptr);
  return index;
}

// "tls_server_config.cert_file /etc/x.crt" or "tls_server_config.cert (inline)".
std::string Describe(const PemSource& s) {
  return "tls_server_config." + s.key + (s.file.empty() ? " (inline)" : " " + s.file);
}

Result<std::string> PemText(const PemSource& s, const std::string& config_path, const char* what) {
  if (s.file.empty()) return s.inline_pem;
  auto text = ReadSmallFile(s.file, what);
  if (!text)
    return Error{config_path + ": tls_server_config." + s.key + ": " + text.error().message,
                 text.error().code};
  return text;
}

Result<std::vector<X509Ptr>> ParseCertificates(const std::string& pem, const PemSource& s,
                                               const std::string& config_path) {
  std::vector<X509Ptr> out;
  BioPtr bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
  ERR_clear_error();
  while (X509* x = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr)) out.emplace_back(x);
  const unsigned long e = ERR_peek_last_error();
  const bool clean_end = ERR_GET_LIB(e) == ERR_LIB_PEM && ERR_GET_REASON(e) == PEM_R_NO_START_LINE;
  if (out.empty()) {
    ERR_clear_error();
    return Error{config_path + ": " + Describe(s) + ": no PEM certificate found"};
  }
  if (e != 0 && !clean_end) {
    return Error{config_path + ": " + Describe(s) + ": certificate " +
                 std::to_string(out.size() + 1) + " does not parse: " + OpenSslReason()};
  }
  ERR_clear_error();
  return out;
}

int NoPassphrase(char*, int, int, void*) { return -1; }

std::string AsnString(const ASN1_STRING* s) {
  return std::string(reinterpret_cast<const char*>(ASN1_STRING_get0_data(s)),
                     static_cast<std::size_t>(ASN1_STRING_length(s)));
}

std::string TimeText(const ASN1_TIME* t) {
  BioPtr bio(BIO_new(BIO_s_mem()));
  ASN1_TIME_print(bio.get(), t);
  char* data = nullptr;
  long len = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(len));
}

int VerifyClient(int preverify_ok, X509_STORE_CTX* store) {
  auto* ssl =
      static_cast<SSL*>(X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx()));
  if (ssl == nullptr) return 0;
  auto* self = static_cast<const TlsContext*>(SSL_CTX_get_ex_data(SSL_get_SSL_CTX(ssl), ExIndex()));
  if (self == nullptr) return preverify_ok;
  const ClientAuth a = self->client_auth();
  const bool verifies =
      a == ClientAuth::kVerifyClientCertIfGiven || a == ClientAuth::kRequireAndVerifyClientCert;
  if (verifies && !preverify_ok) return 0;
  if (X509_STORE_CTX_get_error_depth(store) == 0 &&
      !self->SanAllowed(X509_STORE_CTX_get_current_cert(store))) {
    X509_STORE_CTX_set_error(store, X509_V_ERR_APPLICATION_VERIFICATION);
    return 0;
  }
  // RequestClientCert and RequireAnyClientCert take any certificate, as Go's crypto/tls does.
  return 1;
}

struct CipherName {
  std::string standard;  // IANA, as Go and exporter-toolkit spell it
  std::string openssl;
  bool tls13 = false;
};

const std::vector<CipherName>& KnownCiphers() {
  static const std::vector<CipherName> kCiphers = [] {
    std::vector<CipherName> out;
    SSL_CTX* tmp = SSL_CTX_new(TLS_server_method());
    if (tmp == nullptr) return out;
    SSL_CTX_set_cipher_list(tmp, "ALL");
    STACK_OF(SSL_CIPHER)* list = SSL_CTX_get_ciphers(tmp);
    for (int i = 0; list != nullptr && i < sk_SSL_CIPHER_num(list); ++i) {
      const SSL_CIPHER* c = sk_SSL_CIPHER_value(list, i);
      const char* std_name = SSL_CIPHER_standard_name(c);
      if (std_name == nullptr) continue;
      out.push_back({std_name, SSL_CIPHER_get_name(c),
                     std::string_view(SSL_CIPHER_get_version(c)) == "TLSv1.3"});
    }
    SSL_CTX_free(tmp);
    ERR_clear_error();
    return out;
  }();
  return kCiphers;
}

}  // namespace

TlsContext::~TlsContext() { SSL_CTX_free(ctx_); }

bool TlsContext::SanAllowed(X509* cert) const {
  if (allowed_sans_.empty()) return true;
  if (cert == nullptr) return false;
  auto* names =
      static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(cert, NID_subject_alt_name, nullptr, nullptr));
  if (names == nullptr) return false;
  bool found = false;
  for (int i = 0; !found && i < sk_GENERAL_NAME_num(names); ++i) {
    const GENERAL_NAME* n = sk_GENERAL_NAME_value(names, i);
    std::string value;
    switch (n->type) {
      case GEN_DNS:
        value = AsnString(n->d.dNSName);
        break;
      case GEN_EMAIL:
        value = AsnString(n->d.rfc822Name);
        break;
      case GEN_URI:
        value = AsnString(n->d.uniformResourceIdentifier);
        break;
      case GEN_IPADD: {
        const ASN1_OCTET_STRING* ip = n->d.iPAddress;
        char text[INET6_ADDRSTRLEN] = {};
        const int len = ASN1_STRING_length(ip);
        if ((len == 4 && inet_ntop(AF_INET, ASN1_STRING_get0_data(ip), text, sizeof text)) ||
            (len == 16 && inet_ntop(AF_INET6, ASN1_STRING_get0_data(ip), text, sizeof text)))
          value = text;
        break;
      }
      default:
        break;
    }
    found = !value.empty() &&
            std::find(allowed_sans_.begin(), allowed_sans_.end(), value) != allowed_sans_.end();
  }
  GENERAL_NAMES_free(names);
  return found;
}

Result<std::shared_ptr<TlsContext>> TlsContext::Create(const TlsServerConfig& config,
                                                       const std::string& config_path) {
  std::shared_ptr<TlsContext> self(new TlsContext());
  ERR_clear_error();
  self->ctx_ = SSL_CTX_new(TLS_server_method());
  if (self->ctx_ == nullptr) return Error{"cannot create a TLS context: " + OpenSslReason()};
  SSL_CTX* ctx = self->ctx_;
  self->client_auth_ = config.client_auth;
  self->allowed_sans_ = config.client_allowed_sans;
  for (const PemSource* s : {&config.cert, &config.key, &config.client_ca}) {
    if (!s->file.empty()) self->files_.push_back(s->file);
  }

  // Certificate, then its chain.
  auto cert_pem = PemText(config.cert, config_path, "the certificate");
  if (!cert_pem) return cert_pem.error();
  auto certs = ParseCertificates(*cert_pem, config.cert, config_path);
  if (!certs) return certs.error();
  X509* leaf = (*certs)[0].get();
  if (SSL_CTX_use_certificate(ctx, leaf) != 1)
    return Error{config_path + ": " + Describe(config.cert) + ": " + OpenSslReason()};
  for (std::size_t i = 1; i < certs->size(); ++i) {
    if (SSL_CTX_add1_chain_cert(ctx, (*certs)[i].get()) != 1)
      return Error{config_path + ": " + Describe(config.cert) + ": chain certificate " +
                   std::to_string(i + 1) + ": " + OpenSslReason()};
  }
  char subject[256] = {};
  X509_NAME_oneline(X509_get_subject_name(leaf), subject, sizeof subject);
  self->summary_ = std::string(subject) + ", valid until " + TimeText(X509_get0_notAfter(leaf));
  if (X509_cmp_current_time(X509_get0_notAfter(leaf)) < 0)
    self->warnings_.push_back(Describe(config.cert) + ": the certificate expired on " +
                              TimeText(X509_get0_notAfter(leaf)));
  if (X509_cmp_current_time(X509_get0_notBefore(leaf)) > 0)
    self->warnings_.push_back(Describe(config.cert) + ": the certificate is not valid before " +
                              TimeText(X509_get0_notBefore(leaf)));

  // Private key, checked against the certificate.
  auto key_pem = PemText(config.key, config_path, "the private key");
  if (!key_pem) return key_pem.error();
  PkeyPtr key;
  {
    BioPtr bio(BIO_new_mem_buf(key_pem->data(), static_cast<int>(key_pem->size())));
    key.reset(PEM_read_bio_PrivateKey(bio.get(), nullptr, &NoPassphrase, nullptr));
    OPENSSL_cleanse(key_pem->data(), key_pem->size());
  }
  if (!key) {
    ERR_clear_error();
    return Error{config_path + ": " + Describe(config.key) +
                 ": no PEM private key found (a passphrase-protected key is not supported)"};
  }
  if (SSL_CTX_use_PrivateKey(ctx, key.get()) != 1 || SSL_CTX_check_private_key(ctx) != 1) {
    ERR_clear_error();
    return Error{config_path + ": " + Describe(config.key) + " does not match the certificate in " +
                 Describe(config.cert)};
  }

  // Protocol versions and options.
  SSL_CTX_set_min_proto_version(
      ctx, config.min_version == TlsVersion::kTls12 ? TLS1_2_VERSION : TLS1_3_VERSION);
  SSL_CTX_set_max_proto_version(
      ctx, config.max_version == TlsVersion::kTls12 ? TLS1_2_VERSION : TLS1_3_VERSION);
  std::uint64_t options = SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION;
  if (config.prefer_server_cipher_suites) options |= SSL_OP_CIPHER_SERVER_PREFERENCE;
  SSL_CTX_set_options(ctx, options);
  SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  static const unsigned char kSessionContext[] = "roce_exporter";
  SSL_CTX_set_session_id_context(ctx, kSessionContext, sizeof kSessionContext - 1);

  std::string ciphers = kDefaultTls12Ciphers;
  if (!config.cipher_suites.empty()) {
    ciphers.clear();
    std::vector<std::string> names;
    for (const auto& c : KnownCiphers()) names.push_back(c.standard);
    for (const auto& wanted : config.cipher_suites) {
      const CipherName* match = nullptr;
      for (const auto& c : KnownCiphers()) {
        if (c.standard == wanted) match = &c;
      }
      if (match == nullptr) {
        std::string msg = config_path + ": tls_server_config.cipher_suites: unknown cipher suite " +
                          Quote(wanted);
        if (auto hint = DidYouMean(wanted, names)) msg += " (did you mean \"" + *hint + "\"?)";
        return Error{msg};
      }
      if (match->tls13) continue;  // TLS 1.3 suites are not configurable (as in Go)
      if (!ciphers.empty()) ciphers += ":";
      ciphers += match->openssl;
    }
    if (ciphers.empty() && config.min_version == TlsVersion::kTls12)
      return Error{config_path +
                   ": tls_server_config.cipher_suites: lists no TLS 1.2 suite (TLS 1.3 "
                   "suites are always enabled and not configurable); list TLS 1.2 "
                   "suites or set min_version: TLS13"};
  }
  if (!ciphers.empty() && SSL_CTX_set_cipher_list(ctx, ciphers.c_str()) != 1)
    return Error{config_path + ": tls_server_config.cipher_suites: " + OpenSslReason()};
  if (!config.curve_preferences.empty()) {
    std::string groups;
    for (const auto& g : config.curve_preferences) groups += (groups.empty() ? "" : ":") + g;
    if (SSL_CTX_set1_groups_list(ctx, groups.c_str()) != 1)
      return Error{config_path + ": tls_server_config.curve_preferences: " + OpenSslReason()};
  }

  // Client certificates.
  if (!config.client_ca.empty()) {
    auto ca_pem = PemText(config.client_ca, config_path, "the client CA");
    if (!ca_pem) return ca_pem.error();
    auto cas = ParseCertificates(*ca_pem, config.client_ca, config_path);
    if (!cas) return cas.error();
    X509_STORE* store = SSL_CTX_get_cert_store(ctx);
    for (const auto& ca : *cas) {
      if (X509_STORE_add_cert(store, ca.get()) != 1 || SSL_CTX_add_client_CA(ctx, ca.get()) != 1)
        return Error{config_path + ": " + Describe(config.client_ca) + ": " + OpenSslReason()};
    }
  }
  int mode = SSL_VERIFY_NONE;
  switch (config.client_auth) {
    case ClientAuth::kNoClientCert:
      break;
    case ClientAuth::kRequestClientCert:
    case ClientAuth::kVerifyClientCertIfGiven:
      mode = SSL_VERIFY_PEER;
      break;
    case ClientAuth::kRequireAnyClientCert:
    case ClientAuth::kRequireAndVerifyClientCert:
      mode = SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT;
      break;
  }
  SSL_CTX_set_ex_data(ctx, ExIndex(), self.get());
  SSL_CTX_set_verify(ctx, mode, mode == SSL_VERIFY_NONE ? nullptr : &VerifyClient);
  ERR_clear_error();
  return self;
}

}  // namespace rocewatch::http
