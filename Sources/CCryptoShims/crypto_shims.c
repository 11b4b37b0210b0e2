#include "crypto_shims.h"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/kdf.h>
#include <openssl/obj_mac.h>
#include <openssl/params.h>

// OpenSSL's parameter APIs take `char *` for values they only read.
static char assent_group_name[] = "prime256v1";
static char assent_uncompressed[] = "uncompressed";
static char assent_sha256_name[] = "SHA256";

static EVP_PKEY *assent_p256_from_params(OSSL_PARAM *params, int selection) {
    EVP_PKEY *pkey = NULL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    if (ctx == NULL) {
        return NULL;
    }
    if (EVP_PKEY_fromdata_init(ctx) != 1 || EVP_PKEY_fromdata(ctx, &pkey, selection, params) != 1) {
        EVP_PKEY_free(pkey);
        pkey = NULL;
    }
    EVP_PKEY_CTX_free(ctx);
    return pkey;
}

EVP_PKEY *assent_p256_generate(void) {
    return EVP_EC_gen("P-256");
}

EVP_PKEY *assent_p256_public_key_from_point(const unsigned char *point, size_t point_len) {
    if (point == NULL || point_len == 0) {
        return NULL;
    }
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, assent_group_name, 0),
        OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, (void *)point, point_len),
        OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT, assent_uncompressed, 0),
        OSSL_PARAM_construct_end(),
    };
    return assent_p256_from_params(params, EVP_PKEY_PUBLIC_KEY);
}

EVP_PKEY *assent_p256_key_pair_from_scalar(const unsigned char *scalar, size_t scalar_len) {
    EVP_PKEY *pkey = NULL;
    EC_GROUP *group = NULL;
    EC_POINT *public_point = NULL;
    BIGNUM *private_bn = NULL;
    unsigned char public_octets[65];
    unsigned char private_native[32];
    size_t public_len = 0;

    if (scalar == NULL || scalar_len != 32) {
        return NULL;
    }
    group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
    private_bn = BN_secure_new();
    if (group == NULL || private_bn == NULL) {
        goto done;
    }
    BN_set_flags(private_bn, BN_FLG_CONSTTIME);
    if (BN_bin2bn(scalar, (int)scalar_len, private_bn) == NULL) {
        goto done;
    }
    if (BN_is_zero(private_bn) || BN_cmp(private_bn, EC_GROUP_get0_order(group)) >= 0) {
        goto done;
    }
    public_point = EC_POINT_new(group);
    if (public_point == NULL || EC_POINT_mul(group, public_point, private_bn, NULL, NULL, NULL) != 1) {
        goto done;
    }
    public_len = EC_POINT_point2oct(group, public_point, POINT_CONVERSION_UNCOMPRESSED,
                                    public_octets, sizeof(public_octets), NULL);
    if (public_len != sizeof(public_octets)) {
        goto done;
    }
    // OSSL_PARAM integers are native-endian unsigned byte strings.
    if (BN_bn2nativepad(private_bn, private_native, sizeof(private_native)) != (int)sizeof(private_native)) {
        goto done;
    }
    {
        OSSL_PARAM params[] = {
            OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, assent_group_name, 0),
            OSSL_PARAM_construct_BN(OSSL_PKEY_PARAM_PRIV_KEY, private_native, sizeof(private_native)),
            OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, public_octets, public_len),
            OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT, assent_uncompressed, 0),
            OSSL_PARAM_construct_end(),
        };
        pkey = assent_p256_from_params(params, EVP_PKEY_KEYPAIR);
    }

done:
    OPENSSL_cleanse(private_native, sizeof(private_native));
    EC_POINT_free(public_point);
    BN_clear_free(private_bn);
    EC_GROUP_free(group);
    return pkey;
}

int assent_hkdf_sha256(unsigned char *out, size_t out_len,
                       const unsigned char *ikm, size_t ikm_len,
                       const unsigned char *salt, size_t salt_len,
                       const unsigned char *info, size_t info_len) {
    static const unsigned char empty = 0;
    int ok = 0;
    EVP_KDF *kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
    EVP_KDF_CTX *ctx = NULL;
    if (kdf == NULL) {
        return 0;
    }
    ctx = EVP_KDF_CTX_new(kdf);
    if (ctx != NULL) {
        // An empty salt is valid HKDF input (it means HashLen zero bytes); OpenSSL wants a non-NULL pointer.
        OSSL_PARAM params[] = {
            OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, assent_sha256_name, 0),
            OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)(ikm_len ? ikm : &empty), ikm_len),
            OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)(salt_len ? salt : &empty), salt_len),
            OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, (void *)(info_len ? info : &empty), info_len),
            OSSL_PARAM_construct_end(),
        };
        ok = EVP_KDF_derive(ctx, out, out_len, params) == 1;
    }
    EVP_KDF_CTX_free(ctx);
    EVP_KDF_free(kdf);
    return ok;
}
