/* ctl_hostate — the held-out protocol's progress on disk (`koptctl heldout --state FILE`).
 *
 * The protocol runs for hours on a real suite; a terminal closed, a machine lent for ten
 * minutes at a time or koptd restarted must not cost the batches already run. The state file
 * records, as each step ends, what the server made for it (the seed version, each batch's id,
 * the synthesized version), with the settings that define the run; the same command run again
 * reads it and skips every step already done. Batches are created with an Idempotency-Key
 * derived from the run's key, so a crash between the server's answer and the file's write
 * replays the same batch instead of making a second one.
 *
 * Without a path the state lives in memory only (one uninterrupted run). The file is written
 * whole to FILE.tmp, flushed and renamed over FILE: a reader sees the old or the new state,
 * never half of one. */
#ifndef CTL_HOSTATE_H
#define CTL_HOSTATE_H

#include <stddef.h>

#include <jansson.h>

#define CTL_HOSTATE_FORMAT 1
#define CTL_HOSTATE_MAX_BYTES (256 * 1024)   /* the file holds ids and settings only */
#define CTL_HOSTATE_KEY_LEN 16              /* hex characters of the run's key */

struct ctl_hostate {
	const char *path;   /* borrowed; NULL: in memory only */
	json_t *doc;        /* owned: {format, key, settings, steps: {name: value}} */
	int resumed;        /* the file existed and was read */
};

/* Opens the state: reads path when it exists (its settings must equal `settings`, else
 * -EINVAL with err naming the first setting that differs), else starts a new one with a fresh
 * key (not written until the first step). settings is borrowed (copied). 0 or a negative
 * code with err set. */
int ctl_hostate_open(struct ctl_hostate *st, const char *path, const json_t *settings,
		     char *err, size_t errlen);

/* A step's recorded value (borrowed), or NULL when the step has not been done. */
const json_t *ctl_hostate_get(const struct ctl_hostate *st, const char *step);

/* Records a step (value is stolen) and writes the file. 0 or a negative code with err set. */
int ctl_hostate_set(struct ctl_hostate *st, const char *step, json_t *value, char *err, size_t errlen);

/* The run's key (CTL_HOSTATE_KEY_LEN hex characters), for Idempotency-Keys. */
const char *ctl_hostate_key(const struct ctl_hostate *st);

void ctl_hostate_close(struct ctl_hostate *st);

#endif
