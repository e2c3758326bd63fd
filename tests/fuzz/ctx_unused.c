/* The fuzz targets link every daemon module but not daemon/main.c, which defines koptd's
 * clocks. No parser reads them; a call would mean a target reached the event loop or the
 * database, which it must not, so it aborts (a crash libFuzzer reports). */
#include <stdint.h>
#include <stdlib.h>

#include "ctx.h"

uint64_t ctx_now_ms(void)
{
  abort();
}

int64_t ctx_wall_ms(void)
{
  abort();
}
