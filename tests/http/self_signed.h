#pragma once

// A self-signed P-256 certificate and its key, made at test time, for the TLS tests.

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <string>

namespace rocewatch::http::testing {

struct Pem {
  std::string cert, key;
};

// A self-signed P-256 certificate for `cn`, valid from a minute ago for `valid_seconds`.
inline Pem SelfSigned(const std::string& cn, long valid_seconds = 3600) {
  static int serial = 1;
  EVP_PKEY* key = EVP_EC_gen("P-256");
  X509* x = X509_new();
  X509_set_version(x, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(x), serial++);
  X509_gmtime_adj(X509_getm_notBefore(x), -60);
  X509_gmtime_adj(X509_getm_notAfter(x), valid_seconds);
  X509_set_pubkey(x, key);
  X509_NAME* name = X509_get_subject_name(x);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>(cn.c_str()), -1, -1, 0);
  X509_set_issuer_name(x, name);
  X509_sign(x, key, EVP_sha256());
  auto to_string = [](BIO* bio) {
    char* data = nullptr;
    long len = BIO_get_mem_data(bio, &data);
    std::string s(data, static_cast<std::size_t>(len));
    BIO_free(bio);
    return s;
  };
  BIO* cb = BIO_new(BIO_s_mem());
  PEM_write_bio_X509(cb, x);
  BIO* kb = BIO_new(BIO_s_mem());
  PEM_write_bio_PrivateKey(kb, key, nullptr, nullptr, 0, nullptr, nullptr);
  Pem out{to_string(cb), to_string(kb)};
  X509_free(x);
  EVP_PKEY_free(key);
  return out;
}

}  // namespace rocewatch::http::testing
