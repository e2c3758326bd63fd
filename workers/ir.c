/* ir: L3 IR attribution from the text of TTGIR, PTX and SASS (cuda). The MLIR text helpers are
 * ir_text.c, the region walker ir_walk.c (both shared with the Ascend readers).
 * See ir.h for the JSON shape. The parsers walk the text line by line; nothing is built
 * that grows with the input except the location table (one slot per #loc alias, capped)
 * and the list of PTX global-load positions (one per load, capped with the input). */
#include "ir.h"
#include "ir_text.h"
#include "ir_walk.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IR_PTX_FILES_MAX 256    /* .file entries kept */
#define IR_PTX_LABELS_MAX 65536 /* PTX labels kept (loop detection) */

/* ---- TTGIR ---- */

/* Adds "ttgir" to root (root takes its own reference; o, ops and loops are ours until out). */
static int ir_ttgir(const char *ttgir, json_t *root, json_t *by_line, int *trunc, struct ir_locs *L)
{
  struct ir_walk w;
  json_t *o = NULL, *ops = NULL, *loops = NULL;
  int rc = 0;
  long dots = 0, tma = 0;

  memset(&w, 0, sizeof(w));
  o = json_object();
  ops = json_object();
  loops = json_array();
  if (!o || !ops || !loops) {
    rc = -ENOMEM;
    goto out;
  }
  for (size_t i = 0; i < ir_walk_ntracked_ops; i++)
    if (ir_set_int(ops, ir_walk_tracked_ops[i], 0)) {
      rc = -ENOMEM;
      goto out;
    }
  w.locs = L;
  w.ops = ops;
  w.by_line = by_line;
  w.loops = loops;
  if ((rc = ir_walk_mlir(&w, ttgir, strlen(ttgir))))
    goto out;
  *trunc |= w.trunc;
  for (size_t i = 0; i < ir_walk_ntracked_ops; i++) {
    if (ir_walk_is_dot(ir_walk_tracked_ops[i]))
      dots += ir_geti(ops, ir_walk_tracked_ops[i]);
    if (ir_walk_is_tma(ir_walk_tracked_ops[i]))
      tma += ir_geti(ops, ir_walk_tracked_ops[i]);
  }
  if (w.num_warps > 0 && (rc = ir_set_int(o, "num_warps", w.num_warps)))
    goto out;
  if (w.target[0] && json_object_set_new(o, "target", json_string(w.target))) {
    rc = -ENOMEM;
    goto out;
  }
  if (json_object_set(o, "ops", ops) || ir_set_int(o, "layout_conversions", ir_geti(ops, "ttg.convert_layout")) ||
      ir_set_int(o, "local_alloc_bytes", w.local_alloc_bytes) ||
      ir_set_int(o, "max_tensor_elems", w.max_tensor_elems) ||
      ir_set_int(o, "async_copies", ir_geti(ops, "ttg.async_copy_global_to_local")) ||
      ir_set_int(o, "tma_copies", tma) || ir_set_int(o, "dots", dots) || json_object_set(o, "loops", loops) ||
      ir_set_int(o, "scalar_loops", w.nscalar) || ir_set_int(o, "scalar_loop_loads", w.scalar_loads) ||
      json_object_set(root, "ttgir", o)) {
    rc = -ENOMEM;
    goto out;
  }
out:
  json_decref(o);
  json_decref(ops);
  json_decref(loops);
  return rc;
}

/* ---- PTX ---- */

struct ir_ptx_file {
  long id;
  const char *path; /* borrowed */
  size_t len;
};

struct ir_ptx_label {
  const char *name; /* borrowed */
  size_t len;
  size_t pos;       /* index of the line that defines it */
};

struct ir_ptx {
  struct ir_ptx_file files[IR_PTX_FILES_MAX];
  size_t nfiles;
  long user_id;              /* .file id of the kernel's source, -1 unknown */
  struct ir_ptx_label *labels; /* owned */
  size_t nlabels, alabels;
  size_t *gl;                /* owned: line positions of global loads, in order */
  unsigned char *gl_scalar;  /* owned: 1 when that load has no .vN */
  size_t ngl, agl;
};

/* Width in bits of an ld/st.global mnemonic (vector count x element bits); *vec gets the
 * vector count. 0 when no type suffix is found. */
static long ir_ptx_width(const char *m, long *vec)
{
  long bits = 0, v = 1;
  const char *p = m;
  while ((p = strchr(p, '.'))) {
    const char *t = ++p;
    size_t l = strcspn(t, ".");
    if (l == 2 && t[0] == 'v' && (t[1] == '2' || t[1] == '4' || t[1] == '8'))
      v = t[1] - '0';
    else if (l >= 2 && l <= 4 && strchr("bfsu", t[0]) && isdigit((unsigned char)t[1])) {
      const char *q = t + 1;
      long b = ir_parse_long(&q, t + l);
      if (q == t + l && (b == 8 || b == 16 || b == 32 || b == 64 || b == 128))
        bits = b;
    }
  }
  *vec = v;
  return bits * v;
}

/* Source line of a .loc directive: the user-file line, or the innermost user-file frame of
 * its inlining chain (inlined_at, or the `@[ file:line:col ]` comment Triton's PTX carries). */
static long ir_ptx_loc_line(const struct ir_ptx *x, const char *p, size_t n)
{
  const char *e = p + n, *q = p + 4, *c, *ia;
  long fid, line;
  while (q < e && (*q == ' ' || *q == '\t'))
    q++;
  fid = ir_parse_long(&q, e);
  while (q < e && (*q == ' ' || *q == '\t'))
    q++;
  line = ir_parse_long(&q, e);
  if (fid == x->user_id)
    return line > 0 ? line : -1;
  ia = ir_find(p, n, "inlined_at ");
  if (ia) {
    const char *r = ia + 11;
    long f2 = ir_parse_long(&r, e), l2;
    while (r < e && *r == ' ')
      r++;
    l2 = ir_parse_long(&r, e);
    if (f2 == x->user_id && l2 > 0)
      return l2;
  }
  c = ir_find(p, n, "//");
  if (c && x->user_id >= 0) {
    const char *upath = NULL, *ub;
    size_t ulen = 0, bn;
    long best = -1;
    for (size_t i = 0; i < x->nfiles; i++)
      if (x->files[i].id == x->user_id) {
        upath = x->files[i].path;
        ulen = x->files[i].len;
      }
    if (!upath)
      return -1;
    ub = ir_basename(upath, ulen, &bn);
    /* `standard.py:263:15 @[ standard.py:293:36 @[ k.py:29:15 ] ]`: the last user-file frame
     * is the outermost caller in the kernel. */
    for (const char *s = c; s < e;) {
      const char *f = memmem(s, (size_t)(e - s), ub, bn);
      if (!f)
        break;
      if ((f == c || f[-1] == ' ' || f[-1] == '/') && f + bn < e && f[bn] == ':') {
        const char *r = f + bn + 1;
        long l = ir_parse_long(&r, e);
        if (l > 0)
          best = l;
      }
      s = f + 1;
    }
    return best;
  }
  return -1;
}

/* `.loc F L C` (and not `.local`). */
static int ir_is_loc(const char *p, size_t n)
{
  return n > 4 && memcmp(p, ".loc", 4) == 0 && (p[4] == ' ' || p[4] == '\t');
}

static int ir_ptx_prescan(struct ir_ptx *x, const char *ptx, size_t len)
{
  const char *cur = ptx, *end = ptx + len, *p;
  size_t n;
  x->user_id = -1;
  while (ir_next_line(&cur, end, &p, &n)) {
    ir_trim(&p, &n);
    if (ir_starts(p, n, ".file") && x->nfiles < IR_PTX_FILES_MAX) {
      const char *q = p + 5, *e = p + n, *s;
      while (q < e && (*q == ' ' || *q == '\t'))
        q++;
      x->files[x->nfiles].id = ir_parse_long(&q, e);
      s = memchr(q, '"', (size_t)(e - q));
      if (!s)
        continue;
      q = memchr(s + 1, '"', (size_t)(e - s - 1));
      if (!q)
        continue;
      x->files[x->nfiles].path = s + 1;
      x->files[x->nfiles].len = (size_t)(q - s - 1);
      x->nfiles++;
    } else if (ir_is_loc(p, n) && x->user_id < 0) {
      /* The first .loc is the kernel's own def line. */
      const char *q = p + 4, *e = p + n;
      while (q < e && (*q == ' ' || *q == '\t'))
        q++;
      x->user_id = ir_parse_long(&q, e);
    }
  }
  return 0;
}

static int ir_ptx_add_label(struct ir_ptx *x, const char *name, size_t len, size_t pos)
{
  if (x->nlabels >= IR_PTX_LABELS_MAX)
    return 0;
  if (x->nlabels == x->alabels) {
    size_t na = x->alabels ? x->alabels * 2 : 64;
    struct ir_ptx_label *nl = realloc(x->labels, na * sizeof(*nl));
    if (!nl)
      return -ENOMEM;
    x->labels = nl;
    x->alabels = na;
  }
  x->labels[x->nlabels].name = name;
  x->labels[x->nlabels].len = len;
  x->labels[x->nlabels].pos = pos;
  x->nlabels++;
  return 0;
}

static int ir_ptx_add_gl(struct ir_ptx *x, size_t pos, int scalar)
{
  if (x->ngl == x->agl) {
    size_t na = x->agl ? x->agl * 2 : 256;
    size_t *ng = realloc(x->gl, na * sizeof(*ng));
    unsigned char *ns;
    if (!ng)
      return -ENOMEM;
    x->gl = ng;
    ns = realloc(x->gl_scalar, na);
    if (!ns)
      return -ENOMEM;
    x->gl_scalar = ns;
    x->agl = na;
  }
  x->gl[x->ngl] = pos;
  x->gl_scalar[x->ngl] = (unsigned char)scalar;
  x->ngl++;
  return 0;
}

/* Shared-memory declaration: `.shared .align 16 .b8 name[1024];` (static) or
 * `.extern .shared .align 16 .b8 global_smem[];` (dynamic, sized at launch). */
static void ir_ptx_shared_decl(const char *p, size_t n, long *bytes, int *dynamic)
{
  const char *b = memchr(p, '[', n), *e = p + n, *q;
  long elem = 1, count;
  if (!b)
    return;
  if (b + 1 < e && b[1] == ']') {
    *dynamic = 1;
    return;
  }
  if (ir_find(p, n, ".b16") || ir_find(p, n, ".u16"))
    elem = 2;
  else if (ir_find(p, n, ".b32") || ir_find(p, n, ".u32") || ir_find(p, n, ".f32"))
    elem = 4;
  else if (ir_find(p, n, ".b64") || ir_find(p, n, ".u64") || ir_find(p, n, ".f64"))
    elem = 8;
  q = b + 1;
  count = ir_parse_long(&q, e);
  *bytes += count * elem;
}

static const char *ir_ptx_key(const char *m)
{
  if (!strncmp(m, "ld.shared", 9))
    return "ld.shared";
  if (!strncmp(m, "st.shared", 9))
    return "st.shared";
  if (!strncmp(m, "ld.local", 8))
    return "ld.local";
  if (!strncmp(m, "st.local", 8))
    return "st.local";
  if (!strncmp(m, "bar.sync", 8) || !strncmp(m, "barrier.sync", 12) || !strncmp(m, "barrier.cta", 11) ||
      !strncmp(m, "bar.cta", 7))
    return "bar.sync";
  if (!strncmp(m, "mma.sync", 8))
    return "mma.sync";
  if (!strncmp(m, "wgmma.mma_async", 15))
    return "wgmma";
  if (!strncmp(m, "tcgen05.mma", 11))
    return "tcgen05.mma";
  if (!strncmp(m, "ldmatrix", 8))
    return "ldmatrix";
  if (!strncmp(m, "stmatrix", 8))
    return "stmatrix";
  if (!strncmp(m, "cp.async.bulk.tensor", 20))
    return "cp.async.bulk.tensor";
  if (!strncmp(m, "cp.async.ca.", 12) || !strncmp(m, "cp.async.cg.", 12))
    return "cp.async";
  if (!strncmp(m, "mbarrier", 8))
    return "mbarrier";
  if (!strncmp(m, "atom.global", 11) || !strncmp(m, "red.global", 10))
    return "atom.global";
  return NULL;
}

/* An atomic that orders the thread's other memory accesses around it (`atom.global.gpu.acq_rel.add`,
 * Triton's default for tl.atomic_add; .acquire and .release likewise): ptxas brackets it with a
 * fence and an L1 invalidation. A .relaxed one (or one naming no ordering: relaxed in PTX) has
 * neither. */
static int ir_ptx_atom_ordered(const char *m)
{
  return strstr(m, ".acq_rel") || strstr(m, ".acquire") || strstr(m, ".release");
}

/* Adds "ptx" to root and the PTX keys of spills and by_line (all borrowed); *srcfile points
 * into ptx (the user's .file path). */
static int ir_ptx(const char *ptx, json_t *root, json_t *by_line, json_t *spills, int *trunc,
                  const char **srcfile, size_t *srclen)
{
  static const char *const zero_keys[] = {"ld.shared", "st.shared", "ld.local", "st.local", "bar.sync",
                                          "mma.sync", "wgmma", "ldmatrix", "cp.async", "cp.async.bulk.tensor",
                                          "mbarrier", "atom.global", "atom.ordered"};
  struct ir_ptx *x = NULL;
  json_t *o = NULL;
  const char *cur, *end, *p;
  size_t n, len = strlen(ptx), pos = 0;
  long cur_line = -1, gloads = 0, gstores = 0, g128 = 0, loops = 0, loops_scalar = 0, shared = 0, depot = 0;
  int dynamic = 0, rc = 0;

  x = calloc(1, sizeof(*x));
  o = json_object();
  if (!x || !o) {
    rc = -ENOMEM;
    goto out;
  }
  for (size_t i = 0; i < sizeof(zero_keys) / sizeof(zero_keys[0]); i++)
    if (ir_set_int(o, zero_keys[i], 0)) {
      rc = -ENOMEM;
      goto out;
    }
  ir_ptx_prescan(x, ptx, len);
  for (size_t i = 0; i < x->nfiles; i++)
    if (x->files[i].id == x->user_id) {
      *srcfile = x->files[i].path;
      *srclen = x->files[i].len;
    }
  cur = ptx;
  end = ptx + len;
  while (ir_next_line(&cur, end, &p, &n)) {
    char m[IR_OP_MAX];
    const char *q, *e, *key = NULL;
    char wkey[40];
    size_t ml;
    pos++;
    ir_trim(&p, &n);
    if (!n || ir_starts(p, n, "//"))
      continue;
    e = p + n;
    if (ir_is_loc(p, n)) {
      cur_line = ir_ptx_loc_line(x, p, n);
      continue;
    }
    if (ir_starts(p, n, ".shared") || ir_starts(p, n, ".extern .shared")) {
      ir_ptx_shared_decl(p, n, &shared, &dynamic);
      continue;
    }
    if (ir_starts(p, n, ".local")) { /* __local_depot: the stack frame (spills, local arrays) */
      long b = 0;
      int dummy = 0;
      ir_ptx_shared_decl(p, n, &b, &dummy);
      depot += b;
      continue;
    }
    if (*p == '$') { /* `$L__BB0_2:` */
      const char *colon = memchr(p, ':', n);
      if (colon && (rc = ir_ptx_add_label(x, p, (size_t)(colon - p), pos)))
        goto out;
      continue;
    }
    if (*p == '.' || *p == '{' || *p == '}' || *p == ')' || *p == '(')
      continue;
    q = p;
    if (*q == '@') { /* predicate */
      while (q < e && *q != ' ' && *q != '\t')
        q++;
      while (q < e && (*q == ' ' || *q == '\t'))
        q++;
    }
    ml = 0;
    while (q + ml < e && q[ml] != ' ' && q[ml] != '\t' && q[ml] != ';' && ml + 1 < sizeof(m))
      ml++;
    if (!ml || !isalpha((unsigned char)q[0]))
      continue;
    memcpy(m, q, ml);
    m[ml] = '\0';
    if (!strncmp(m, "ld.global", 9) || !strncmp(m, "st.global", 9)) {
      long vec = 1, w = ir_ptx_width(m, &vec);
      int is_ld = m[0] == 'l';
      if (w)
        snprintf(wkey, sizeof(wkey), "%s.global.%ld", is_ld ? "ld" : "st", w);
      else
        snprintf(wkey, sizeof(wkey), "%s.global.other", is_ld ? "ld" : "st");
      key = wkey;
      if (is_ld) {
        gloads++;
        if ((rc = ir_ptx_add_gl(x, pos, vec == 1)))
          goto out;
      } else {
        gstores++;
      }
      g128 += w == 128;
    } else if (!strcmp(m, "bra") || !strncmp(m, "bra.", 4)) {
      /* A branch back to a label defined earlier closes a loop. */
      const char *t = q + ml;
      size_t tl;
      while (t < e && (*t == ' ' || *t == '\t'))
        t++;
      tl = 0;
      while (t + tl < e && t[tl] != ';' && t[tl] != ' ')
        tl++;
      for (size_t i = x->nlabels; i-- > 0;) {
        if (x->labels[i].len == tl && memcmp(x->labels[i].name, t, tl) == 0) {
          size_t from = x->labels[i].pos;
          long scalar = 0;
          loops++;
          for (size_t j = x->ngl; j-- > 0 && x->gl[j] >= from;)
            scalar += x->gl_scalar[j];
          loops_scalar += scalar > 0;
          break;
        }
      }
    } else {
      key = ir_ptx_key(m);
    }
    if (key) {
      if ((rc = ir_bump(o, key, 1)))
        goto out;
      if (cur_line > 0 && (rc = ir_line_bump(by_line, cur_line, key, 1, trunc)))
        goto out;
      if (!strcmp(key, "atom.global") && ir_ptx_atom_ordered(m) && (rc = ir_bump(o, "atom.ordered", 1)))
        goto out;
    }
  }
  if (ir_set_int(o, "global_loads", gloads) || ir_set_int(o, "global_stores", gstores) ||
      ir_set_int(o, "global_128bit", g128) ||
      json_object_set_new(o, "all_global_128bit", json_boolean(gloads + gstores > 0 && g128 == gloads + gstores)) ||
      ir_set_int(o, "shared_static_bytes", shared) || json_object_set_new(o, "shared_dynamic", json_boolean(dynamic)) ||
      ir_set_int(o, "loops", loops) || ir_set_int(o, "loops_with_scalar_global_loads", loops_scalar) ||
      ir_set_int(spills, "ld.local", ir_geti(o, "ld.local")) || ir_set_int(spills, "st.local", ir_geti(o, "st.local")) ||
      ir_set_int(spills, "local_depot_bytes", depot) || json_object_set(root, "ptx", o)) {
    rc = -ENOMEM;
    goto out;
  }
out:
  if (x) {
    free(x->labels);
    free(x->gl);
    free(x->gl_scalar);
  }
  free(x);
  json_decref(o);
  return rc;
}

/* ---- SASS ---- */

/* The number just before pos (skipping spaces), or -1. */
static long ir_num_before(const char *start, const char *pos)
{
  const char *q = pos;
  long v = 0, mul = 1;
  while (q > start && q[-1] == ' ')
    q--;
  if (q == start || !isdigit((unsigned char)q[-1]))
    return -1;
  while (q > start && isdigit((unsigned char)q[-1]) && mul < 1000000000L) {
    v += (q[-1] - '0') * mul;
    mul *= 10;
    q--;
  }
  return v;
}

/* ptxas -v (`N bytes spill stores, M bytes spill loads`) and cuobjdump -res-usage
 * (`LOCAL:N`) lines, when the text carries them. */
static int ir_spill_lines(const char *text, json_t *spills)
{
  const char *s = ir_find(text, strlen(text), "bytes spill stores");
  const char *l = ir_find(text, strlen(text), "bytes spill loads");
  const char *lc = ir_find(text, strlen(text), " LOCAL:");
  if (s && ir_set_int(spills, "spill_store_bytes", ir_num_before(text, s)))
    return -ENOMEM;
  if (l && ir_set_int(spills, "spill_load_bytes", ir_num_before(text, l)))
    return -ENOMEM;
  if (lc) {
    const char *q = lc + 7;
    if (ir_set_int(spills, "local_bytes", ir_parse_long(&q, q + 12)))
      return -ENOMEM;
  }
  return 0;
}

/* Adds "sass" to root and the SASS keys of spills (both borrowed). */
static int ir_sass(const char *sass, json_t *root, json_t *spills)
{
  static const char *const zero_keys[] = {"LDS", "STS", "LDSM", "LDL", "STL", "LDGSTS", "UTMALDG", "BAR",
                                          "HGMMA", "HMMA"};
  json_t *o = json_object();
  const char *cur = sass, *end = sass + strlen(sass), *p;
  size_t n;
  long insns = 0, gl = 0, gs = 0, g128 = 0;
  int rc = 0;

  if (!o) {
    rc = -ENOMEM;
    goto out;
  }
  for (size_t i = 0; i < sizeof(zero_keys) / sizeof(zero_keys[0]); i++)
    if (ir_set_int(o, zero_keys[i], 0)) {
      rc = -ENOMEM;
      goto out;
    }
  while (ir_next_line(&cur, end, &p, &n)) {
    const char *c, *q, *e;
    char m[IR_OP_MAX], base[IR_OP_MAX], key[40];
    size_t ml, bl;
    const char *k = NULL;
    ir_trim(&p, &n);
    /* An instruction line: an address comment `/ *0110* /`, an optional predicate, the
     * mnemonic (`@!P0 LDG.E.128 R4, desc[UR4][R2.64] ;`), then the encoding comment. */
    if (!ir_starts(p, n, "/*") || n < 4 || p[2] == ' ')
      continue;
    c = ir_find(p, n, "*/");
    if (!c)
      continue;
    q = c + 2;
    e = p + n;
    while (q < e && (*q == ' ' || *q == '\t'))
      q++;
    if (q < e && *q == '@') {
      while (q < e && *q != ' ')
        q++;
      while (q < e && *q == ' ')
        q++;
    }
    ml = 0;
    while (q + ml < e && q[ml] != ' ' && q[ml] != ';' && ml + 1 < sizeof(m))
      ml++;
    if (!ml || !isupper((unsigned char)q[0]))
      continue;
    memcpy(m, q, ml);
    m[ml] = '\0';
    bl = strcspn(m, ".");
    memcpy(base, m, bl);
    base[bl] = '\0';
    insns++;
    if (!strcmp(base, "LDG") || !strcmp(base, "STG")) {
      long w = 32;
      if (strstr(m, ".128"))
        w = 128;
      else if (strstr(m, ".64"))
        w = 64;
      else if (strstr(m, ".U16") || strstr(m, ".S16"))
        w = 16;
      else if (strstr(m, ".U8") || strstr(m, ".S8"))
        w = 8;
      snprintf(key, sizeof(key), "%s.%ld", base[0] == 'L' ? "LDG" : "STG", w);
      k = key;
      if (base[0] == 'L')
        gl++;
      else
        gs++;
      g128 += w == 128;
    } else if (!strcmp(base, "LDGSTS") || !strcmp(base, "LDS") || !strcmp(base, "STS") || !strcmp(base, "LDSM") ||
               !strcmp(base, "LDL") || !strcmp(base, "STL") || !strcmp(base, "UTMALDG") || !strcmp(base, "UTMASTG") ||
               !strcmp(base, "UBLKCP") || !strcmp(base, "BAR") || !strcmp(base, "HGMMA") || !strcmp(base, "HMMA") ||
               !strcmp(base, "IMMA") || !strcmp(base, "ATOMG") || !strcmp(base, "RED") || !strcmp(base, "SYNCS")) {
      k = base;
    }
    if (k && (rc = ir_bump(o, k, 1)))
      goto out;
  }
  if (ir_set_int(o, "instructions", insns) || ir_set_int(o, "global_loads", gl) || ir_set_int(o, "global_stores", gs) ||
      json_object_set_new(o, "all_global_128bit", json_boolean(gl + gs > 0 && g128 == gl + gs)) ||
      ir_set_int(spills, "LDL", ir_geti(o, "LDL")) || ir_set_int(spills, "STL", ir_geti(o, "STL")) ||
      ir_spill_lines(sass, spills) || json_object_set(root, "sass", o)) {
    rc = -ENOMEM;
    goto out;
  }
out:
  json_decref(o);
  return rc;
}

/* ---- hotspot ---- */

static json_int_t ir_score(json_t *ops, int mma, int have_ptx)
{
  const char *k;
  json_t *v;
  json_int_t s = 0;
  json_object_foreach(ops, k, v) {
    json_int_t c = json_integer_value(v);
    if (mma) {
      if (!strcmp(k, "wgmma") || !strcmp(k, "mma.sync") || !strcmp(k, "tcgen05.mma") || ir_walk_is_dot(k))
        s += c;
    } else if (have_ptx) {
      if (!strncmp(k, "ld.global.", 10) || !strncmp(k, "st.global.", 10) || !strcmp(k, "cp.async") ||
          !strcmp(k, "cp.async.bulk.tensor") || !strcmp(k, "atom.global"))
        s += c;
    } else if (!strcmp(k, "tt.load") || !strcmp(k, "tt.store") || ir_walk_is_async(k) || ir_walk_is_tma(k) ||
               !strcmp(k, "tt.atomic_rmw") || !strcmp(k, "tt.atomic_cas")) {
      s += c;
    }
  }
  return s;
}

/* The line with the most MMA ops when there are any, else the one with the most global
 * memory ops; ties go to the earlier line. */
static int ir_hotspot(json_t *root, json_t *by_line, int have_ptx)
{
  const char *k;
  json_t *v, *best = NULL, *h;
  long best_line = 0;
  json_int_t best_s = 0;
  int mma = 0;

  /* best is borrowed from by_line; json_pack's O takes a new reference for "ops". */
  json_object_foreach(by_line, k, v)
    if (ir_score(v, 1, have_ptx) > 0)
      mma = 1;
  json_object_foreach(by_line, k, v) {
    json_int_t s = ir_score(v, mma, have_ptx);
    long line = strtol(k, NULL, 10);
    if (s > best_s || (s == best_s && s > 0 && line < best_line)) {
      best_s = s;
      best_line = line;
      best = v;
    }
  }
  if (!best)
    return 0;
  h = json_pack("{s:I, s:s, s:O}", "line", (json_int_t)best_line, "reason", mma ? "mma" : "global memory", "ops", best);
  if (!h || json_object_set_new(root, "hotspot", h))
    return -ENOMEM;
  return 0;
}

/* ---- entry points ---- */

json_t *ir_features_cuda(const char *ttgir, const char *ptx, const char *sass, char *err, size_t errlen)
{
  json_t *root = NULL, *by_line = NULL, *spills = NULL, *ret = NULL;
  struct ir_locs L;
  const char *src = NULL;
  size_t srclen = 0;
  int trunc = 0, rc = -ENOMEM; /* until the result is complete, a failure is out of memory */

  memset(&L, 0, sizeof(L));
  if (!ttgir && !ptx && !sass) {
    ir_errf(err, errlen, "no IR given (TTGIR, PTX and SASS all missing)");
    rc = -EINVAL;
    goto out;
  }
  if ((rc = ir_check_input("TTGIR", ttgir, err, errlen)) || (rc = ir_check_input("PTX", ptx, err, errlen)) ||
      (rc = ir_check_input("SASS", sass, err, errlen)))
    goto out;
  rc = -ENOMEM;
  root = json_object();
  by_line = json_object();
  spills = json_object();
  if (!root || !by_line || !spills)
    goto out;
  if (ttgir) {
    if (ir_locs_build(&L, ttgir, strlen(ttgir)) || ir_ttgir(ttgir, root, by_line, &trunc, &L))
      goto out;
    if (L.user) {
      src = L.user;
      srclen = L.ulen;
    }
  }
  if (ptx) {
    const char *psrc = NULL;
    size_t plen = 0;
    if (ir_ptx(ptx, root, by_line, spills, &trunc, &psrc, &plen))
      goto out;
    if (!src && psrc) {
      src = psrc;
      srclen = plen;
    }
  }
  if (sass && ir_sass(sass, root, spills))
    goto out;
  if (src && json_object_set_new(root, "source_file", json_stringn(src, srclen)))
    goto out;
  if (json_object_size(spills) && json_object_set(root, "spills", spills))
    goto out;
  {
    json_t *a = json_object_get(json_object_get(root, "ptx"), "all_global_128bit");
    if (!a)
      a = json_object_get(json_object_get(root, "sass"), "all_global_128bit");
    if (a && json_object_set(root, "all_global_128bit", a))
      goto out;
  }
  if (json_object_set(root, "by_line", by_line))
    goto out;
  if (trunc && json_object_set_new(root, "by_line_truncated", json_true()))
    goto out;
  if (ir_hotspot(root, by_line, ptx != NULL))
    goto out;
  ret = root;
  root = NULL;
  rc = 0;
out:
  if (rc == -ENOMEM)
    ir_errf(err, errlen, "out of memory while reading IR");
  ir_locs_free(&L);
  json_decref(root);
  json_decref(by_line);
  json_decref(spills);
  return ret;
}

json_t *ir_features_cuda_paths(const char *ttgir_path, const char *ptx_path, const char *sass_path, char *err,
                               size_t errlen)
{
  char *ttgir = NULL, *ptx = NULL, *sass = NULL;
  json_t *ret = NULL;

  if (ir_read_optional("TTGIR", ttgir_path, &ttgir, err, errlen) || ir_read_optional("PTX", ptx_path, &ptx, err, errlen) ||
      ir_read_optional("SASS", sass_path, &sass, err, errlen))
    goto out;
  ret = ir_features_cuda(ttgir, ptx, sass, err, errlen);
out:
  free(ttgir);
  free(ptx);
  free(sass);
  return ret;
}
