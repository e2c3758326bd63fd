/* ctl_hostate — the held-out protocol's progress on disk; see ctl_hostate.h. */
#include "ctl_hostate.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#define CTL_HOSTATE_TMP_SUFFIX ".tmp"

/* A fresh run key: CTL_HOSTATE_KEY_LEN hex characters from the kernel's random source. */
static int ctl_hostate_new_key(char key[CTL_HOSTATE_KEY_LEN + 1])
{
	unsigned char raw[CTL_HOSTATE_KEY_LEN / 2];
	static const char hex[] = "0123456789abcdef";

	if (getrandom(raw, sizeof(raw), 0) != (ssize_t)sizeof(raw))
		return -EIO;
	for (size_t i = 0; i < sizeof(raw); i++) {
		key[2 * i] = hex[raw[i] >> 4];
		key[2 * i + 1] = hex[raw[i] & 0xf];
	}
	key[CTL_HOSTATE_KEY_LEN] = '\0';
	return 0;
}

/* The first key of want whose value in got differs (or is missing), or NULL. */
static const char *ctl_hostate_differs(const json_t *want, const json_t *got)
{
	const char *k;
	const json_t *v;

	json_object_foreach((json_t *)want, k, v)
		if (!json_equal(v, json_object_get(got, k)))
			return k;
	json_object_foreach((json_t *)got, k, v)
		if (!json_object_get(want, k))
			return k;
	return NULL;
}

/* Reads and checks an existing file. 0, -ENOENT (no file), or another negative code. */
static int ctl_hostate_read(struct ctl_hostate *st, const json_t *settings, char *err, size_t errlen)
{
	struct stat sb;
	json_error_t jerr;
	const char *bad, *key;
	json_t *doc;

	if (stat(st->path, &sb) < 0) {
		if (errno == ENOENT)
			return -ENOENT;
		snprintf(err, errlen, "--state %s: %s", st->path, strerror(errno));
		return -errno;
	}
	if (sb.st_size > CTL_HOSTATE_MAX_BYTES) {
		snprintf(err, errlen, "--state %s: %lld bytes, over the limit of %d for a state file",
			 st->path, (long long)sb.st_size, CTL_HOSTATE_MAX_BYTES);
		return -EFBIG;
	}
	doc = json_load_file(st->path, JSON_REJECT_DUPLICATES, &jerr);
	if (!doc) {
		snprintf(err, errlen, "--state %s: not a state file (line %d: %s)", st->path, jerr.line,
			 jerr.text);
		return -EINVAL;
	}
	key = json_string_value(json_object_get(doc, "key"));
	if (json_integer_value(json_object_get(doc, "format")) != CTL_HOSTATE_FORMAT || !key ||
	    strlen(key) != CTL_HOSTATE_KEY_LEN || !json_is_object(json_object_get(doc, "steps"))) {
		snprintf(err, errlen, "--state %s: not a state file of format %d (format, key, steps)",
			 st->path, CTL_HOSTATE_FORMAT);
		json_decref(doc);
		return -EINVAL;
	}
	bad = ctl_hostate_differs(settings, json_object_get(doc, "settings"));
	if (bad) {
		snprintf(err, errlen, "--state %s belongs to another run: its setting \"%s\" differs "
			 "from this command's (give the same options, or another --state file)",
			 st->path, bad);
		json_decref(doc);
		return -EINVAL;
	}
	st->doc = doc;
	st->resumed = 1;
	return 0;
}

int ctl_hostate_open(struct ctl_hostate *st, const char *path, const json_t *settings,
		     char *err, size_t errlen)
{
	char key[CTL_HOSTATE_KEY_LEN + 1];
	int rc;

	memset(st, 0, sizeof(*st));
	st->path = path;
	if (path && (rc = ctl_hostate_read(st, settings, err, errlen)) != -ENOENT)
		return rc;
	if ((rc = ctl_hostate_new_key(key)) < 0) {
		snprintf(err, errlen, "no random bytes for the run's key");
		return rc;
	}
	st->doc = json_pack("{s:i, s:s, s:O, s:{}}", "format", CTL_HOSTATE_FORMAT, "key", key,
			    "settings", settings, "steps");
	if (!st->doc) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

const json_t *ctl_hostate_get(const struct ctl_hostate *st, const char *step)
{
	return json_object_get(json_object_get(st->doc, "steps"), step);
}

const char *ctl_hostate_key(const struct ctl_hostate *st)
{
	return json_string_value(json_object_get(st->doc, "key"));
}

/* Writes the whole state to path.tmp, flushes it and renames it over path. */
static int ctl_hostate_write(const struct ctl_hostate *st, char *err, size_t errlen)
{
	char tmp[PATH_MAX];
	char *txt = NULL;
	FILE *f = NULL;
	int rc = 0;

	if (snprintf(tmp, sizeof(tmp), "%s%s", st->path, CTL_HOSTATE_TMP_SUFFIX) >= (int)sizeof(tmp)) {
		snprintf(err, errlen, "--state: the path is longer than %zu bytes",
			 sizeof(tmp) - sizeof(CTL_HOSTATE_TMP_SUFFIX));
		return -ENAMETOOLONG;
	}
	txt = json_dumps(st->doc, JSON_INDENT(1) | JSON_SORT_KEYS);
	if (!txt) {
		rc = -ENOMEM;
		goto out;
	}
	f = fopen(tmp, "w");
	if (!f || fputs(txt, f) == EOF || fputc('\n', f) == EOF || fflush(f) != 0 ||
	    fsync(fileno(f)) != 0) {
		rc = -errno ?: -EIO;
		goto out;
	}
	if (fclose(f) != 0) {
		f = NULL;
		rc = -errno ?: -EIO;
		goto out;
	}
	f = NULL;
	if (rename(tmp, st->path) != 0)
		rc = -errno ?: -EIO;
out:
	if (f)
		fclose(f);
	if (rc < 0) {
		snprintf(err, errlen, "--state %s: cannot write it: %s", st->path, strerror(-rc));
		unlink(tmp);
	}
	free(txt);
	return rc;
}

int ctl_hostate_set(struct ctl_hostate *st, const char *step, json_t *value, char *err, size_t errlen)
{
	if (!value || json_object_set_new(json_object_get(st->doc, "steps"), step, value) != 0) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return st->path ? ctl_hostate_write(st, err, errlen) : 0;
}

void ctl_hostate_close(struct ctl_hostate *st)
{
	json_decref(st->doc);
	st->doc = NULL;
}
