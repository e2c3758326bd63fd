/* http: libmicrohttpd driven by the libuv loop through MHD's epoll descriptor (no threads):
 * a uv_poll on the epoll fd runs MHD_run, a uv_timer honours MHD_get_timeout. Requests
 * that touch the database are suspended, run on the thread pool and resumed.
 *
 * Two listeners: [server] listen serves every route, with a connection table capped in
 * total (max_connections) and per client address (max_connections_per_ip); the optional
 * [server] probe_listen serves only /healthz, /readyz and /metrics from a small table of
 * its own, so probes are answered while clients hold every slot of the first. Both
 * enforce absolute header/body deadlines (http_deadline.h). */
#ifndef KOPT_HTTP_H
#define KOPT_HTTP_H
#include <stddef.h>

#include "ctx.h"

/* Binds cfg.listen_host:listen_port and starts serving. 0 or -errno with err filled. */
int http_start(struct kopt_ctx *ctx, char *err, size_t errlen);
/* The bound port (useful with port 0). */
unsigned http_port(struct http_server *s);
/* The probe listener's bound port; 0 when probe_listen is off. */
unsigned http_probe_port(struct http_server *s);
/* Open connections, both listeners. */
unsigned http_connections(struct http_server *s);
/* Connections shut down for a late request head (body 0) or body (body 1) so far. */
unsigned http_deadline_closed(struct http_server *s, int body);
/* Stops accepting connections (closes the listening socket); in-flight requests go on. */
void http_quiesce(struct http_server *s);
/* Requests begun and not yet completed, plus database work in flight. */
unsigned http_busy(struct http_server *s);
/* Stops MHD and closes the loop handles; s is freed once they have closed. */
void http_stop(struct http_server *s);
/* Asks for an MHD_run on the next loop iteration (after resuming a connection). */
void http_kick(struct http_server *s);

#endif
