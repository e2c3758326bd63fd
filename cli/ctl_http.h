/* ctl_http — the little of HTTP that koptctl needs, over libcurl: one request with a
 * capped response body, or one streamed GET (server-sent events). Sets the bearer token,
 * timeouts and a user agent; never follows redirects (they would carry the token away). */
#ifndef CTL_HTTP_H
#define CTL_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#include <curl/curl.h>

#define CTL_HTTP_MAX_BODY (16u << 20)      /* largest response body kept: 16 MiB */
#define CTL_HTTP_MAX_URL 4096               /* base URL + path + query */
#define CTL_HTTP_CONNECT_TIMEOUT_S 10L
#define CTL_HTTP_TIMEOUT_S 60L              /* a whole ordinary request */
#define CTL_HTTP_STREAM_IDLE_S 45L          /* three missed 15 s keepalives: stream is dead */

/* Return 0 to go on, negative to stop the transfer (ctl_http_stream returns it). */
typedef int (*ctl_http_chunk_fn)(void *arg, const char *buf, size_t len);

struct ctl_http {
	CURL *curl;        /* owned; reused so polls keep one connection */
	char *base;        /* owned; KOPT_URL without a trailing '/' */
	char *auth;        /* owned; "Authorization: Bearer ..." or NULL without a token */
	char errmsg[512];  /* last transport error, worded for the user */
};

struct ctl_http_resp {
	long status;       /* HTTP status; 0 if no answer came */
	char *body;        /* owned by the response: ctl_http_resp_free; NUL-terminated or NULL */
	size_t len;
	char ctype[128];   /* Content-Type, "" if none */
};

/* base_url: "http[s]://host:port[/prefix]"; token may be NULL. 0 or -EINVAL/-ENOMEM; on
 * -EINVAL errmsg says what is wrong. */
int ctl_http_init(struct ctl_http *h, const char *base_url, const char *token);
void ctl_http_cleanup(struct ctl_http *h);

/* One request. method "GET" or "POST"; path starts with '/'; body may be NULL (a POST then
 * sends none); idem_key, if not NULL, goes out as Idempotency-Key. 0 when an HTTP answer
 * came (any status: look at resp->status), else a negative code with errmsg set:
 * -ECONNREFUSED, -ETIMEDOUT, -EHOSTUNREACH, -EFBIG (body over CTL_HTTP_MAX_BODY), -EIO.
 * resp is always initialised; free it with ctl_http_resp_free. */
int ctl_http_request(struct ctl_http *h, const char *method, const char *path,
		     const char *idem_key, const char *body, size_t body_len,
		     struct ctl_http_resp *resp);

/* A streamed GET: fn gets the body as it arrives, but only when the status is 200 and the
 * Content-Type is text/event-stream. 0 when the server ended the stream, -EPROTO on another
 * status or type (*status says which), fn's negative value if fn stopped it, or a transport
 * error as above. Dead streams end after CTL_HTTP_STREAM_IDLE_S seconds without a byte. */
int ctl_http_stream(struct ctl_http *h, const char *path, ctl_http_chunk_fn fn, void *arg,
		    long *status);

void ctl_http_resp_free(struct ctl_http_resp *r);

/* Percent-encodes s for a URL path segment or query value (RFC 3986 unreserved kept).
 * 0, or -ENAMETOOLONG if dst (size n) is too small. Pure. */
int ctl_http_escape(const char *s, char *dst, size_t n);

/* dst = prefix + escaped segment + suffix, e.g. "/v1/jobs/" + id + "/events": an id can
 * never step into another route. 0, -EINVAL (empty segment) or -ENAMETOOLONG. Pure. */
int ctl_http_path(char *dst, size_t n, const char *prefix, const char *segment,
		  const char *suffix);

#endif
