/* ir_hivm: L3 features of an Ascend kernel from its HIVM IR after hivm-inject-sync
 * (kernel.npuir.mlir, printed by bishengir-compile, part of CANN): see ir_hivm.h. Needs the
 * device toolchain to produce; written from the AscendNPU-IR documentation and NOT run on
 * real bishengir output (docs/ASCEND.md). */
#include "ir_hivm.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "ir_text.h"
#include "ir_walk.h"

/* Core type named in `#hivm.func_core_type<AIV>` / `#hivm.module_core_type<MIX>` at or after
 * p, or a triton-ascend adapter `mix_mode = "aiv"`. */
static int ir_core_type(const char *p, size_t n, const char *attr, char *out, size_t outlen)
{
  const char *a = ir_find(p, n, attr), *e = p + n, *q;
  if (a) {
    q = a + strlen(attr);
    size_t l = 0;
    while (q + l < e && (isalnum((unsigned char)q[l]) || q[l] == '_') && l + 1 < outlen)
      l++;
    if (!l)
      return 0;
    memcpy(out, q, l);
    out[l] = '\0';
    return 1;
  }
  a = ir_find(p, n, "mix_mode = \"");
  if (a && !strcmp(attr, "func_core_type<")) {
    q = a + 12;
    size_t l = 0;
    while (q + l < e && q[l] != '"' && l + 1 < outlen) {
      out[l] = (char)toupper((unsigned char)q[l]);
      l++;
    }
    out[l] = '\0';
    return l > 0;
  }
  return 0;
}

static int ir_ascend_functions(const char *text, size_t len, json_t *funcs, char *combined, size_t clen)
{
  const char *cur = text, *end = text + len, *p;
  size_t n;
  int aic = 0, aiv = 0, mix = 0, other = 0;

  combined[0] = '\0';
  while (ir_next_line(&cur, end, &p, &n)) {
    const char *at, *nm, *hdr_end, *c2, *p2;
    size_t nl, n2;
    char ct[24] = "";
    json_t *f;
    if (!ir_find(p, n, "func.func"))
      continue;
    at = memchr(p, '@', n);
    if (!at)
      continue;
    nm = at + 1;
    nl = 0;
    while (nm + nl < p + n && (isalnum((unsigned char)nm[nl]) || nm[nl] == '_' || nm[nl] == '.'))
      nl++;
    /* The signature may span lines: read up to the line that opens the body. */
    hdr_end = p + n;
    c2 = cur;
    {
      const char *q = p;
      size_t qn = n;
      for (int i = 0; i < 64; i++) {
        const char *tp = q;
        size_t tn = qn;
        ir_trim(&tp, &tn);
        hdr_end = q + qn;
        if (tn && tp[tn - 1] == '{')
          break;
        if (!ir_next_line(&c2, end, &p2, &n2))
          break;
        q = p2;
        qn = n2;
      }
    }
    ir_core_type(p, (size_t)(hdr_end - p), "func_core_type<", ct, sizeof(ct));
    f = json_pack("{s:s#, s:s?}", "name", nm, (int)nl, "core_type", ct[0] ? ct : NULL);
    if (!f || json_array_append_new(funcs, f))
      return -ENOMEM;
    if (!strcmp(ct, "AIC"))
      aic = 1;
    else if (!strcmp(ct, "AIV"))
      aiv = 1;
    else if (!strcmp(ct, "MIX"))
      mix = 1;
    else if (ct[0])
      other = 1;
  }
  if (mix || (aic && aiv))
    snprintf(combined, clen, "MIX");
  else if (aic && !other)
    snprintf(combined, clen, "AIC");
  else if (aiv && !other)
    snprintf(combined, clen, "AIV");
  else if (other && !aic && !aiv)
    snprintf(combined, clen, "AIC_OR_AIV");
  return 0;
}

json_t *ir_hivm_features(const char *npuir, char *err, size_t errlen)
{
  json_t *root = NULL, *hivm = NULL, *pairs = NULL, *funcs = NULL, *by_line = NULL, *ret = NULL;
  struct ir_locs L;
  struct ir_walk w;
  const char *cur, *end, *p;
  size_t n, len;
  long scalar_arith = 0, scalar_i64 = 0, scalar_mem = 0;
  char combined[24], modct[24] = "";
  int trunc = 0, rc = -ENOMEM; /* until the result is complete, a failure is out of memory */

  memset(&L, 0, sizeof(L));
  memset(&w, 0, sizeof(w));
  if (!npuir) {
    ir_errf(err, errlen, "no HIVM IR given (kernel.npuir.mlir missing)");
    rc = -EINVAL;
    goto out;
  }
  if ((rc = ir_check_input("HIVM IR", npuir, err, errlen)))
    goto out;
  rc = -ENOMEM;
  len = strlen(npuir);
  root = json_object();
  hivm = json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i}", "set_flag", 0, "wait_flag", 0,
                   "pipe_barrier", 0, "pipe_barrier_all", 0, "sync_block_set", 0, "sync_block_wait", 0, "load", 0,
                   "store", 0, "load_scalar", 0, "vector_ops", 0, "cube_ops", 0);
  pairs = json_object();
  funcs = json_array();
  by_line = json_object();
  if (!root || !hivm || !pairs || !funcs || !by_line)
    goto out;
  if (ir_locs_build(&L, npuir, len))
    goto out;
  cur = npuir;
  end = npuir + len;
  while (ir_next_line(&cur, end, &p, &n)) {
    char op[IR_OP_MAX];
    const char *s, *key = NULL, *lkey = NULL;
    int i64, mem;
    long line;
    ir_trim(&p, &n);
    if (!n || ir_starts(p, n, "//") || *p == '#')
      continue;
    if (!ir_mlir_op_name(p, n, op, sizeof(op)))
      continue;
    line = L.user ? ir_line_of(&L, p, n) : -1;
    if (ir_is_scalar_op(op, p, n, &i64, &mem)) {
      if (mem)
        scalar_mem++;
      else
        scalar_arith++;
      scalar_i64 += i64;
      lkey = "scalar";
    }
    if (!strncmp(op, "hivm.hir.", 9)) {
      s = op + 9;
      if (!strcmp(s, "set_flag") || !strcmp(s, "wait_flag") || !strcmp(s, "pipe_barrier") ||
          !strcmp(s, "sync_block_set") || !strcmp(s, "sync_block_wait") || !strcmp(s, "load") ||
          !strcmp(s, "store") || !strcmp(s, "load_scalar"))
        key = s;
      else if (s[0] == 'v')
        key = "vector_ops";
      else if (strstr(s, "mmad") || !strcmp(s, "matmul"))
        key = "cube_ops";
      if (key && ir_bump(hivm, key, 1))
        goto out;
      if (!strcmp(s, "pipe_barrier") && ir_find(p, n, "PIPE_ALL") && ir_bump(hivm, "pipe_barrier_all", 1))
        goto out;
      if (!strcmp(s, "set_flag")) {
        /* [<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>] or [#hivm.pipe<PIPE_MTE2>, ...] */
        const char *a = ir_find(p, n, "PIPE_"), *b = NULL;
        if (a)
          b = ir_find(a + 5, (size_t)(p + n - a - 5), "PIPE_");
        if (a && b) {
          char pk[64];
          size_t al = strspn(a, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789");
          size_t blen = strspn(b, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789");
          snprintf(pk, sizeof(pk), "%.*s->%.*s", (int)(al > 24 ? 24 : al), a, (int)(blen > 24 ? 24 : blen), b);
          if (ir_bump(pairs, pk, 1))
            goto out;
        }
      }
      if (key)
        lkey = key;
    }
    if (lkey && line > 0 && ir_line_bump(by_line, line, lkey, 1, &trunc))
      goto out;
  }
  /* Loops: the MLIR walker in HIVM mode classifies each scf.for body. */
  w.hivm = 1;
  w.count_flags = IR_LOOP_SCALAR;
  if (ir_walk_mlir(&w, npuir, len))
    goto out;
  if (ir_ascend_functions(npuir, len, funcs, combined, sizeof(combined)))
    goto out;
  ir_core_type(npuir, len, "module_core_type<", modct, sizeof(modct));
  if (json_object_set(root, "hivm", hivm) || json_object_set(root, "sync_pairs", pairs) ||
      ir_set_int(root, "scalar_ops", scalar_arith + scalar_mem) || ir_set_int(root, "scalar_arith", scalar_arith) ||
      ir_set_int(root, "scalar_i64", scalar_i64) || ir_set_int(root, "scalar_mem", scalar_mem) ||
      ir_set_int(root, "loops", w.nloops) || ir_set_int(root, "scalar_loops", w.nscalar) ||
      json_object_set(root, "functions", funcs) ||
      json_object_set_new(root, "verified_on_hardware", json_false()))
    goto out;
  if ((modct[0] || combined[0]) && json_object_set_new(root, "core_type", json_string(modct[0] ? modct : combined)))
    goto out;
  if (L.user && json_object_set_new(root, "source_file", json_stringn(L.user, L.ulen)))
    goto out;
  if (json_object_size(by_line) && json_object_set(root, "by_line", by_line))
    goto out;
  ret = root;
  root = NULL;
  rc = 0;
out:
  if (rc == -ENOMEM)
    ir_errf(err, errlen, "out of memory while reading HIVM IR");
  ir_locs_free(&L);
  json_decref(root);
  json_decref(hivm);
  json_decref(pairs);
  json_decref(funcs);
  json_decref(by_line);
  return ret;
}
