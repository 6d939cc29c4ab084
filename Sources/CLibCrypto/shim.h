#ifndef CLIBCRYPTO_SHIM_H
#define CLIBCRYPTO_SHIM_H
// OpenSSL's libcrypto (3.x) for LiftboardAuth: HMAC, Ed25519 and ECDSA P-256 through EVP.
// Only glue lives here (OSSL_PARAM arrays, which Swift cannot build tidily); every
// cryptographic operation is libcrypto's own.
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/ec.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/err.h>
#include <openssl/rand.h>

/// A P-256 key from its uncompressed point (0x04 || x || y, 65 bytes) and, when `priv` is not
/// NULL, its private scalar (32 bytes, big-endian). NULL when libcrypto refuses it (a point
/// off the curve among others).
static inline EVP_PKEY *clc_p256_key(const unsigned char *point, size_t point_len,
                                     const unsigned char *priv, size_t priv_len) {
    EVP_PKEY *pkey = NULL;
    BIGNUM *d = NULL;
    if (priv != NULL && (d = BN_bin2bn(priv, (int)priv_len, NULL)) == NULL) return NULL;
    char group[] = "prime256v1";
    OSSL_PARAM params[4];
    int n = 0;
    params[n++] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, group, 0);
    params[n++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, (void *)point, point_len);
    unsigned char dbuf[32];
    if (d != NULL) {
        // OSSL_PARAM carries a BIGNUM as native-endian bytes.
        if (BN_bn2nativepad(d, dbuf, sizeof dbuf) < 0) { BN_clear_free(d); return NULL; }
        params[n++] = OSSL_PARAM_construct_BN(OSSL_PKEY_PARAM_PRIV_KEY, dbuf, sizeof dbuf);
    }
    params[n] = OSSL_PARAM_construct_end();
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    if (ctx != NULL && EVP_PKEY_fromdata_init(ctx) == 1) {
        if (EVP_PKEY_fromdata(ctx, &pkey, d != NULL ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params) != 1) pkey = NULL;
    }
    EVP_PKEY_CTX_free(ctx);
    OPENSSL_cleanse(dbuf, sizeof dbuf);
    BN_clear_free(d);
    if (pkey == NULL) return NULL;
    // The point must lie on the curve (and the pair must match when a private scalar is given).
    EVP_PKEY_CTX *check = EVP_PKEY_CTX_new_from_pkey(NULL, pkey, NULL);
    int ok = check != NULL && (priv != NULL ? EVP_PKEY_pairwise_check(check) : EVP_PKEY_public_check(check)) == 1;
    EVP_PKEY_CTX_free(check);
    if (!ok) { EVP_PKEY_free(pkey); return NULL; }
    return pkey;
}

/// Clears libcrypto's error queue on this thread (a refused key or signature leaves entries).
static inline void clc_clear_errors(void) { ERR_clear_error(); }

#endif
