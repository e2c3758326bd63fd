/* sdnotify: systemd's notify protocol (READY=1, STOPPING=1, WATCHDOG=1) without libsystemd:
 * one datagram to $NOTIFY_SOCKET. A no-op when the variable is unset. */
#ifndef KOPT_SDNOTIFY_H
#define KOPT_SDNOTIFY_H
#include <stdint.h>

/* 0 when sent or not under systemd; -errno on a send failure. */
int sdnotify_send(const char *state);
/* Watchdog interval in microseconds from $WATCHDOG_USEC (0 when not asked for, or when
 * $WATCHDOG_PID names another process). */
uint64_t sdnotify_watchdog_usec(void);

#endif
