/* ctl_spec — job spec from files; see ctl_spec.h. */
#include "ctl_spec.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* "256 KiB" for a limit that is a whole number of KiB or MiB, else bytes. */
static void ctl_spec_size_words(size_t n, char *buf, size_t len)
{
	if (n >= (1u << 20) && n % (1u << 20) == 0)
		snprintf(buf, len, "%zu MiB", n >> 20);
	else if (n >= 1024 && n % 1024 == 0)
		snprintf(buf, len, "%zu KiB", n >> 10);
	else
		snprintf(buf, len, "%zu bytes", n);
}

int ctl_spec_read_file(const char *path, size_t cap, const char *what, char **buf,
		       size_t *len, char *err, size_t errlen)
{
	char limit[32];
	struct stat st;
	char *p = NULL; /* owned until handed to *buf */
	size_t size, got = 0;
	int fd = -1, rc = 0;

	*buf = NULL;
	*len = 0;
	ctl_spec_size_words(cap, limit, sizeof(limit));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		rc = -EISDIR;
		snprintf(err, errlen, "%s: is a directory", path);
		goto out;
	}
	if (S_ISREG(st.st_mode) && (size_t)st.st_size > cap) {
		rc = -EFBIG;
		snprintf(err, errlen, "%s: %lld bytes is over the %s limit for a %s file", path,
			 (long long)st.st_size, limit, what);
		goto out;
	}
	/* Pipes and the like report no size: grow as data comes, still never past cap + 1. */
	size = S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : 65536;
	if (size > cap + 1)
		size = cap + 1;
	p = malloc(size + 1);
	if (!p) {
		rc = -ENOMEM;
		snprintf(err, errlen, "%s: out of memory", path);
		goto out;
	}
	for (;;) {
		ssize_t r;

		if (got == size) {
			char *np;

			if (size == cap + 1)
				break; /* read one byte past cap: over the limit */
			size = size * 2 > cap + 1 ? cap + 1 : size * 2;
			np = realloc(p, size + 1);
			if (!np) {
				rc = -ENOMEM;
				snprintf(err, errlen, "%s: out of memory", path);
				goto out;
			}
			p = np;
		}
		r = read(fd, p + got, size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			rc = -errno;
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			goto out;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	if (got > cap) {
		rc = -EFBIG;
		snprintf(err, errlen, "%s: over the %s limit for a %s file", path, limit, what);
		goto out;
	}
	p[got] = '\0';
	*buf = p; /* ownership moves to the caller */
	*len = got;
	p = NULL;
out:
	if (fd >= 0)
		close(fd);
	free(p);
	return rc;
}

/* Offset of the first byte that is not valid UTF-8, or len if all of it is. */
static size_t ctl_spec_utf8_bad(const unsigned char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		unsigned int cp;
		size_t n, k;

		if (s[i] < 0x80) {
			i++;
			continue;
		}
		if (s[i] >= 0xC2 && s[i] <= 0xDF) {
			n = 2;
			cp = s[i] & 0x1F;
		} else if (s[i] >= 0xE0 && s[i] <= 0xEF) {
			n = 3;
			cp = s[i] & 0x0F;
		} else if (s[i] >= 0xF0 && s[i] <= 0xF4) {
			n = 4;
			cp = s[i] & 0x07;
		} else {
			return i;
		}
		if (n > len - i)
			return i;
		for (k = 1; k < n; k++) {
			if ((s[i + k] & 0xC0) != 0x80)
				return i;
			cp = (cp << 6) | (s[i + k] & 0x3F);
		}
		if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
		    (cp >= 0xD800 && cp <= 0xDFFF))
			return i;
		i += n;
	}
	return len;
}

int ctl_spec_source(const char *path, json_t **out, char *err, size_t errlen)
{
	char *buf = NULL;  /* owned */
	json_t *obj = NULL; /* owned until handed to *out */
	const char *base;
	const char *nul;
	size_t len, bad;
	int rc;

	*out = NULL;
	rc = ctl_spec_read_file(path, CTL_SPEC_MAX_SOURCE, "source", &buf, &len, err, errlen);
	if (rc < 0)
		goto out;
	if (len == 0) {
		rc = -EINVAL;
		snprintf(err, errlen, "%s: empty file", path);
		goto out;
	}
	nul = memchr(buf, '\0', len);
	if (nul) {
		rc = -EINVAL;
		snprintf(err, errlen, "%s: NUL byte at offset %zu: not a Python source", path,
			 (size_t)(nul - buf));
		goto out;
	}
	bad = ctl_spec_utf8_bad((const unsigned char *)buf, len);
	if (bad < len) {
		rc = -EILSEQ;
		snprintf(err, errlen, "%s: invalid UTF-8 at byte offset %zu", path, bad);
		goto out;
	}
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	obj = json_pack("{s:s%,s:s}", "source", buf, len, "filename", base);
	if (!obj) {
		/* json_pack refuses only on memory or a file name that is not UTF-8. */
		rc = -EINVAL;
		snprintf(err, errlen, "%s: cannot encode (file name not UTF-8?)", path);
		goto out;
	}
	*out = obj; /* ownership moves to the caller */
	obj = NULL;
out:
	free(buf);
	json_decref(obj);
	return rc;
}

static const char *ctl_spec_type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
	case JSON_REAL:
		return "a number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "a boolean";
	default:
		return "null";
	}
}

int ctl_spec_parse_cases(const char *path, const char *buf, size_t len, json_t **out,
			 char *err, size_t errlen)
{
	json_t *cases = NULL; /* owned until handed to *out */
	json_t *c = NULL;     /* owned while being checked */
	size_t pos = 0, lineno = 0;
	int rc = 0;

	*out = NULL;
	cases = json_array();
	if (!cases) {
		rc = -ENOMEM;
		snprintf(err, errlen, "%s: out of memory", path);
		goto out;
	}
	/* A UTF-8 byte order mark is not part of the first line's JSON. */
	if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)
		pos = 3;
	while (pos < len) {
		const char *line = buf + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t llen = nl ? (size_t)(nl - line) : len - pos;
		size_t i;
		json_error_t jerr;

		pos += llen + (nl ? 1 : 0);
		lineno++;
		for (i = 0; i < llen; i++)
			if (line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
				break;
		if (i == llen)
			continue; /* blank (CRLF files included) */
		c = json_loadb(line, llen, JSON_REJECT_DUPLICATES, &jerr);
		if (!c) {
			rc = -EINVAL;
			snprintf(err, errlen, "%s:%zu: invalid JSON at column %d: %s", path, lineno,
				 jerr.column, jerr.text);
			goto out;
		}
		if (!json_is_object(c)) {
			rc = -EINVAL;
			snprintf(err, errlen, "%s:%zu: a case must be a JSON object, not %s", path,
				 lineno, ctl_spec_type_name(c));
			goto out;
		}
		if (!json_is_array(json_object_get(c, "inputs"))) {
			rc = -EINVAL;
			snprintf(err, errlen, "%s:%zu: a case needs an \"inputs\" array", path,
				 lineno);
			goto out;
		}
		if (json_array_size(cases) >= CTL_SPEC_MAX_CASES) {
			rc = -E2BIG;
			snprintf(err, errlen, "%s:%zu: more than %u cases, the server's limit", path,
				 lineno, CTL_SPEC_MAX_CASES);
			goto out;
		}
		rc = json_array_append_new(cases, c) ? -ENOMEM : 0;
		c = NULL; /* the array owns it now, even on failure (json_array_append_new) */
		if (rc < 0) {
			snprintf(err, errlen, "%s: out of memory", path);
			goto out;
		}
	}
	if (json_array_size(cases) == 0) {
		rc = -EINVAL;
		snprintf(err, errlen, "%s: no cases (every line is blank)", path);
		goto out;
	}
	*out = cases; /* ownership moves to the caller */
	cases = NULL;
out:
	json_decref(c);
	json_decref(cases);
	return rc;
}

/* Sets key to a new string; on failure names the option. obj borrowed. */
static int ctl_spec_set_str(json_t *obj, const char *key, const char *val, char *err,
			    size_t errlen)
{
	json_t *s = json_string(val); /* owned until set */

	if (!s || json_object_set_new(obj, key, s) < 0) {
		snprintf(err, errlen, "--%s: not valid UTF-8", key);
		return -EINVAL;
	}
	return 0;
}

int ctl_spec_build(const struct ctl_spec_opts *o, json_t **out, char *err, size_t errlen)
{
	json_t *spec = NULL;  /* owned until handed to *out */
	json_t *part = NULL;  /* owned until set into spec */
	char *buf = NULL;     /* owned */
	size_t len;
	int rc = 0;

	*out = NULL;
	if (errlen > 0)
		err[0] = '\0';
	spec = json_object();
	if (!spec) {
		rc = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (!o->kernel_path) {
		rc = -EINVAL;
		snprintf(err, errlen, "--kernel is required");
		goto out;
	}
	if (o->name) {
		rc = ctl_spec_set_str(spec, "name", o->name, err, errlen);
		if (rc < 0)
			goto out;
	}
	rc = ctl_spec_source(o->kernel_path, &part, err, errlen);
	if (rc < 0)
		goto out;
	if (json_object_set_new(spec, "kernel", part) < 0) {
		part = NULL; /* json_object_set_new consumed it even on failure */
		rc = -ENOMEM;
		goto out;
	}
	part = NULL;
	if (o->reference_path) {
		rc = ctl_spec_source(o->reference_path, &part, err, errlen);
		if (rc < 0)
			goto out;
		rc = json_object_set_new(spec, "reference", part) < 0 ? -ENOMEM : 0;
		part = NULL;
		if (rc < 0)
			goto out;
	}
	if (o->cases_path) {
		rc = ctl_spec_read_file(o->cases_path, CTL_SPEC_MAX_DOC, "cases", &buf, &len, err,
					errlen);
		if (rc < 0)
			goto out;
		rc = ctl_spec_parse_cases(o->cases_path, buf, len, &part, err, errlen);
		if (rc < 0)
			goto out;
		rc = json_object_set_new(spec, "cases", part) < 0 ? -ENOMEM : 0;
		part = NULL;
		if (rc < 0)
			goto out;
	}
	if (o->backend && (rc = ctl_spec_set_str(spec, "backend", o->backend, err, errlen)) < 0)
		goto out;
	if (o->has_rounds &&
	    json_object_set_new(spec, "rounds", json_integer(o->rounds)) < 0) {
		rc = -ENOMEM;
		goto out;
	}
	if (o->policy && (rc = ctl_spec_set_str(spec, "policy", o->policy, err, errlen)) < 0)
		goto out;
	if (o->proposer &&
	    (rc = ctl_spec_set_str(spec, "proposer", o->proposer, err, errlen)) < 0)
		goto out;
	if (o->has_priority &&
	    json_object_set_new(spec, "priority", json_integer(o->priority)) < 0) {
		rc = -ENOMEM;
		goto out;
	}
	*out = spec; /* ownership moves to the caller */
	spec = NULL;
out:
	if (rc == -ENOMEM && err[0] == '\0')
		snprintf(err, errlen, "out of memory");
	free(buf);
	json_decref(part);
	json_decref(spec);
	return rc;
}

int ctl_spec_check_doc(const char *path, const char *buf, size_t len, char *err,
		       size_t errlen)
{
	json_error_t jerr;
	json_t *doc = NULL; /* owned */
	int rc = 0;

	doc = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!doc) {
		rc = -EINVAL;
		snprintf(err, errlen, "%s:%d:%d: invalid JSON: %s", path, jerr.line, jerr.column,
			 jerr.text);
		goto out;
	}
	if (!json_is_object(doc)) {
		rc = -EINVAL;
		snprintf(err, errlen, "%s: a job spec is a JSON object, not %s", path,
			 ctl_spec_type_name(doc));
		goto out;
	}
out:
	json_decref(doc);
	return rc;
}
