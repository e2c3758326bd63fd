/* check: the worker's start-up check of its harness. Before the worker takes a job (at
 * start, when koptd asks, and after a job that left no harness running) it starts the
 * harness exactly as a job would and asks `hello`: the configured interpreter must start as
 * the sandbox user, import torch and Triton, and serve this device's backend. The verdict
 * goes to koptd as a `status` message (workers/PROTOCOL.md); koptd hands jobs only to
 * workers whose last check passed, and says why the others cannot run any in /readyz,
 * GET /v1/workers and its log. A harness that passed is kept running for the next job. */
#ifndef KOPT_CHECK_H
#define KOPT_CHECK_H
#include <jansson.h>
#include <stddef.h>

#include "worker.h"

#define CHECK_TIMEOUT_S 300   /* hello of a fresh harness: torch import, device init */
#define CHECK_REASON_MAX 1024

/* Runs the check. Returns 0 with *facts (new reference: python, torch, triton, backend,
 * user, launcher) when it passed, else -1 with reason filled ("interpreter /x/bin/python:
 * ...") and *facts NULL; -EINTR when the worker is stopping. The worker sends the verdict
 * to koptd (worker_main.c: worker_check). */
int check_harness(struct worker *w, char *reason, size_t reasonlen, json_t **facts);

#endif
