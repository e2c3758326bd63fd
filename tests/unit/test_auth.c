/* Unit tests for daemon/auth.c: token format, hashing, the Authorization header parser,
 * roles, and auth_resolve against the cache alone (conn = NULL). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "auth.h"
#include "tokens.h"
#include "hash.h"

static const char b64url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
/* A syntactically valid token (kopt_ + 43 base64url characters). */
static const char good_token[] = "kopt_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

static void to_hex(const unsigned char *h, size_t n, char *out)
{
  for (size_t i = 0; i < n; i++)
    snprintf(out + 2 * i, 3, "%02x", h[i]);
}

/* ------------------------------------------------------------------------------ tokens */

static void test_token_format(void **state)
{
  char tok[AUTH_TOKEN_LEN + 1];
  (void)state;
  assert_int_equal(strlen(good_token), AUTH_TOKEN_LEN);
  memset(tok, '#', sizeof(tok));
  assert_int_equal(auth_token_generate(tok, sizeof(tok)), 0);
  assert_int_equal(strlen(tok), AUTH_TOKEN_LEN);
  assert_int_equal(AUTH_TOKEN_LEN, 5 + 43);
  assert_memory_equal(tok, "kopt_", 5);
  for (size_t i = 5; i < AUTH_TOKEN_LEN; i++)
    assert_non_null(memchr(b64url, tok[i], 64));
  /* 256 bits = 42 full characters + 4 bits: the last character's low 2 bits are zero. */
  assert_int_equal((strchr(b64url, tok[AUTH_TOKEN_LEN - 1]) - b64url) & 3, 0);
}

static void test_token_distinct(void **state)
{
  enum { N = 64 };
  char toks[N][AUTH_TOKEN_LEN + 1];
  (void)state;
  for (int i = 0; i < N; i++) {
    assert_int_equal(auth_token_generate(toks[i], sizeof(toks[i])), 0);
    for (int j = 0; j < i; j++)
      assert_string_not_equal(toks[i], toks[j]);
  }
}

static void test_token_buffer_too_small(void **state)
{
  char tok[AUTH_TOKEN_LEN + 1];
  (void)state;
  memset(tok, 'x', sizeof(tok));
  assert_int_equal(auth_token_generate(tok, AUTH_TOKEN_LEN), -EINVAL);
  assert_int_equal(tok[0], 'x'); /* nothing written */
  assert_int_equal(auth_token_generate(tok, 0), -EINVAL);
}

static void test_generated_token_passes_bearer(void **state)
{
  char tok[AUTH_TOKEN_LEN + 1], hdr[80];
  size_t len = 0;
  (void)state;
  for (int i = 0; i < 32; i++) {
    assert_int_equal(auth_token_generate(tok, sizeof(tok)), 0);
    snprintf(hdr, sizeof(hdr), "Bearer %s", tok);
    assert_ptr_equal(auth_bearer(hdr, &len), hdr + 7);
    assert_int_equal(len, AUTH_TOKEN_LEN);
  }
}

static void test_hash_vectors(void **state)
{
  unsigned char h[32];
  char hex[65], hex2[65];
  (void)state;
  /* FIPS 180-2 test vectors. */
  assert_int_equal(auth_token_hash("abc", 3, h), 0);
  to_hex(h, 32, hex);
  assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assert_int_equal(auth_token_hash("", 0, h), 0);
  to_hex(h, 32, hex);
  assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  assert_int_equal(
      auth_token_hash("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, h), 0);
  to_hex(h, 32, hex);
  assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  /* Only len bytes are hashed. */
  assert_int_equal(auth_token_hash("abcdef", 3, h), 0);
  to_hex(h, 32, hex);
  assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  /* common/hash.c agrees. */
  assert_int_equal(hash_sha256_hex(good_token, strlen(good_token), hex2), 0);
  assert_int_equal(auth_token_hash(good_token, strlen(good_token), h), 0);
  to_hex(h, 32, hex);
  assert_string_equal(hex, hex2);
}

/* ----------------------------------------------------------------------------- bearer */

static void test_bearer_ok(void **state)
{
  char hdr[128];
  size_t len = 0;
  const char *t;
  (void)state;
  snprintf(hdr, sizeof(hdr), "Bearer %s", good_token);
  t = auth_bearer(hdr, &len);
  assert_ptr_equal(t, hdr + 7);
  assert_int_equal(len, AUTH_TOKEN_LEN);
  /* The scheme is case-insensitive (RFC 9110). */
  snprintf(hdr, sizeof(hdr), "bearer %s", good_token);
  assert_non_null(auth_bearer(hdr, &len));
  snprintf(hdr, sizeof(hdr), "BEARER %s", good_token);
  assert_non_null(auth_bearer(hdr, &len));
  snprintf(hdr, sizeof(hdr), "bEaReR %s", good_token);
  assert_non_null(auth_bearer(hdr, &len));
  /* Extra spaces around the token are tolerated; len excludes them. */
  snprintf(hdr, sizeof(hdr), "Bearer   %s  ", good_token);
  len = 0;
  t = auth_bearer(hdr, &len);
  assert_ptr_equal(t, hdr + 9);
  assert_int_equal(len, AUTH_TOKEN_LEN);
  assert_memory_equal(t, good_token, AUTH_TOKEN_LEN);
}

static void test_bearer_rejects(void **state)
{
  char hdr[160], tok[AUTH_TOKEN_LEN + 8];
  size_t len = 12345;
  (void)state;
  assert_null(auth_bearer(NULL, &len));
  assert_null(auth_bearer("", &len));
  assert_null(auth_bearer("Bearer", &len));
  assert_null(auth_bearer("Bearer ", &len));
  assert_null(auth_bearer("Bearer    ", &len));
  /* Other schemes and a missing separator. */
  snprintf(hdr, sizeof(hdr), "Basic %s", good_token);
  assert_null(auth_bearer(hdr, &len));
  snprintf(hdr, sizeof(hdr), "Bearer%s", good_token);
  assert_null(auth_bearer(hdr, &len));
  snprintf(hdr, sizeof(hdr), "Bearer\t%s", good_token);
  assert_null(auth_bearer(hdr, &len));
  snprintf(hdr, sizeof(hdr), "%s", good_token);
  assert_null(auth_bearer(hdr, &len));
  /* Wrong length: one short, one long. */
  snprintf(hdr, sizeof(hdr), "Bearer %.*s", AUTH_TOKEN_LEN - 1, good_token);
  assert_null(auth_bearer(hdr, &len));
  snprintf(hdr, sizeof(hdr), "Bearer %sA", good_token);
  assert_null(auth_bearer(hdr, &len));
  /* Wrong prefix. */
  memcpy(tok, good_token, sizeof(good_token));
  tok[3] = 'x';
  snprintf(hdr, sizeof(hdr), "Bearer %s", tok);
  assert_null(auth_bearer(hdr, &len));
  /* Characters outside base64url, anywhere after the prefix. */
  {
    static const char bad[] = { '+', '/', '=', '.', ' ', '~', '\x80', '%' };
    for (size_t b = 0; b < sizeof(bad); b++) {
      for (size_t pos = 5; pos < AUTH_TOKEN_LEN - 1; pos += 19) {
        memcpy(tok, good_token, sizeof(good_token));
        tok[pos] = bad[b];
        snprintf(hdr, sizeof(hdr), "Bearer %s", tok);
        assert_null(auth_bearer(hdr, &len));
      }
    }
  }
  /* Two tokens. */
  snprintf(hdr, sizeof(hdr), "Bearer %s %s", good_token, good_token);
  assert_null(auth_bearer(hdr, &len));
  assert_int_equal(len, 12345); /* untouched by failures */
}

/* ------------------------------------------------------------------------------ roles */

static void test_roles(void **state)
{
  (void)state;
  assert_int_equal(auth_role_parse("viewer"), AUTH_VIEWER);
  assert_int_equal(auth_role_parse("submitter"), AUTH_SUBMITTER);
  assert_int_equal(auth_role_parse("admin"), AUTH_ADMIN);
  assert_int_equal(auth_role_parse("Admin"), AUTH_NONE);
  assert_int_equal(auth_role_parse("root"), AUTH_NONE);
  assert_int_equal(auth_role_parse(""), AUTH_NONE);
  assert_int_equal(auth_role_parse("viewer "), AUTH_NONE);
  assert_int_equal(auth_role_parse(NULL), AUTH_NONE);
  assert_string_equal(auth_role_name(AUTH_VIEWER), "viewer");
  assert_string_equal(auth_role_name(AUTH_SUBMITTER), "submitter");
  assert_string_equal(auth_role_name(AUTH_ADMIN), "admin");
  assert_string_equal(auth_role_name(AUTH_NONE), "none");
  assert_string_equal(auth_role_name((enum auth_role)42), "none");
  for (int r = AUTH_VIEWER; r <= AUTH_ADMIN; r++)
    assert_int_equal(auth_role_parse(auth_role_name((enum auth_role)r)), r);
  /* Roles are ordered: a higher role includes the lower ones. */
  assert_true(AUTH_NONE < AUTH_VIEWER && AUTH_VIEWER < AUTH_SUBMITTER &&
              AUTH_SUBMITTER < AUTH_ADMIN);
}

/* ------------------------------------------------------------------------------ cache */

struct cache_fixture {
  struct auth_cache cache;
  char header[128];
  unsigned char hash[32];
};

static int cache_setup(void **state)
{
  struct cache_fixture *f = calloc(1, sizeof(*f));
  if (!f)
    return -1;
  auth_cache_init(&f->cache);
  snprintf(f->header, sizeof(f->header), "Bearer %s", good_token);
  if (auth_token_hash(good_token, strlen(good_token), f->hash))
    return -1;
  *state = f;
  return 0;
}

static int cache_teardown(void **state)
{
  struct cache_fixture *f = *state;
  auth_cache_destroy(&f->cache);
  free(f);
  return 0;
}

/* Puts an entry for hash into every slot, so the test does not depend on the slot function. */
static void cache_put_all(struct auth_cache *c, const unsigned char hash[32], enum auth_role role,
                          long long token_id, int64_t expires_ms, int used)
{
  for (unsigned i = 0; i < AUTH_CACHE_SLOTS; i++) {
    memcpy(c->slots[i].hash, hash, 32);
    c->slots[i].id.role = role;
    c->slots[i].id.token_id = token_id;
    c->slots[i].expires_ms = expires_ms;
    c->slots[i].used = used;
  }
}

static void test_resolve_unknown(void **state)
{
  struct cache_fixture *f = *state;
  struct auth_identity id = { .role = AUTH_ADMIN, .token_id = 99 };
  assert_int_equal(auth_resolve(&f->cache, 1, NULL, f->header, &id, 1000), 0);
  assert_int_equal(id.role, AUTH_NONE);
  assert_int_equal(id.token_id, 0);
}

static void test_resolve_malformed_header(void **state)
{
  struct cache_fixture *f = *state;
  struct auth_identity id = { .role = AUTH_ADMIN, .token_id = 99 };
  /* Even with every slot holding the token, a bad header resolves to nobody. */
  cache_put_all(&f->cache, f->hash, AUTH_ADMIN, 5, 1000000, 1);
  assert_int_equal(auth_resolve(&f->cache, 1, NULL, NULL, &id, 1000), 0);
  assert_int_equal(id.role, AUTH_NONE);
  id.role = AUTH_ADMIN;
  assert_int_equal(auth_resolve(&f->cache, 1, NULL, good_token, &id, 1000), 0); /* no scheme */
  assert_int_equal(id.role, AUTH_NONE);
  id.role = AUTH_ADMIN;
  assert_int_equal(auth_resolve(&f->cache, 1, NULL, "Bearer kopt_short", &id, 1000), 0);
  assert_int_equal(id.role, AUTH_NONE);
}

static void test_resolve_cached(void **state)
{
  struct cache_fixture *f = *state;
  struct auth_identity id = { .role = AUTH_NONE };
  cache_put_all(&f->cache, f->hash, AUTH_SUBMITTER, 17, 5000, 1);
  assert_int_equal(auth_resolve(&f->cache, 1, NULL, f->header, &id, 1000), 0);
  assert_int_equal(id.role, AUTH_SUBMITTER);
  assert_int_equal(id.token_id, 17);
  /* The scheme's case does not matter. */
  id.role = AUTH_NONE;
  f->header[0] = 'b';
  assert_int_equal(auth_resolve(&f->cache, 1, NULL, f->header, &id, 4999), 0);
  assert_int_equal(id.role, AUTH_SUBMITTER);
}

static void test_resolve_only_that_token(void **state)
{
  struct cache_fixture *f = *state;
  struct auth_identity id;
  char other[128];
  cache_put_all(&f->cache, f->hash, AUTH_ADMIN, 1, 5000, 1);
  /* A different (valid-looking) token with the same cache slots filled is unknown. */
  snprintf(other, sizeof(other), "Bearer %.*sB", AUTH_TOKEN_LEN - 1, good_token);
  assert_int_equal(auth_resolve(&f->cache, 1, NULL, other, &id, 1000), 0);
  assert_int_equal(id.role, AUTH_NONE);
}

static void test_resolve_single_slot(void **state)
{
  struct cache_fixture *f = *state;
  struct auth_identity id;
  unsigned hits = 0;
  /* Exactly one slot is consulted for a given token. */
  for (unsigned s = 0; s < AUTH_CACHE_SLOTS; s++) {
    memset(f->cache.slots, 0, sizeof(f->cache.slots));
    memcpy(f->cache.slots[s].hash, f->hash, 32);
    f->cache.slots[s].id.role = AUTH_VIEWER;
    f->cache.slots[s].id.token_id = 3;
    f->cache.slots[s].expires_ms = 5000;
    f->cache.slots[s].used = 1;
    assert_int_equal(auth_resolve(&f->cache, 1, NULL, f->header, &id, 1000), 0);
    if (id.role == AUTH_VIEWER)
      hits++;
  }
  assert_int_equal(hits, 1);
}

static void test_resolve_expired(void **state)
{
  struct cache_fixture *f = *state;
  struct auth_identity id;
  cache_put_all(&f->cache, f->hash, AUTH_ADMIN, 8, 5000, 1);
  assert_int_equal(auth_resolve(&f->cache, 1, NULL, f->header, &id, 4999), 0);
  assert_int_equal(id.role, AUTH_ADMIN);
  assert_int_equal(auth_resolve(&f->cache, 1, NULL, f->header, &id, 5000), 0); /* at expiry */
  assert_int_equal(id.role, AUTH_NONE);
  assert_int_equal(id.token_id, 0);
  assert_int_equal(auth_resolve(&f->cache, 1, NULL, f->header, &id, 60000), 0);
  assert_int_equal(id.role, AUTH_NONE);
}

static void test_resolve_unused_slot(void **state)
{
  struct cache_fixture *f = *state;
  struct auth_identity id;
  cache_put_all(&f->cache, f->hash, AUTH_ADMIN, 8, 5000, 0);
  assert_int_equal(auth_resolve(&f->cache, 1, NULL, f->header, &id, 1000), 0);
  assert_int_equal(id.role, AUTH_NONE);
}

static void test_flush_and_live(void **state)
{
  struct cache_fixture *f = *state;
  struct auth_identity id;
  uint64_t gen = f->cache.gen;
  cache_put_all(&f->cache, f->hash, AUTH_VIEWER, 4, 5000, 1);
  assert_int_equal(auth_resolve(&f->cache, 1, NULL, f->header, &id, 1000), 0);
  assert_int_equal(id.role, AUTH_VIEWER);
  assert_int_equal(id.why, AUTH_OK);
  /* a token changed (NOTIFY): forgotten at once, and any lookup in flight may not fill */
  auth_cache_flush(&f->cache);
  assert_true(f->cache.gen > gen);
  assert_int_equal(auth_resolve(&f->cache, 1, NULL, f->header, &id, 1000), 0);
  assert_int_equal(id.role, AUTH_NONE);
  /* while the NOTIFY channel is down, even a filled slot is not trusted */
  cache_put_all(&f->cache, f->hash, AUTH_VIEWER, 4, 5000, 1);
  f->cache.live = 0;
  assert_int_equal(auth_resolve(&f->cache, 1, NULL, f->header, &id, 1000), 0);
  assert_int_equal(id.role, AUTH_NONE);
  auth_cache_set_live(&f->cache, 1); /* back: emptied, since changes went unannounced */
  assert_int_equal(f->cache.live, 1);
  assert_int_equal(auth_resolve(&f->cache, 1, NULL, f->header, &id, 1000), 0);
  assert_int_equal(id.role, AUTH_NONE);
  auth_cache_set_live(&f->cache, 0);
  assert_int_equal(f->cache.live, 0);
}

static void test_token_expiry_on_cache_hit(void **state)
{
  struct cache_fixture *f = *state;
  struct auth_identity id;
  char text[128];
  cache_put_all(&f->cache, f->hash, AUTH_SUBMITTER, 6, 1000000, 1);
  for (unsigned i = 0; i < AUTH_CACHE_SLOTS; i++)
    f->cache.slots[i].id.expires_ms = 1767225600000LL; /* 2026-01-01T00:00:00Z */
  assert_int_equal(auth_resolve(&f->cache, 1, NULL, f->header, &id, 1000), 0);
  assert_int_equal(id.role, AUTH_SUBMITTER);
  /* the entry is still cached, but the token itself has expired */
  cache_put_all(&f->cache, f->hash, AUTH_SUBMITTER, 6, 1767225600000LL + 5000, 1);
  for (unsigned i = 0; i < AUTH_CACHE_SLOTS; i++)
    f->cache.slots[i].id.expires_ms = 1767225600000LL;
  assert_int_equal(auth_resolve(&f->cache, 1, NULL, f->header, &id, 1767225600000LL), 0);
  assert_int_equal(id.role, AUTH_NONE);
  assert_int_equal(id.why, AUTH_EXPIRED);
  auth_refusal_text(&id, text, sizeof(text));
  assert_string_equal(text, "the bearer token expired at 2026-01-01T00:00:00Z");
  id.why = AUTH_REVOKED;
  auth_refusal_text(&id, text, sizeof(text));
  assert_string_equal(text, "the bearer token was revoked");
  assert_int_equal(auth_resolve(&f->cache, 1, NULL, NULL, &id, 1000), 0);
  assert_int_equal(id.why, AUTH_MISSING);
  auth_refusal_text(&id, text, sizeof(text));
  assert_non_null(strstr(text, "header is required"));
}

static void test_token_durations(void **state)
{
  long long s = -1;
  (void)state;
  assert_int_equal(tokens_parse_duration("30d", &s), 0);
  assert_true(s == 30LL * 86400);
  assert_int_equal(tokens_parse_duration("12h", &s), 0);
  assert_true(s == 12LL * 3600);
  assert_int_equal(tokens_parse_duration("90m", &s), 0);
  assert_true(s == 5400);
  assert_int_equal(tokens_parse_duration("45s", &s), 0);
  assert_true(s == 45);
  assert_int_equal(tokens_parse_duration("2w", &s), 0);
  assert_true(s == 14LL * 86400);
  assert_int_equal(tokens_parse_duration("3600", &s), 0);
  assert_true(s == 3600);
  assert_int_equal(tokens_parse_duration("3660d", &s), 0); /* just under ten years */
  const char *bad[] = { "0d", "0", "-1d", "1.5d", "d", "", "30dd", "30x", "99999d", " 1d",
                        "+1d", "1d ", "9999999999999", NULL };
  for (int i = 0; bad[i]; i++)
    assert_int_equal(tokens_parse_duration(bad[i], &s), -EINVAL);
  assert_int_equal(tokens_parse_duration(NULL, &s), -EINVAL);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_token_format),
    cmocka_unit_test(test_token_distinct),
    cmocka_unit_test(test_token_buffer_too_small),
    cmocka_unit_test(test_generated_token_passes_bearer),
    cmocka_unit_test(test_hash_vectors),
    cmocka_unit_test(test_bearer_ok),
    cmocka_unit_test(test_bearer_rejects),
    cmocka_unit_test(test_roles),
    cmocka_unit_test(test_token_durations),
    cmocka_unit_test_setup_teardown(test_resolve_unknown, cache_setup, cache_teardown),
    cmocka_unit_test_setup_teardown(test_resolve_malformed_header, cache_setup, cache_teardown),
    cmocka_unit_test_setup_teardown(test_resolve_cached, cache_setup, cache_teardown),
    cmocka_unit_test_setup_teardown(test_resolve_only_that_token, cache_setup, cache_teardown),
    cmocka_unit_test_setup_teardown(test_resolve_single_slot, cache_setup, cache_teardown),
    cmocka_unit_test_setup_teardown(test_resolve_expired, cache_setup, cache_teardown),
    cmocka_unit_test_setup_teardown(test_resolve_unused_slot, cache_setup, cache_teardown),
    cmocka_unit_test_setup_teardown(test_flush_and_live, cache_setup, cache_teardown),
    cmocka_unit_test_setup_teardown(test_token_expiry_on_cache_hit, cache_setup, cache_teardown),
  };
  return cmocka_run_group_tests_name("auth", tests, NULL, NULL);
}
