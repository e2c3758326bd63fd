/* ir_text: the MLIR text helpers the IR readers share (ir.c for cuda, ir_walk.c, ir_adapter.c
 * and ir_hivm.c for Ascend). Internal to those readers: line slicing, bounded JSON counters,
 * the location table (`#locN = loc(...)` aliases resolved to lines of the user's kernel
 * file). The region walker that classifies scf.for bodies is ir_walk.h. Nothing here
 * allocates beyond the location table (one slot per alias, capped). */
#ifndef KOPT_IR_TEXT_H
#define KOPT_IR_TEXT_H
#include <jansson.h>
#include <stddef.h>

#include "errmsg.h"

#define IR_OP_MAX 96 /* longest op / mnemonic name kept */

/* Fills the caller's message buffer (common/errmsg). */
#define ir_errf(err, errlen, ...) ((void)errmsg_set((err), (errlen), 0, __VA_ARGS__))

/* Next line of [*cur, end): sets *p and *n (without the newline), advances *cur; 0 at the end. */
int ir_next_line(const char **cur, const char *end, const char **p, size_t *n);
/* Trims spaces/tabs/CR on both sides of a line slice. */
void ir_trim(const char **p, size_t *n);
int ir_starts(const char *p, size_t n, const char *lit);
const char *ir_find(const char *p, size_t n, const char *lit);
/* Last occurrence of lit in [p, p+n). */
const char *ir_find_last(const char *p, size_t n, const char *lit);
/* Decimal digits at *pp (capped at 10^8), advancing *pp. */
long ir_parse_long(const char **pp, const char *e);
/* End of a group opened just before p (`(`/`[`/`<`), respecting quotes; NULL if unbalanced. */
const char *ir_group_end(const char *p, const char *e, char open, char close);

/* obj[key] += by (created at by; obj keeps the reference). 0 or -ENOMEM. */
int ir_bump(json_t *obj, const char *key, json_int_t by);
int ir_set_int(json_t *obj, const char *key, json_int_t v);
/* obj[key] as an integer; 0 when absent or not an integer. */
json_int_t ir_geti(const json_t *obj, const char *key);
/* The last path component of [p, p+n) (its length in *bn); p itself when it has no '/'. */
const char *ir_basename(const char *p, size_t n, size_t *bn);
/* by_line[line][key] += by; lines past IR_BY_LINE_MAX set *trunc and are dropped. */
int ir_line_bump(json_t *by_line, long line, const char *key, json_int_t by, int *trunc);
/* -EFBIG (err filled) when text is longer than IR_TEXT_MAX; text may be NULL. */
int ir_check_input(const char *what, const char *text, char *err, size_t errlen);
/* Reads an optional IR file: 0 with *text NULL when path is NULL or the file is missing. */
int ir_read_optional(const char *what, const char *path, char **text, char *err, size_t errlen);

/* The static dimensions of a shaped type's body at *q ("4x64xf16>"): their product (capped
 * at 2^40), *q left at the element type (or at digits not followed by 'x'); -1 when a dimension
 * is dynamic ('?'). */
long ir_shape_product(const char **q, const char *e);
/* Bytes of the scalar element type at q (bf16, f16, i16, f32, ..., f8, i8, i1); 0 if unknown. */
int ir_elem_bytes(const char *q, const char *e);

/* Scalar computation in linalg/HIVM-level IR: arith/math ops whose result type is a plain
 * integer or float (not index, not shaped), and element-wise memory access. Sets *i64 for
 * i64 results (i64 arithmetic is what Ascend lowers to scalar code), *mem for memory ops. */
int ir_is_scalar_op(const char *op, const char *p, size_t n, int *i64, int *mem);

/* ---- MLIR locations ---- */

struct ir_flc {
  const char *file; /* borrowed from the IR text; NULL when unresolved */
  size_t flen;
  long line;
};

struct ir_locdef {
  const char *expr; /* inside loc( ... ), borrowed */
  size_t len;
  int state;        /* 0 unresolved, 1 being resolved (cycle guard), 2 resolved */
  struct ir_flc flc;
};

struct ir_locs {
  struct ir_locdef *v; /* owned; slot 0 is #loc, slot N+1 is #locN */
  size_t n;
  const char *user;    /* the kernel's file (borrowed); NULL until known */
  size_t ulen;
};

/* Collects `#loc... = loc(...)` definitions (text must outlive L) and picks the user's file:
 * the file of the bare #loc, else of the first file location defined. 0 or -ENOMEM. */
int ir_locs_build(struct ir_locs *L, const char *text, size_t len);
void ir_locs_free(struct ir_locs *L);
/* The user-file line of an op line's trailing loc(...), or -1. */
long ir_line_of(struct ir_locs *L, const char *p, size_t n);

#endif
