/* ctl_http — libcurl wrapper for koptctl; see ctl_http.h. */
#include "ctl_http.h"
#include "version.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>


/* Response body being collected, never past cap. */
struct ctl_http_buf {
	char *p;       /* owned until handed to ctl_http_resp */
	size_t len, size, cap;
	bool over;     /* the server sent more than cap */
};

/* State of a streamed GET, for the write callback. */
struct ctl_http_stream_ctx {
	struct ctl_http *h;  /* borrowed */
	ctl_http_chunk_fn fn;
	void *arg;           /* borrowed */
	int fn_rc;           /* fn's negative value, if it stopped the stream */
	bool checked, ok;    /* status and type looked at; they were right */
};

static size_t ctl_http_write_buf(char *ptr, size_t sz, size_t n, void *ud)
{
	struct ctl_http_buf *b = ud;
	size_t len = sz * n;

	if (len > b->cap - b->len) {
		b->over = true;
		return 0; /* makes curl stop with CURLE_WRITE_ERROR */
	}
	if (b->len + len + 1 > b->size) {
		size_t nsize = b->size ? b->size : 4096;
		char *np;

		while (nsize < b->len + len + 1)
			nsize *= 2;
		if (nsize > b->cap + 1)
			nsize = b->cap + 1;
		np = realloc(b->p, nsize);
		if (!np)
			return 0;
		b->p = np;
		b->size = nsize;
	}
	memcpy(b->p + b->len, ptr, len);
	b->len += len;
	b->p[b->len] = '\0';
	return len;
}

static bool ctl_http_header_safe(const char *s, size_t max)
{
	size_t i;

	/* Printable ASCII only: a CR or LF would let a value inject more headers. */
	for (i = 0; s[i]; i++) {
		if (i >= max || s[i] < 0x20 || s[i] > 0x7e)
			return false;
	}
	return i > 0;
}

int ctl_http_init(struct ctl_http *h, const char *base_url, const char *token)
{
	size_t len;
	int rc = 0;

	memset(h, 0, sizeof(*h));
	if (strncmp(base_url, "http://", 7) != 0 && strncmp(base_url, "https://", 8) != 0) {
		snprintf(h->errmsg, sizeof(h->errmsg),
			 "KOPT_URL must start with http:// or https:// (got \"%.64s\")", base_url);
		rc = -EINVAL;
		goto out;
	}
	if (!ctl_http_header_safe(base_url, 2048)) {
		snprintf(h->errmsg, sizeof(h->errmsg),
			 "KOPT_URL must be printable ASCII, at most 2048 bytes");
		rc = -EINVAL;
		goto out;
	}
	if (token && !ctl_http_header_safe(token, 1024)) {
		snprintf(h->errmsg, sizeof(h->errmsg),
			 "KOPT_TOKEN must be printable ASCII, at most 1024 bytes");
		rc = -EINVAL;
		goto out;
	}
	h->base = strdup(base_url);
	if (!h->base) {
		rc = -ENOMEM;
		goto out;
	}
	len = strlen(h->base);
	while (len > 0 && h->base[len - 1] == '/')
		h->base[--len] = '\0';
	if (token && asprintf(&h->auth, "Authorization: Bearer %s", token) < 0) {
		h->auth = NULL;
		rc = -ENOMEM;
		goto out;
	}
	h->curl = curl_easy_init();
	if (!h->curl) {
		rc = -ENOMEM;
		goto out;
	}
out:
	if (rc < 0) {
		free(h->base);
		free(h->auth);
		h->base = h->auth = NULL;
	}
	return rc;
}

void ctl_http_cleanup(struct ctl_http *h)
{
	if (h->curl)
		curl_easy_cleanup(h->curl);
	free(h->base);
	free(h->auth);
	h->curl = NULL;
	h->base = h->auth = NULL;
}

void ctl_http_resp_free(struct ctl_http_resp *r)
{
	free(r->body);
	r->body = NULL;
	r->len = 0;
}

int ctl_http_escape(const char *s, char *dst, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t o = 0;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
			    (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~';

		if (o + (keep ? 1 : 3) + 1 > n)
			return -ENAMETOOLONG;
		if (keep) {
			dst[o++] = (char)c;
		} else {
			dst[o++] = '%';
			dst[o++] = hex[c >> 4];
			dst[o++] = hex[c & 15];
		}
	}
	if (o + 1 > n)
		return -ENAMETOOLONG;
	dst[o] = '\0';
	return 0;
}

int ctl_http_path(char *dst, size_t n, const char *prefix, const char *segment,
		  const char *suffix)
{
	size_t plen = strlen(prefix), slen = strlen(suffix), elen;
	int rc;

	if (!segment[0])
		return -EINVAL;
	if (plen + 1 > n)
		return -ENAMETOOLONG;
	memcpy(dst, prefix, plen);
	rc = ctl_http_escape(segment, dst + plen, n - plen);
	if (rc < 0)
		return rc;
	elen = strlen(dst + plen);
	if (plen + elen + slen + 1 > n)
		return -ENAMETOOLONG;
	memcpy(dst + plen + elen, suffix, slen + 1);
	return 0;
}

static int ctl_http_curl_errno(CURLcode c)
{
	switch (c) {
	case CURLE_COULDNT_CONNECT:
		return -ECONNREFUSED;
	case CURLE_OPERATION_TIMEDOUT:
		return -ETIMEDOUT;
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_RESOLVE_PROXY:
		return -EHOSTUNREACH;
	default:
		return -EIO;
	}
}

/* Options every request shares. The handle is reset first: no option leaks between
 * requests, while the connection cache survives. */
static void ctl_http_setup(struct ctl_http *h, const char *url, struct curl_slist *hdrs,
			   char *curl_err)
{
	char ua[KOPT_USER_AGENT_MAX];

	curl_easy_reset(h->curl);
	curl_easy_setopt(h->curl, CURLOPT_URL, url);
	curl_easy_setopt(h->curl, CURLOPT_HTTPHEADER, hdrs);
	curl_easy_setopt(h->curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h->curl, CURLOPT_CONNECTTIMEOUT, CTL_HTTP_CONNECT_TIMEOUT_S);
	snprintf(ua, sizeof(ua), "koptctl/%s", kopt_version); /* libcurl copies it */
	curl_easy_setopt(h->curl, CURLOPT_USERAGENT, ua);
	curl_easy_setopt(h->curl, CURLOPT_ERRORBUFFER, curl_err);
	curl_easy_setopt(h->curl, CURLOPT_FOLLOWLOCATION, 0L);
#if LIBCURL_VERSION_NUM >= 0x075500
	curl_easy_setopt(h->curl, CURLOPT_PROTOCOLS_STR, "http,https");
#endif
}

/* Builds the shared header list; the caller owns the result (curl_slist_free_all). */
static struct curl_slist *ctl_http_headers(struct ctl_http *h, const char *accept)
{
	struct curl_slist *l = NULL, *t;

	t = curl_slist_append(l, accept);
	if (!t)
		goto fail;
	l = t;
	/* Stops curl waiting for "100 Continue" before sending a body: one round trip less. */
	t = curl_slist_append(l, "Expect:");
	if (!t)
		goto fail;
	l = t;
	if (h->auth) {
		t = curl_slist_append(l, h->auth);
		if (!t)
			goto fail;
		l = t;
	}
	return l;
fail:
	curl_slist_free_all(l);
	return NULL;
}

static int ctl_http_url(struct ctl_http *h, const char *path, char *url, size_t n)
{
	int len = snprintf(url, n, "%s%s", h->base, path);

	if (len < 0 || (size_t)len >= n) {
		snprintf(h->errmsg, sizeof(h->errmsg), "URL longer than %zu bytes", n - 1);
		return -ENAMETOOLONG;
	}
	return 0;
}

int ctl_http_request(struct ctl_http *h, const char *method, const char *path,
		     const char *idem_key, const char *body, size_t body_len,
		     struct ctl_http_resp *resp)
{
	char url[CTL_HTTP_MAX_URL];
	char curl_err[CURL_ERROR_SIZE] = "";
	char idem_hdr[300];
	struct ctl_http_buf buf = {.cap = CTL_HTTP_MAX_BODY};
	struct curl_slist *hdrs = NULL, *t; /* owned here */
	const char *ct = NULL;
	CURLcode c;
	int rc;

	memset(resp, 0, sizeof(*resp));
	h->errmsg[0] = '\0';
	rc = ctl_http_url(h, path, url, sizeof(url));
	if (rc < 0)
		goto out;
	hdrs = ctl_http_headers(h, "Accept: application/json, application/problem+json");
	if (!hdrs) {
		rc = -ENOMEM;
		goto out;
	}
	if (body) {
		t = curl_slist_append(hdrs, "Content-Type: application/json");
		if (!t) {
			rc = -ENOMEM;
			goto out;
		}
		hdrs = t;
	}
	if (idem_key) {
		if (!ctl_http_header_safe(idem_key, 255)) {
			snprintf(h->errmsg, sizeof(h->errmsg),
				 "idempotency key must be 1..255 printable ASCII characters");
			rc = -EINVAL;
			goto out;
		}
		snprintf(idem_hdr, sizeof(idem_hdr), "Idempotency-Key: %s", idem_key);
		t = curl_slist_append(hdrs, idem_hdr);
		if (!t) {
			rc = -ENOMEM;
			goto out;
		}
		hdrs = t;
	}
	ctl_http_setup(h, url, hdrs, curl_err);
	curl_easy_setopt(h->curl, CURLOPT_TIMEOUT, CTL_HTTP_TIMEOUT_S);
	curl_easy_setopt(h->curl, CURLOPT_WRITEFUNCTION, ctl_http_write_buf);
	curl_easy_setopt(h->curl, CURLOPT_WRITEDATA, &buf);
	if (strcmp(method, "POST") == 0) {
		curl_easy_setopt(h->curl, CURLOPT_POST, 1L);
		curl_easy_setopt(h->curl, CURLOPT_POSTFIELDS, body ? body : "");
		curl_easy_setopt(h->curl, CURLOPT_POSTFIELDSIZE_LARGE,
				 (curl_off_t)(body ? body_len : 0));
	} else if (strcmp(method, "GET") == 0) {
		curl_easy_setopt(h->curl, CURLOPT_HTTPGET, 1L);
	} else {
		curl_easy_setopt(h->curl, CURLOPT_CUSTOMREQUEST, method);
	}
	c = curl_easy_perform(h->curl);
	if (c != CURLE_OK) {
		if (buf.over)
			snprintf(h->errmsg, sizeof(h->errmsg),
				 "%s %.200s: response body over the %u MiB cap", method, url,
				 CTL_HTTP_MAX_BODY >> 20);
		else
			snprintf(h->errmsg, sizeof(h->errmsg), "%s %.200s: %.280s", method, url,
				 curl_err[0] ? curl_err : curl_easy_strerror(c));
		rc = buf.over ? -EFBIG : ctl_http_curl_errno(c);
		goto out;
	}
	curl_easy_getinfo(h->curl, CURLINFO_RESPONSE_CODE, &resp->status);
	if (curl_easy_getinfo(h->curl, CURLINFO_CONTENT_TYPE, &ct) == CURLE_OK && ct)
		snprintf(resp->ctype, sizeof(resp->ctype), "%s", ct);
	resp->body = buf.p; /* ownership moves to resp */
	resp->len = buf.len;
	buf.p = NULL;
out:
	free(buf.p);
	curl_slist_free_all(hdrs);
	return rc;
}

static size_t ctl_http_write_stream(char *ptr, size_t sz, size_t n, void *ud)
{
	struct ctl_http_stream_ctx *s = ud;
	size_t len = sz * n;
	int rc;

	if (!s->checked) {
		long status = 0;
		const char *ct = NULL;

		s->checked = true;
		curl_easy_getinfo(s->h->curl, CURLINFO_RESPONSE_CODE, &status);
		curl_easy_getinfo(s->h->curl, CURLINFO_CONTENT_TYPE, &ct);
		s->ok = status == 200 && ct && strncasecmp(ct, "text/event-stream", 17) == 0;
	}
	if (!s->ok)
		return 0; /* an error page is not a stream: stop, the caller decides */
	rc = s->fn(s->arg, ptr, len);
	if (rc < 0) {
		s->fn_rc = rc;
		return 0;
	}
	return len;
}

int ctl_http_stream(struct ctl_http *h, const char *path, ctl_http_chunk_fn fn, void *arg,
		    long *status)
{
	char url[CTL_HTTP_MAX_URL];
	char curl_err[CURL_ERROR_SIZE] = "";
	struct ctl_http_stream_ctx s = {.h = h, .fn = fn, .arg = arg};
	struct curl_slist *hdrs = NULL; /* owned here */
	const char *ct = NULL;
	CURLcode c;
	int rc;

	*status = 0;
	h->errmsg[0] = '\0';
	rc = ctl_http_url(h, path, url, sizeof(url));
	if (rc < 0)
		goto out;
	hdrs = ctl_http_headers(h, "Accept: text/event-stream");
	if (!hdrs) {
		rc = -ENOMEM;
		goto out;
	}
	ctl_http_setup(h, url, hdrs, curl_err);
	curl_easy_setopt(h->curl, CURLOPT_HTTPGET, 1L);
	/* No overall timeout: a job may run for hours. A stream that stays silent past
	 * several keepalives is dead, though, and ends so that the caller can poll. */
	curl_easy_setopt(h->curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(h->curl, CURLOPT_LOW_SPEED_TIME, CTL_HTTP_STREAM_IDLE_S);
	curl_easy_setopt(h->curl, CURLOPT_WRITEFUNCTION, ctl_http_write_stream);
	curl_easy_setopt(h->curl, CURLOPT_WRITEDATA, &s);
	c = curl_easy_perform(h->curl);
	curl_easy_getinfo(h->curl, CURLINFO_RESPONSE_CODE, status);
	if (s.fn_rc < 0) {
		rc = s.fn_rc;
		goto out;
	}
	if (*status != 0 && (*status != 200 || (s.checked && !s.ok))) {
		curl_easy_getinfo(h->curl, CURLINFO_CONTENT_TYPE, &ct);
		snprintf(h->errmsg, sizeof(h->errmsg), "GET %.200s: status %ld, type %.100s", url,
			 *status, ct ? ct : "none");
		rc = -EPROTO;
		goto out;
	}
	if (c != CURLE_OK) {
		snprintf(h->errmsg, sizeof(h->errmsg), "GET %.200s: %.280s", url,
			 curl_err[0] ? curl_err : curl_easy_strerror(c));
		rc = ctl_http_curl_errno(c);
		goto out;
	}
	if (!s.checked) {
		/* 200 with an empty body: check the type we never saw in the callback. */
		curl_easy_getinfo(h->curl, CURLINFO_CONTENT_TYPE, &ct);
		if (!ct || strncasecmp(ct, "text/event-stream", 17) != 0) {
			snprintf(h->errmsg, sizeof(h->errmsg), "GET %.200s: status %ld, type %.100s", url,
				 *status, ct ? ct : "none");
			rc = -EPROTO;
		}
	}
out:
	curl_slist_free_all(hdrs);
	return rc;
}
