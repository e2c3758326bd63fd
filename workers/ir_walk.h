/* ir_walk: the MLIR region walker shared by the TTGIR reader (ir.c), the per-pass dumps and
 * the HIVM reader (ir_hivm.c). Internal to the IR readers. */
#ifndef KOPT_IR_WALK_H
#define KOPT_IR_WALK_H
#include <jansson.h>
#include <stddef.h>

#include "ir_text.h"

struct ir_walk {
  /* inputs */
  struct ir_locs *locs;  /* may be NULL: no line attribution */
  int hivm;              /* HIVM mode: scalar/work classification for loops */
  unsigned count_flags;  /* IR_LOOP_* to count into nloops_matching */
  /* outputs (any may be NULL) */
  json_t *ops;           /* tracked op -> count */
  json_t *by_line;
  json_t *loops;         /* array of loop records */
  int trunc;
  long nloops, nscalar, scalar_loads, nloops_matching;
  long local_alloc_bytes;
  long max_tensor_elems; /* the largest register tensor (tensor<AxB...>): a program's tile */
  long num_warps;
  char target[32];
};

/* Walks MLIR text region by region, filling w's outputs. 0 or -ENOMEM. */
int ir_walk_mlir(struct ir_walk *w, const char *text, size_t len);

/* The TTGIR ops the walker counts (ops, by_line), ir_walk_ntracked_ops of them. */
extern const char *const ir_walk_tracked_ops[];
extern const size_t ir_walk_ntracked_ops;
/* Op classes: a tensor-core dot, a TMA copy or descriptor access, an async global->shared copy. */
int ir_walk_is_dot(const char *op);
int ir_walk_is_tma(const char *op);
int ir_walk_is_async(const char *op);

#endif
