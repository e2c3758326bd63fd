#include <errno.h>
#include <openssl/evp.h>
#include <stdio.h>

#include "hash.h"

int hash_sha256_hex(const void *data, size_t len, char out[KOPT_SHA256_HEX_SIZE])
{
  unsigned char h[32];
  unsigned int n = 0;
  if (EVP_Digest(data, len, h, &n, EVP_sha256(), NULL) != 1 || n != 32)
    return -EIO;
  for (int i = 0; i < 32; i++)
    snprintf(out + 2 * i, 3, "%02x", h[i]);
  return 0;
}
