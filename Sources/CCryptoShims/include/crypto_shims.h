#ifndef ASSENT_CRYPTO_SHIMS_H
#define ASSENT_CRYPTO_SHIMS_H
// Thin C wrappers for the OpenSSL 3 calls Swift cannot import directly: function-like macros,
// variadic functions and OSSL_PARAM construction. Each function returns what OpenSSL returned
// (NULL or 0 on failure, leaving the reason on OpenSSL's error queue); the Swift caller checks it.
#include <stddef.h>
#include <openssl/evp.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Generates a fresh P-256 key pair (`EVP_EC_gen("P-256")`, a macro over a variadic call). NULL on failure.
EVP_PKEY *assent_p256_generate(void);

/// Imports a P-256 public key from a SEC1 point (65-byte uncompressed or 33-byte compressed).
/// OpenSSL's point decoder rejects points that are not on the curve. NULL on failure.
EVP_PKEY *assent_p256_public_key_from_point(const unsigned char *point, size_t point_len);

/// Imports a P-256 key pair from a 32-byte big-endian private scalar in [1, n-1], computing the
/// public point. NULL on failure (including a scalar out of range).
EVP_PKEY *assent_p256_key_pair_from_scalar(const unsigned char *scalar, size_t scalar_len);

/// HKDF-SHA256 (RFC 5869, extract-then-expand) through EVP_KDF. Returns 1 on success, 0 on failure.
int assent_hkdf_sha256(unsigned char *out, size_t out_len,
                       const unsigned char *ikm, size_t ikm_len,
                       const unsigned char *salt, size_t salt_len,
                       const unsigned char *info, size_t info_len);

#ifdef __cplusplus
}
#endif

#endif
