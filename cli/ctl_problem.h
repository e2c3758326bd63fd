/* ctl_problem — tells the user why the server said no. A problem document (RFC 9457,
 * application/problem+json) becomes "koptctl: <status> <title>: <detail>" and one line per
 * errors[] entry; any other non-2xx answer becomes its status and a short, sanitised
 * excerpt of the body. */
#ifndef CTL_PROBLEM_H
#define CTL_PROBLEM_H

#include <stdbool.h>
#include <stdio.h>

#include "ctl_http.h"

/* token_set: whether KOPT_TOKEN was given, so that a 401 can say what to do. */
void ctl_problem_print(FILE *err, const struct ctl_http_resp *r, bool token_set);

#endif
