/* devices: the accelerators koptd runs workers on, from a list such as
 * "interp:0, cuda:0, cuda:1, ascend:0" or "auto" (NVIDIA GPUs, else Ascend NPUs, else one
 * interp). */
#ifndef KOPT_DEVICES_H
#define KOPT_DEVICES_H
#include <stddef.h>

#include "contract.h"

#define DEVICES_MAX 64

struct device {
  char backend[KOPT_BACKEND_SIZE];     /* cuda | ascend | interp */
  int index;
  char name[KOPT_DEVICE_NAME_SIZE];    /* "cuda:0" */
};

struct device_list {
  struct device dev[DEVICES_MAX];
  unsigned n;
};

/* Parses spec; "none" gives an empty list (API-only koptd). -EINVAL with err naming the
 * bad entry. dev_root is where to look for device nodes with "auto" (normally "/dev"). */
int devices_parse(const char *spec, const char *dev_root, struct device_list *out, char *err,
                  size_t errlen);

#endif
