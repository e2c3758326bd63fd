#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices.h"

static int devices_add(struct device_list *out, const char *backend, int index)
{
  struct device *d;
  if (out->n >= DEVICES_MAX)
    return -E2BIG;
  for (unsigned i = 0; i < out->n; i++)
    if (strcmp(out->dev[i].backend, backend) == 0 && out->dev[i].index == index)
      return -EEXIST;
  d = &out->dev[out->n++];
  snprintf(d->backend, sizeof(d->backend), "%s", backend);
  d->index = index;
  snprintf(d->name, sizeof(d->name), "%s:%d", backend, index);
  return 0;
}

/* Counts /dev/<prefix>N nodes, adding each N in ascending order. */
static void devices_scan(const char *dev_root, const char *prefix, const char *backend,
                         struct device_list *out)
{
  DIR *d = opendir(dev_root);
  struct dirent *e;
  int found[DEVICES_MAX] = { 0 };
  size_t pl = strlen(prefix);
  if (!d)
    return;
  while ((e = readdir(d)) != NULL) {
    const char *s = e->d_name;
    char *end;
    long v;
    if (strncmp(s, prefix, pl) != 0 || !isdigit((unsigned char)s[pl]))
      continue;
    v = strtol(s + pl, &end, 10);
    if (*end == '\0' && v >= 0 && v < DEVICES_MAX)
      found[v] = 1;
  }
  closedir(d);
  for (int i = 0; i < DEVICES_MAX; i++)
    if (found[i])
      devices_add(out, backend, i);
}

int devices_parse(const char *spec, const char *dev_root, struct device_list *out, char *err,
                  size_t errlen)
{
  char buf[1024];
  char *save = NULL, *tok;

  out->n = 0;
  if (!spec || strlen(spec) >= sizeof(buf)) {
    snprintf(err, errlen, "devices: list too long");
    return -EINVAL;
  }
  snprintf(buf, sizeof(buf), "%s", spec);
  for (tok = strtok_r(buf, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
    char *colon, *end;
    long idx;
    int rc;
    if (strcmp(tok, "none") == 0)
      continue;
    if (strcmp(tok, "auto") == 0) {
      devices_scan(dev_root, "nvidia", KOPT_BACKEND_CUDA, out);
      if (out->n == 0)
        devices_scan(dev_root, "davinci", KOPT_BACKEND_ASCEND, out);
      if (out->n == 0)
        devices_add(out, KOPT_BACKEND_INTERP, 0);
      continue;
    }
    colon = strchr(tok, ':');
    if (!colon) {
      snprintf(err, errlen, "devices: '%s' must look like cuda:0, ascend:0 or interp:0", tok);
      return -EINVAL;
    }
    *colon = '\0';
    if (contract_find(contract_backends, tok) < 0) {
      snprintf(err, errlen, "devices: backend '%s' must be cuda, ascend or interp", tok);
      return -EINVAL;
    }
    idx = strtol(colon + 1, &end, 10);
    if (!colon[1] || *end || idx < 0 || idx >= DEVICES_MAX) {
      snprintf(err, errlen, "devices: index in '%s:%s' must be 0..%d", tok, colon + 1,
               DEVICES_MAX - 1);
      return -EINVAL;
    }
    rc = devices_add(out, tok, (int)idx);
    if (rc == -EEXIST) {
      snprintf(err, errlen, "devices: %s:%ld listed twice", tok, idx);
      return -EINVAL;
    }
    if (rc) {
      snprintf(err, errlen, "devices: at most %d devices", DEVICES_MAX);
      return -EINVAL;
    }
  }
  return 0;
}
