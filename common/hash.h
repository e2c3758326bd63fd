/* hash: SHA-256 as lowercase hex (OpenSSL EVP). */
#ifndef KOPT_HASH_H
#define KOPT_HASH_H
#include <stddef.h>

#include "contract.h"

/* Writes 64 hex chars + NUL into out. 0 or -EIO. */
int hash_sha256_hex(const void *data, size_t len, char out[KOPT_SHA256_HEX_SIZE]);

#endif
