/* utf8: see utf8.h. Written here rather than taken from a library: jansson validates but does
 * not export its checker, and the ~40 lines do not justify a new dependency (glib's
 * g_utf8_make_valid, libunistring) for the daemon and the worker. */
#include <string.h>

#include "utf8.h"

size_t utf8_seq_len(const char *s, size_t n)
{
  const unsigned char *u = (const unsigned char *)s;
  unsigned cp;
  size_t len;

  if (n == 0)
    return 0;
  if (u[0] < 0x80)
    return 1;
  if (u[0] >= 0xC2 && u[0] <= 0xDF) {
    len = 2;
    cp = u[0] & 0x1F;
  } else if (u[0] >= 0xE0 && u[0] <= 0xEF) {
    len = 3;
    cp = u[0] & 0x0F;
  } else if (u[0] >= 0xF0 && u[0] <= 0xF4) {
    len = 4;
    cp = u[0] & 0x07;
  } else {
    return 0; /* a continuation byte, or a lead byte only overlong or too-large forms use */
  }
  if (n < len)
    return 0;
  for (size_t i = 1; i < len; i++) {
    if ((u[i] & 0xC0) != 0x80)
      return 0;
    cp = (cp << 6) | (u[i] & 0x3F);
  }
  if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10FFFF ||
      (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  return len;
}

size_t utf8_scrub(char *s)
{
  size_t n = strlen(s), i = 0, bad = 0;
  while (i < n) {
    size_t k = utf8_seq_len(s + i, n - i);
    if (k == 0) {
      s[i++] = '?';
      bad++;
    } else {
      i += k;
    }
  }
  return bad;
}
