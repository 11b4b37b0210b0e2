#ifndef ASSENT_COPENSSL_SHIM_H
#define ASSENT_COPENSSL_SHIM_H
#include <openssl/evp.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/kdf.h>
#include <openssl/x509.h>
#include <openssl/bn.h>
#include <openssl/ecdsa.h>
#endif
