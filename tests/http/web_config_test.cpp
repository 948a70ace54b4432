// --web.config.file: parsing (good and bad files, exact messages), the TLS context built from
// it (certificate and key loading, key mismatch, cipher names), reloading on change, and the
// pieces the web config drives: basic auth and the bounded request parser of the TLS
// listener, and the routing both transports share.

#include "http/web_config.h"

#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <thread>

#include "common/test_dir.h"
#include "http/basic_auth.h"
#include "http/gzip.h"
#include "http/request_head.h"
#include "http/routes.h"
#include "http/self_signed.h"
#include "http/tls_context.h"
#include "http/web_config_reloader.h"

namespace rocewatch::http {
namespace {

using rocewatch::testing::TestDir;
using testing::Pem;
using testing::SelfSigned;

// bcrypt, cost 4 (fast), of "s3cret" and of "other pass" (python3 crypt.crypt, METHOD_BLOWFISH).
constexpr const char* kHashS3cret = "$2b$04$FIWYvvElPBNBO.3aY1CaruBowNhi4n1DmfpzJKGLUJFSmk8q/9cP.";
constexpr const char* kHashOther = "$2b$04$Wh/gjzuf4tRJoKSGDhyIge9sSn8dmD0jFcbcsn2xPwTjsvPNr3cDy";

// A directory with server.crt/server.key and a web config `web.yml` holding `yaml`.
struct ConfigDir {
  TestDir dir;
  std::string path;
  explicit ConfigDir(const std::string& yaml, const Pem& pem = SelfSigned("127.0.0.1")) {
    dir.Write("server.crt", pem.cert);
    dir.Write("server.key", pem.key);
    path = dir / "web.yml";
    dir.Write("web.yml", yaml);
  }
};

std::string ErrorOf(const std::string& yaml,
                    const std::string& path = "/etc/roce_exporter/web.yml") {
  auto c = ParseWebConfig(yaml, path);
  return c.ok() ? std::string("(no error)") : c.error().message;
}

// ---------------------------------------------------------------------------------------
// Parsing

TEST(WebConfig, FullFileParsesAndRelativeFilesFollowTheConfigsDirectory) {
  auto c = ParseWebConfig(
      "tls_server_config:\n"
      "  cert_file: server.crt\n"
      "  key_file: /abs/server.key\n"
      "  client_auth_type: RequireAndVerifyClientCert\n"
      "  client_ca_file: ca.crt\n"
      "  client_allowed_sans: [prometheus.example.com, 10.0.0.1]\n"
      "  min_version: TLS13\n"
      "  max_version: TLS13\n"
      "  cipher_suites: [TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256]\n"
      "  prefer_server_cipher_suites: false\n"
      "  curve_preferences: [X25519, CurveP256]\n"
      "http_server_config:\n"
      "  http2: false\n"
      "  headers:\n"
      "    Strict-Transport-Security: max-age=31536000\n"
      "    X-Frame-Options: deny\n"
      "basic_auth_users:\n"
      "  alice: " +
          std::string(kHashS3cret) +
          "\n"
          "  bob: '" +
          kHashOther + "'\n",
      "/etc/roce_exporter/web.yml");
  ASSERT_TRUE(c.ok()) << c.error().message;
  ASSERT_TRUE(c->tls.has_value());
  const TlsServerConfig& t = *c->tls;
  EXPECT_EQ(t.cert.file, "/etc/roce_exporter/server.crt");
  EXPECT_EQ(t.key.file, "/abs/server.key");
  EXPECT_EQ(t.client_ca.file, "/etc/roce_exporter/ca.crt");
  EXPECT_EQ(t.client_auth, ClientAuth::kRequireAndVerifyClientCert);
  EXPECT_EQ(t.client_allowed_sans,
            (std::vector<std::string>{"prometheus.example.com", "10.0.0.1"}));
  EXPECT_EQ(t.min_version, TlsVersion::kTls13);
  EXPECT_EQ(t.max_version, TlsVersion::kTls13);
  EXPECT_EQ(t.cipher_suites, (std::vector<std::string>{"TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"}));
  EXPECT_FALSE(t.prefer_server_cipher_suites);
  EXPECT_EQ(t.curve_preferences, (std::vector<std::string>{"X25519", "P-256"}));
  EXPECT_EQ(c->headers,
            (std::vector<std::pair<std::string, std::string>>{
                {"Strict-Transport-Security", "max-age=31536000"}, {"X-Frame-Options", "deny"}}));
  EXPECT_EQ(c->users.size(), 2u);
  EXPECT_EQ(c->users.at("alice"), kHashS3cret);
  EXPECT_EQ(c->users.at("bob"), kHashOther);
}

TEST(WebConfig, EmptyFileAndEmptySectionsMeanPlainHttpWithoutAuth) {
  for (const char* yaml :
       {"", "# nothing\n", "tls_server_config:\nbasic_auth_users:\n", "tls_server_config: {}\n"}) {
    auto c = ParseWebConfig(yaml, "web.yml");
    ASSERT_TRUE(c.ok()) << yaml << ": " << c.error().message;
    EXPECT_FALSE(c->tls.has_value()) << yaml;
    EXPECT_TRUE(c->users.empty()) << yaml;
  }
}

TEST(WebConfig, UnknownKeysNameFileLineAndSuggest) {
  EXPECT_EQ(ErrorOf("tls_server_confg:\n  cert_file: a\n"),
            "/etc/roce_exporter/web.yml:1: unknown key \"tls_server_confg\" in the top level "
            "(did you mean \"tls_server_config\"?)");
  EXPECT_EQ(ErrorOf("tls_server_config:\n  cert_file: a\n  key_fille: b\n"),
            "/etc/roce_exporter/web.yml:3: unknown key \"key_fille\" in tls_server_config "
            "(did you mean \"key_file\"?)");
  EXPECT_EQ(ErrorOf("http_server_config:\n  headerz:\n    X-Frame-Options: deny\n"),
            "/etc/roce_exporter/web.yml:2: unknown key \"headerz\" in http_server_config "
            "(did you mean \"headers\"?)");
  EXPECT_EQ(ErrorOf("listen: 1\n"),
            "/etc/roce_exporter/web.yml:1: unknown key \"listen\" in the top level");
  EXPECT_EQ(ErrorOf("basic_auth_users:\nbasic_auth_users:\n  b: y\n"),
            "/etc/roce_exporter/web.yml:2: the top level: key \"basic_auth_users\" appears twice");
}

TEST(WebConfig, MissingCertificateOrKey) {
  EXPECT_EQ(ErrorOf("tls_server_config:\n  key_file: server.key\n"),
            "/etc/roce_exporter/web.yml:1: tls_server_config: no certificate: cert_file (or "
            "cert) is required for TLS");
  EXPECT_EQ(ErrorOf("tls_server_config:\n  cert_file: server.crt\n  cert_file: other.crt\n"),
            "/etc/roce_exporter/web.yml:3: tls_server_config: key \"cert_file\" appears twice");
  EXPECT_EQ(ErrorOf("tls_server_config:\n  cert_file: server.crt\n  min_version: TLS13\n"),
            "/etc/roce_exporter/web.yml:1: tls_server_config: no private key: key_file (or "
            "key) is required for TLS");
  EXPECT_EQ(
      ErrorOf("tls_server_config:\n  cert_file: a.crt\n  cert: |\n    x\n  key_file: a.key\n"),
      "/etc/roce_exporter/web.yml:2: tls_server_config: both cert and cert_file are given; use "
      "one of them");
}

TEST(WebConfig, ClientAuthTypeMustBeKnownAndConsistent) {
  EXPECT_EQ(ErrorOf("tls_server_config:\n  cert_file: a\n  key_file: b\n"
                    "  client_auth_type: RequireAndVerifyClientCerts\n"),
            "/etc/roce_exporter/web.yml:4: tls_server_config.client_auth_type: unknown value "
            "\"RequireAndVerifyClientCerts\", expected one of NoClientCert, RequestClientCert, "
            "RequireAnyClientCert, RequireClientCert, VerifyClientCertIfGiven, "
            "RequireAndVerifyClientCert (did you mean \"RequireAndVerifyClientCert\"?)");
  EXPECT_EQ(ErrorOf("tls_server_config:\n  cert_file: a\n  key_file: b\n"
                    "  client_auth_type: RequireAndVerifyClientCert\n"),
            "/etc/roce_exporter/web.yml:2: tls_server_config: client_auth_type "
            "RequireAndVerifyClientCert verifies client certificates and needs client_ca_file (or "
            "client_ca)");
  EXPECT_EQ(ErrorOf("tls_server_config:\n  cert_file: a\n  key_file: b\n  client_ca_file: ca\n"),
            "/etc/roce_exporter/web.yml:2: tls_server_config: client_ca_file is given but "
            "client_auth_type is NoClientCert, so no client certificate would be asked for; set "
            "client_auth_type: RequireAndVerifyClientCert");
  EXPECT_EQ(ErrorOf("tls_server_config:\n  cert_file: a\n  key_file: b\n"
                    "  client_auth_type: VerifyClientCertIfGiven\n  client_ca_file: ca\n"
                    "  client_allowed_sans: [x]\n"),
            "/etc/roce_exporter/web.yml:2: tls_server_config: client_allowed_sans needs "
            "client_auth_type RequireAnyClientCert or RequireAndVerifyClientCert");
  // exporter-toolkit's old spelling is still accepted.
  auto c = ParseWebConfig(
      "tls_server_config:\n  cert_file: a\n  key_file: b\n"
      "  client_auth_type: RequireClientCert\n",
      "w.yml");
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->tls->client_auth, ClientAuth::kRequireAnyClientCert);
}

TEST(WebConfig, TlsVersions) {
  EXPECT_EQ(ErrorOf("tls_server_config:\n  cert_file: a\n  key_file: b\n  min_version: TLS14\n"),
            "/etc/roce_exporter/web.yml:4: tls_server_config.min_version: unknown value \"TLS14\", "
            "expected one of TLS12, TLS13 (did you mean \"TLS12\"?)");
  EXPECT_EQ(ErrorOf("tls_server_config:\n  cert_file: a\n  key_file: b\n  min_version: TLS11\n"),
            "/etc/roce_exporter/web.yml:4: tls_server_config.min_version: TLS11 is not offered by "
            "roce_exporter (TLS 1.0 and 1.1 are obsolete, RFC 8996); use TLS12 or TLS13");
  EXPECT_EQ(ErrorOf("tls_server_config:\n  cert_file: a\n  key_file: b\n  min_version: TLS13\n"
                    "  max_version: TLS12\n"),
            "/etc/roce_exporter/web.yml:2: tls_server_config: min_version TLS13 is above "
            "max_version TLS12");
  auto c = ParseWebConfig("tls_server_config:\n  cert_file: a\n  key_file: b\n", "w.yml");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->tls->min_version, TlsVersion::kTls12);  // exporter-toolkit's defaults
  EXPECT_EQ(c->tls->max_version, TlsVersion::kTls13);
}

TEST(WebConfig, BasicAuthUsersNeedBcryptHashes) {
  EXPECT_EQ(
      ErrorOf("basic_auth_users:\n  alice: s3cret\n"),
      "/etc/roce_exporter/web.yml:2: basic_auth_users: user \"alice\": the password must be a "
      "bcrypt hash ($2y$, $2b$ or $2a$, a cost 04-31, then 53 characters), as `htpasswd "
      "-nBC 10 \"\" | tr -d ':\\n'` prints it");
  // A SHA-512 crypt hash is a hash, but not bcrypt.
  EXPECT_NE(ErrorOf("basic_auth_users:\n  alice: $6$salt$abcdefghijklmnopqrstuvwxyz\n")
                .find("must be a bcrypt hash"),
            std::string::npos);
  EXPECT_EQ(ErrorOf("basic_auth_users:\n  \"a:b\": " + std::string(kHashS3cret) + "\n"),
            "/etc/roce_exporter/web.yml:2: basic_auth_users: user \"a:b\": a user name must not "
            "contain ':' (basic auth splits at the first one)");
  EXPECT_TRUE(IsBcryptHash(kHashS3cret));
  EXPECT_TRUE(IsBcryptHash("$2y$10$X0h1gDsPszWURQaxFh.zoubFi6DXncSjhoQNJgRrnGs7EsimhC7zG"));
  EXPECT_FALSE(IsBcryptHash("$2x$10$X0h1gDsPszWURQaxFh.zoubFi6DXncSjhoQNJgRrnGs7EsimhC7zG"));
  EXPECT_FALSE(IsBcryptHash("$2y$03$X0h1gDsPszWURQaxFh.zoubFi6DXncSjhoQNJgRrnGs7EsimhC7zG"));
  EXPECT_FALSE(IsBcryptHash("$2y$10$X0h1gDsPszWURQaxFh.zoubFi6DXncSjhoQNJgRrnGs7EsimhC7z"));
  EXPECT_FALSE(IsBcryptHash("$2y$10$X0h1gDsPszWURQaxFh.zoubFi6DXncSjhoQNJgRrnGs7EsimhC7z!"));
}

TEST(WebConfig, HeadersFromExporterToolkitsListOnly) {
  EXPECT_EQ(ErrorOf("http_server_config:\n  headers:\n    Server: roce\n"),
            "/etc/roce_exporter/web.yml:3: http_server_config.headers: header \"Server\" can not "
            "be configured (allowed: Strict-Transport-Security, X-Content-Type-Options, "
            "X-Frame-Options, X-XSS-Protection, Content-Security-Policy)");
  EXPECT_EQ(ErrorOf("http_server_config:\n  headers:\n    X-Frame-Options: allow\n"),
            "/etc/roce_exporter/web.yml:3: http_server_config.headers.X-Frame-Options: invalid "
            "value \"allow\", expected deny or sameorigin");
  EXPECT_EQ(
      ErrorOf("http_server_config:\n  headers:\n    Content-Security-Policy: \"a\\r\\nSet-Cookie: "
              "x\"\n"),
      "/etc/roce_exporter/web.yml:3: http_server_config.headers.Content-Security-Policy: line "
      "breaks are not allowed in a header value");
  EXPECT_NE(ErrorOf("http_server_config:\n  headers:\n    Strict-Transport-Securty: x\n")
                .find("(did you mean \"Strict-Transport-Security\"?)"),
            std::string::npos);
}

TEST(WebConfig, UnsupportedAndMalformed) {
  EXPECT_EQ(ErrorOf("rate_limit:\n  interval: 1s\n  burst: 20\n"),
            "/etc/roce_exporter/web.yml:1: rate_limit is not supported by roce_exporter; limit "
            "request rates at a firewall or a reverse proxy");
  EXPECT_EQ(
      ErrorOf("tls_server_config: [a, b]\n"),
      "/etc/roce_exporter/web.yml:1: tls_server_config: expected a mapping of keys to values");
  EXPECT_EQ(ErrorOf("- a\n- b\n"),
            "/etc/roce_exporter/web.yml:1: expected a mapping with tls_server_config, "
            "http_server_config or basic_auth_users");
  EXPECT_NE(ErrorOf("tls_server_config:\n  cert_file: [\n")
                .find("/etc/roce_exporter/web.yml:3: not valid YAML: "),
            std::string::npos)
      << ErrorOf("tls_server_config:\n  cert_file: [\n");
  EXPECT_EQ(
      ErrorOf(
          "tls_server_config:\n  cert_file: a\n  key_file: b\n  curve_preferences: [CurveP255]\n"),
      "/etc/roce_exporter/web.yml:4: tls_server_config.curve_preferences: unknown curve "
      "\"CurveP255\", expected CurveP256, CurveP384, CurveP521 or X25519 (did you mean "
      "\"CurveP256\"?)");
}

TEST(WebConfig, UnreadableFile) {
  TestDir dir;
  auto c = ReadWebConfigFile(dir / "missing.yml");
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().message,
            dir / "missing.yml" + ": cannot read the web config: No such file or directory");
  auto d = ReadWebConfigFile(dir.path());
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().message,
            dir.path() + ": cannot read the web config: not a regular file (a directory)");
}

// ---------------------------------------------------------------------------------------
// The TLS context: files loaded, checked against each other

TEST(TlsContext, LoadsCertificateAndKey) {
  ConfigDir d("tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n");
  auto loaded = LoadWebConfig(d.path);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  ASSERT_NE((*loaded)->tls, nullptr);
  EXPECT_NE((*loaded)->tls->ssl_ctx(), nullptr);
  EXPECT_EQ((*loaded)->tls->summary().rfind("/CN=127.0.0.1, valid until ", 0), 0u)
      << (*loaded)->tls->summary();
  EXPECT_TRUE((*loaded)->tls->warnings().empty());
  EXPECT_EQ((*loaded)->tls->files(),
            (std::vector<std::string>{d.dir / "server.crt", d.dir / "server.key"}));
}

TEST(TlsContext, MissingCertificateFile) {
  ConfigDir d("tls_server_config:\n  cert_file: missing.crt\n  key_file: server.key\n");
  auto loaded = LoadWebConfig(d.path);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.error().message,
            d.path + ": tls_server_config.cert_file: " + (d.dir / "missing.crt") +
                ": cannot read the certificate: No such file or directory");
}

TEST(TlsContext, KeyThatDoesNotMatchTheCertificate) {
  ConfigDir d("tls_server_config:\n  cert_file: server.crt\n  key_file: other.key\n");
  d.dir.Write("other.key", SelfSigned("other").key);
  auto loaded = LoadWebConfig(d.path);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.error().message,
            d.path + ": tls_server_config.key_file " + (d.dir / "other.key") +
                " does not match the certificate in tls_server_config.cert_file " +
                (d.dir / "server.crt"));
}

TEST(TlsContext, NotPem) {
  ConfigDir d("tls_server_config:\n  cert_file: server.key\n  key_file: server.crt\n");
  auto loaded = LoadWebConfig(d.path);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.error().message, d.path + ": tls_server_config.cert_file " +
                                        (d.dir / "server.key") + ": no PEM certificate found");
  ConfigDir e("tls_server_config:\n  cert_file: server.crt\n  key_file: server.crt\n");
  auto k = LoadWebConfig(e.path);
  ASSERT_FALSE(k.ok());
  EXPECT_EQ(k.error().message,
            e.path + ": tls_server_config.key_file " + (e.dir / "server.crt") +
                ": no PEM private key found (a passphrase-protected key is not supported)");
}

TEST(TlsContext, InlinePemAndClientCa) {
  Pem server = SelfSigned("127.0.0.1");
  Pem ca = SelfSigned("test CA");
  auto indent = [](const std::string& pem) {
    std::string out;
    for (char c : pem) {
      out += c;
      if (c == '\n') out += "    ";
    }
    return out;
  };
  ConfigDir d("tls_server_config:\n  cert: |\n    " + indent(server.cert) + "\n  key: |\n    " +
              indent(server.key) + "\n  client_ca: |\n    " + indent(ca.cert) +
              "\n  client_auth_type: RequireAndVerifyClientCert\n");
  auto loaded = LoadWebConfig(d.path);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_TRUE((*loaded)->tls->files().empty());
  EXPECT_EQ((*loaded)->tls->client_auth(), ClientAuth::kRequireAndVerifyClientCert);
}

TEST(TlsContext, CipherSuitesByTheirIanaNames) {
  ConfigDir good(
      "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n"
      "  cipher_suites: [TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, TLS_AES_128_GCM_SHA256]\n");
  auto ok = LoadWebConfig(good.path);
  EXPECT_TRUE(ok.ok()) << ok.error().message;
  ConfigDir bad(
      "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n"
      "  cipher_suites: [TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA385]\n");
  auto err = LoadWebConfig(bad.path);
  ASSERT_FALSE(err.ok());
  EXPECT_EQ(err.error().message, bad.path +
                                     ": tls_server_config.cipher_suites: unknown cipher suite "
                                     "\"TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA385\" (did you mean "
                                     "\"TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384\"?)");
}

TEST(TlsContext, ExpiredCertificateLoadsWithAWarning) {
  ConfigDir d("tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n",
              SelfSigned("127.0.0.1", -30));
  auto loaded = LoadWebConfig(d.path);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  ASSERT_EQ((*loaded)->tls->warnings().size(), 1u);
  EXPECT_NE((*loaded)->tls->warnings()[0].find(": the certificate expired on "), std::string::npos);
}

// ---------------------------------------------------------------------------------------
// Reloading

TEST(WebConfigReloader, CertificateRotationWithoutRestart) {
  ConfigDir d("tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n",
              SelfSigned("first"));
  auto r = WebConfigReloader::Open(d.path, std::chrono::hours(1));
  ASSERT_TRUE(r.ok()) << r.error().message;
  auto before = (*r)->Current();
  EXPECT_EQ(before->tls->summary().rfind("/CN=first,", 0), 0u);
  EXPECT_FALSE((*r)->CheckNow());  // nothing changed

  // Rotate: the new key first (it does not match the old certificate yet), then the new
  // certificate. In between the old pair stays in force.
  Pem second = SelfSigned("second");
  d.dir.Write("server.key", second.key);
  EXPECT_FALSE((*r)->CheckNow());
  EXPECT_EQ((*r)->Current(), before);
  d.dir.Write("server.crt", second.cert);
  EXPECT_TRUE((*r)->CheckNow());
  EXPECT_EQ((*r)->Current()->tls->summary().rfind("/CN=second,", 0), 0u);
  EXPECT_EQ((*r)->reloads(), 1u);
  // The first context lives on while a connection holds it.
  EXPECT_NE(before->tls->ssl_ctx(), nullptr);
}

TEST(WebConfigReloader, UsersChangeAndTlsCannotBeSwitched) {
  TestDir dir;
  const std::string path = dir / "web.yml";
  dir.Write("web.yml", "basic_auth_users:\n  alice: " + std::string(kHashS3cret) + "\n");
  auto r = WebConfigReloader::Open(path, std::chrono::milliseconds(0));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_FALSE((*r)->tls());
  dir.Write("web.yml",
            "basic_auth_users:\n  bob: " + std::string(kHashOther) + "\n# a longer file\n");
  EXPECT_TRUE((*r)->CheckNow());  // interval 0: no watcher, checked when asked
  auto now = (*r)->Current();
  EXPECT_EQ(now->config.users.count("bob"), 1u);
  EXPECT_EQ(now->config.users.count("alice"), 0u);
  Pem pem = SelfSigned("x");
  dir.Write("s.crt", pem.cert);
  dir.Write("s.key", pem.key);
  dir.Write("web.yml", "tls_server_config:\n  cert_file: s.crt\n  key_file: s.key\n");
  EXPECT_FALSE((*r)->CheckNow());
  EXPECT_EQ((*r)->Current(), now);  // still plain HTTP with bob
  dir.Write("web.yml", "tls_server_config:\n  cert_fle: s.crt\n");
  EXPECT_FALSE((*r)->CheckNow());
  EXPECT_EQ((*r)->Current(), now);
}

TEST(WebConfigReloader, StartupErrorsNameTheFile) {
  TestDir dir;
  auto r = WebConfigReloader::Open(dir / "nope.yml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            dir / "nope.yml" + ": cannot read the web config: No such file or directory");
}

// ---------------------------------------------------------------------------------------
// Basic auth

std::string Basic(const std::string& user_password) {
  std::string out(4 * ((user_password.size() + 2) / 3) + 1, '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(user_password.data()),
                                static_cast<int>(user_password.size()));
  out.resize(static_cast<std::size_t>(n));
  return "Basic " + out;
}

TEST(BasicAuth, ParsesTheAuthorizationHeader) {
  auto c = ParseBasicAuthorization(Basic("alice:s3:cret"));
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->user, "alice");
  EXPECT_EQ(c->password, "s3:cret");  // split at the first ':'
  auto lower = ParseBasicAuthorization("basic   " + Basic("a:b").substr(6));
  ASSERT_TRUE(lower.has_value());
  EXPECT_EQ(lower->user, "a");
  EXPECT_FALSE(ParseBasicAuthorization(Basic("no colon")).has_value());
  EXPECT_FALSE(ParseBasicAuthorization(Basic(std::string("a:b\0c", 5))).has_value());
  EXPECT_FALSE(ParseBasicAuthorization("Bearer abc").has_value());
  EXPECT_FALSE(ParseBasicAuthorization("Basic !!!!").has_value());
  EXPECT_FALSE(ParseBasicAuthorization("Basic").has_value());
}

TEST(BasicAuth, ChecksBcryptCachesSuccessAndCostsTheSameForUnknownUsers) {
  const std::map<std::string, std::string> users = {{"alice", kHashS3cret}, {"bob", kHashOther}};
  BasicAuthenticator auth;
  EXPECT_TRUE(auth.Allows({}, nullptr));  // no users: no authentication
  EXPECT_FALSE(auth.Allows(users, nullptr));
  EXPECT_FALSE(auth.Allows(users, ""));
  EXPECT_EQ(auth.bcrypt_checks(), 0u);

  EXPECT_TRUE(auth.Allows(users, Basic("alice:s3cret").c_str()));
  EXPECT_EQ(auth.bcrypt_checks(), 1u);
  EXPECT_TRUE(auth.Allows(users, Basic("alice:s3cret").c_str()));
  EXPECT_EQ(auth.bcrypt_checks(), 1u) << "a repeated success is served from the cache";
  EXPECT_FALSE(auth.Allows(users, Basic("alice:wrong").c_str()));
  EXPECT_EQ(auth.bcrypt_checks(), 2u);
  EXPECT_FALSE(auth.Allows(users, Basic("alice:wrong").c_str()));
  EXPECT_EQ(auth.bcrypt_checks(), 3u) << "failures are never cached";
  // An unknown user runs bcrypt too (against a configured hash), even with that hash's password.
  EXPECT_FALSE(auth.Allows(users, Basic("mallory:s3cret").c_str()));
  EXPECT_EQ(auth.bcrypt_checks(), 4u);
  EXPECT_TRUE(auth.Check(users, "bob", "other pass"));
  EXPECT_FALSE(auth.Check(users, "bob", "s3cret"));
  // A new hash for alice (a changed password) misses the cache.
  const std::map<std::string, std::string> changed = {{"alice", kHashOther}};
  EXPECT_FALSE(auth.Check(changed, "alice", "s3cret"));
  EXPECT_TRUE(auth.Check(changed, "alice", "other pass"));
}

TEST(BasicAuth, CacheExpires) {
  const std::map<std::string, std::string> users = {{"alice", kHashS3cret}};
  BasicAuthenticator auth(std::chrono::seconds(0));
  EXPECT_TRUE(auth.Check(users, "alice", "s3cret"));
  EXPECT_TRUE(auth.Check(users, "alice", "s3cret"));
  EXPECT_EQ(auth.bcrypt_checks(), 2u);
}

// Issue 13 item 7: a cost-31 hash made one anonymous request block authentication for
// everyone. The cost is capped at load (and again at check time).
TEST(BasicAuth, BcryptCostAboveTheCapIsRefusedAtLoad) {
  EXPECT_EQ(BcryptCost("$2y$10$abcdefghijklmnopqrstuuabcdefghijklmnopqrstuvwxyz01234"), 10);
  EXPECT_FALSE(BcryptCost("$1$x").has_value());
  const std::string cost31 = "$2y$31$abcdefghijklmnopqrstuuabcdefghijklmnopqrstuvwxyz01234";
  auto parsed = ParseWebConfig("basic_auth_users:\n  alice: '" + cost31 + "'\n", "w.yml");
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.error().message.find("bcrypt cost 31 is above the maximum 14"),
            std::string::npos)
      << parsed.error().message;
  const std::string cost14 = "$2y$14$abcdefghijklmnopqrstuuabcdefghijklmnopqrstuvwxyz01234";
  EXPECT_TRUE(ParseWebConfig("basic_auth_users:\n  alice: '" + cost14 + "'\n", "w.yml").ok());
  // Verify refuses it too, without running bcrypt, whatever handed it the hash.
  BasicAuthenticator auth;
  EXPECT_FALSE(auth.Check({{"alice", cost31}}, "alice", "x"));
  EXPECT_EQ(auth.bcrypt_checks(), 0u);
}

// Users are found by comparing every name (constant time); a prefix, an extension or a
// different case of a name is another, unknown user.
TEST(BasicAuth, UserLookupIsExact) {
  const std::map<std::string, std::string> users = {{"alice", kHashS3cret}, {"al", kHashOther}};
  BasicAuthenticator auth;
  EXPECT_TRUE(auth.Check(users, "alice", "s3cret"));
  EXPECT_TRUE(auth.Check(users, "al", "other pass"));
  for (const char* user : {"alic", "alicee", "Alice", "", "al\xff"}) {
    EXPECT_FALSE(auth.Check(users, user, "s3cret")) << user;
    EXPECT_FALSE(auth.Check(users, user, "other pass")) << user;
  }
}

// ---------------------------------------------------------------------------------------
// The request parser and the router of the one HTTP server (HTTP and HTTPS alike)

TEST(Routes, OnlyTheTwoPathsToGetAndHeadAfterAuthentication) {
  Router router;
  router.Add(RouteSpec{"/metrics", nullptr, true, true, {}});
  router.Add(RouteSpec{"/", nullptr, false, false, {}});
  auto route = [&](std::string_view method, std::string_view path, bool authorized) {
    return router.Decide(method, path, authorized);
  };
  EXPECT_EQ(route("GET", "/metrics", true).route, Route::kServe);
  EXPECT_EQ(route("GET", "/metrics", true).spec->path, "/metrics");
  EXPECT_EQ(route("HEAD", "/metrics", true).spec->path, "/metrics");
  EXPECT_EQ(route("GET", "/", true).spec->path, "/");
  for (const char* path : {"/metrics/x", "/metrics/", "/../../etc/passwd", "/etc/passwd",
                           "//metrics", "/Metrics", "/favicon.ico", "/./metrics", "/metrics%00",
                           "/%6detrics", "/metrics;x", "/metrics/.", ""}) {
    EXPECT_EQ(route("GET", path, true).route, Route::kNotFound) << path;
  }
  for (const char* method : {"POST", "PUT", "DELETE", "OPTIONS", "TRACE", "CONNECT", "get"}) {
    EXPECT_EQ(route(method, "/metrics", true).route, Route::kMethodNotAllowed) << method;
  }
  // Without credentials nothing is revealed, not even which paths exist.
  EXPECT_EQ(route("GET", "/metrics", false).route, Route::kUnauthorized);
  EXPECT_EQ(route("POST", "/nope", false).route, Route::kUnauthorized);

  HttpResponse r = RouteResponse(Route::kUnauthorized, kAuthRealm);
  EXPECT_EQ(r.status, 401);
  EXPECT_EQ(ResponseHead(r, r.body.size(), true, {{"Strict-Transport-Security", "max-age=1"}}),
            "HTTP/1.1 401 Unauthorized\r\nContent-Type: text/plain; charset=utf-8\r\n"
            "WWW-Authenticate: Basic realm=\"roce_exporter\", charset=\"UTF-8\"\r\n"
            "Strict-Transport-Security: max-age=1\r\nContent-Length: 13\r\nConnection: "
            "keep-alive\r\n\r\n");
  EXPECT_EQ(RouteResponse(Route::kMethodNotAllowed, kAuthRealm).headers.back(),
            (std::pair<std::string, std::string>{"Allow", "GET, HEAD"}));
}

TEST(Gzip, AcceptEncodingAndRoundTripSize) {
  EXPECT_TRUE(AcceptsGzip("gzip"));
  EXPECT_TRUE(AcceptsGzip("deflate, GZIP;q=0.5"));
  EXPECT_TRUE(AcceptsGzip("*"));
  EXPECT_FALSE(AcceptsGzip("gzip;q=0"));
  EXPECT_FALSE(AcceptsGzip("identity"));
  EXPECT_FALSE(AcceptsGzip("gzipx"));
  std::string text;
  for (int i = 0; i < 1000; ++i) text += "roce_port_state{device=\"mlx5_0\",port=\"1\"} 4\n";
  auto gz = GzipCompress(text);
  ASSERT_TRUE(gz.has_value());
  EXPECT_LT(gz->size(), text.size() / 20);
  EXPECT_EQ(static_cast<unsigned char>((*gz)[0]), 0x1f);  // gzip magic
  EXPECT_EQ(static_cast<unsigned char>((*gz)[1]), 0x8b);
}

}  // namespace
}  // namespace rocewatch::http
