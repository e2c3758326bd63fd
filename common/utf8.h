/* utf8: keeps text bound for a JSON string valid UTF-8. jansson refuses invalid UTF-8
 * (json_string() returns NULL, so json_pack() fails as a whole), and a message that quotes
 * untrusted bytes -- an agent's output, a URL path, a model's answer -- or that a "%.Ns"
 * conversion or a fixed buffer cut inside a multi-byte character would otherwise lose the
 * document it goes into (a problem's detail, a round's record). */
#ifndef KOPT_UTF8_H
#define KOPT_UTF8_H
#include <stddef.h>

/* Bytes in the valid UTF-8 sequence that starts s (n bytes available): 1 to 4, or 0 when
 * none starts there. Valid as jansson (and RFC 3629) define it: no overlong forms, no
 * surrogates, nothing past U+10FFFF; NUL is a character. */
size_t utf8_seq_len(const char *s, size_t n);

/* Makes the NUL-terminated s valid UTF-8 in place: every byte that does not belong to a
 * valid sequence becomes '?', so the length never changes. Returns the number replaced. */
size_t utf8_scrub(char *s);

#endif
