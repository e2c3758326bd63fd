/* rules_structural: the structural half of the rules proposer. A structural rewrite the
 * harness's survey found fitting becomes its parameter points (whole configurations when the
 * survey lists `configs`, else the points of its domain nearest the defaults), ordered by
 * a matched pattern's preferences and capped at the candidate budget (docs/LADDER.md). */
#ifndef KOPT_RULES_STRUCTURAL_H
#define KOPT_RULES_STRUCTURAL_H
#include <jansson.h>
#include <stddef.h>

#include "rules.h"

/* The points of the structural rewrite name for in's kernel: 0 with out->candidates
 * (owned by the caller) and out->summary and out->signature set; -ENOENT when the rewrite
 * does not fit, was tried on this structure, or has no point (why says which). */
int rules_structural_plan(const struct rules_plan_in *in, const char *name,
                          struct rules_plan_out *out, char *why, size_t whylen);
/* 1 when v (an integer) is prefer's value for key, or in its list. */
int rules_prefers(const json_t *prefer, const char *key, const json_t *v);

#endif
