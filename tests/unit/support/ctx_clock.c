/* koptd's clocks for the unit tests. daemon/main.c defines them and is not linked into the
 * test binaries, but linked modules call them. Weak, so a test that needs a fixed clock (a
 * deadline computed from 0, say) defines its own and wins at link time. */
#include <stdint.h>
#include <time.h>

#include "ctx.h"

__attribute__((weak)) uint64_t ctx_now_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

__attribute__((weak)) int64_t ctx_wall_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
