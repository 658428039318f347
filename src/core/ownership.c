/* Reference counts and scopes. A scope is a thread-local list of objects it releases at its end. */
#include "core/internal.h"
#include <stdio.h>
#include <stdlib.h>

enum { OWN_TENSOR = 0, OWN_STORAGE = 1, OWN_LIST = 2 };

typedef struct owned {
  void *ptr;
  int kind;
} owned;

typedef struct scope {
  owned *items;
  int64_t n, cap;
} scope;

/* (Not initial-exec: loaded with dlopen after libtorch, as the differential tests do, no static TLS room
   is left.) */
static _Thread_local scope *tl_scopes;
static _Thread_local int64_t tl_depth, tl_cap;

static int64_t scope_entries_of(const void *ptr);

ct_tensor *ct_retain(ct_tensor *t) {
  if (t) atomic_fetch_add_explicit(&t->refcount, 1, memory_order_relaxed);
  return t;
}

/* ---- scope-held references: the count in CT_SCOPE_MASK (see internal.h) ---- */

static void mark_held(_Atomic int32_t *rc) {
  /* A count of 1 is the caller's own new reference, which no one else can touch: no locked operation. */
  int32_t v = atomic_load_explicit(rc, memory_order_relaxed);
  if (v == 1) {
    atomic_store_explicit(rc, 1 | CT_SCOPE_ONE, memory_order_relaxed);
    return;
  }
  do
    if ((v & CT_SCOPE_MASK) == CT_SCOPE_MASK) return; /* saturated: this entry goes uncounted */
  while (!atomic_compare_exchange_weak_explicit(rc, &v, v + CT_SCOPE_ONE, memory_order_relaxed, memory_order_relaxed));
}

/* Before a scope entry drops its reference. An uncounted entry (beyond 7) takes a counted one's place,
   which keeps the count at or below the truth. */
static void unmark_held(_Atomic int32_t *rc) {
  int32_t v = atomic_load_explicit(rc, memory_order_relaxed);
  if (v == (1 | CT_SCOPE_ONE)) {
    atomic_store_explicit(rc, 1, memory_order_relaxed);
    return;
  }
  do
    if (!(v & CT_SCOPE_MASK)) return;
  while (!atomic_compare_exchange_weak_explicit(rc, &v, v - CT_SCOPE_ONE, memory_order_relaxed, memory_order_relaxed));
}

bool ct__release_refused_slow(_Atomic int32_t *rc, const void *obj, bool is_tensor) {
  int32_t v = atomic_load_explicit(rc, memory_order_relaxed);
  int64_t refs = v & CT_REFS_MASK, held = (v & CT_SCOPE_MASK) / CT_SCOPE_ONE;
  /* Always: the scopes hold every reference left. In debug mode: this thread's scope entries are
     counted exactly (other threads' scopes are not searched). */
  bool refuse = refs <= held || (ct__debug() && refs <= scope_entries_of(obj));
  if (refuse)
    ct__error(CT_ERR_RUNTIME,
              "%s: the %s is owned by a scope, which releases it at ct_scope_end (releasing it here too would free "
              "it twice); hand it out of the scope with ct_keep to own a reference",
              is_tensor ? "ct_release" : "ct_storage_release", is_tensor ? "tensor" : "storage");
  return refuse;
}

void ct_release(ct_tensor *t) {
  if (!t || ct__release_refused(&t->refcount, t, true)) return;
  if (CT_DROP_LAST(t->refcount)) ct__tensor_free(t);
}

int64_t ct_refcount(const ct_tensor *t) {
  return t ? atomic_load(&((ct_tensor *)t)->refcount) & CT_REFS_MASK : 0;
}

void ct_tensor_list_release(ct_tensor_list *l) {
  /* A list has no count to carry a mark: the scopes of this thread are searched (lists are few). */
  if (l && tl_depth > 0 && scope_entries_of(l) > 0) {
    ct__error(CT_ERR_RUNTIME, "ct_tensor_list_release: the list is owned by a scope, which releases it (and its "
                              "tensors) at ct_scope_end");
    return;
  }
  ct__list_destroy(l);
}

ct_tensor_list *ct__list_alloc(int64_t n) {
  ct_tensor_list *l = ct__calloc(1, sizeof *l + (size_t)n * sizeof(ct_tensor *));
  if (!l) return NULL;
  l->n = n;
  l->items = (ct_tensor **)(l + 1);
  return l;
}

void ct__list_destroy(ct_tensor_list *l) {
  if (!l) return;
  for (int64_t i = 0; i < l->n; i++) ct_release(l->items[i]);
  ct__free(l);
}

/* Scopes whose begin failed for lack of memory: their end must not close an enclosing scope. Results
   made meanwhile go to the enclosing scope (or the caller), so nothing leaks or is freed twice. */
static _Thread_local int64_t tl_failed_begins;

ct_status ct_scope_begin(void) {
  if (tl_failed_begins == 0 && tl_depth == tl_cap) {
    int64_t cap = tl_cap ? tl_cap * 2 : 8;
    scope *s = ct__realloc(tl_scopes, (size_t)cap * sizeof *s);
    if (!s) {
      tl_failed_begins++;
      return CT_ERR_OUT_OF_MEMORY;
    }
    tl_scopes = s;
    tl_cap = cap;
  }
  if (tl_failed_begins) {
    tl_failed_begins++;
    return CT_ERR_OUT_OF_MEMORY;
  }
  tl_scopes[tl_depth++] = (scope){NULL, 0, 0};
  return CT_OK;
}

static void release_owned(owned o) {
  switch (o.kind) {
    case OWN_TENSOR: {
      ct_tensor *t = o.ptr;
      unmark_held(&t->refcount);
      if (CT_DROP_LAST(t->refcount)) ct__tensor_free(t);
      break;
    }
    case OWN_STORAGE: {
      ct_storage *st = o.ptr;
      unmark_held(&st->refcount);
      ct__storage_drop(st);
      break;
    }
    case OWN_LIST: ct__free(o.ptr); break; /* its tensors are owned by the scope separately */
  }
}

void ct_scope_end(void) {
  if (tl_failed_begins) {
    tl_failed_begins--;
    return;
  }
  if (tl_depth == 0) return;
  scope *s = &tl_scopes[--tl_depth];
  /* Release in reverse order of creation. */
  for (int64_t i = s->n - 1; i >= 0; i--) release_owned(s->items[i]);
  ct__free(s->items);
  if (tl_depth == 0) {
    ct__free(tl_scopes);
    tl_scopes = NULL;
    tl_cap = 0;
  }
}

static bool scope_push(scope *s, void *ptr, int kind) {
  if (s->n == s->cap) {
    int64_t cap = s->cap ? s->cap * 2 : 16;
    owned *items = ct__realloc(s->items, (size_t)cap * sizeof *items);
    if (!items) return false;
    s->items = items;
    s->cap = cap;
  }
  s->items[s->n++] = (owned){ptr, kind};
  if (kind == OWN_TENSOR) mark_held(&((ct_tensor *)ptr)->refcount);
  if (kind == OWN_STORAGE) mark_held(&((ct_storage *)ptr)->refcount);
  return true;
}

/* How many entries of this thread's open scopes hold ptr (the debug mode's check). */
static int64_t scope_entries_of(const void *ptr) {
  int64_t n = 0;
  for (int64_t d = 0; d < tl_depth; d++)
    for (int64_t i = 0; i < tl_scopes[d].n; i++) n += tl_scopes[d].items[i].ptr == ptr;
  return n;
}

/* The scopes already hold every reference t has: a second ct__own of one new reference, a defect of the
   caller. Registering it again would leave the count unable to reach zero (a leak), so the entry is not
   made; debug mode stops there, to find the caller. */
static bool already_owned(const ct_tensor *t) {
  int32_t v = atomic_load_explicit(&((ct_tensor *)t)->refcount, memory_order_relaxed);
  if ((v & CT_SCOPE_MASK) / CT_SCOPE_ONE < (v & CT_REFS_MASK)) return false;
  if (ct__debug()) {
    fprintf(stderr, "ctorch: internal defect: ct__own of a tensor its scopes already own\n");
    abort();
  }
  return true;
}

ct_tensor *ct__own(ct_tensor *t) {
  if (!t || tl_depth == 0 || already_owned(t)) return t;
  if (!scope_push(&tl_scopes[tl_depth - 1], t, OWN_TENSOR)) {
    ct_release(t);
    return NULL;
  }
  return t;
}

ct_storage *ct__own_storage(ct_storage *s) {
  if (!s || tl_depth == 0) return s;
  if (!scope_push(&tl_scopes[tl_depth - 1], s, OWN_STORAGE)) {
    ct_storage_release(s);
    return NULL;
  }
  return s;
}

ct_tensor_list *ct__own_list(ct_tensor_list *l) {
  if (!l || tl_depth == 0) return l;
  scope *s = &tl_scopes[tl_depth - 1];
  /* The list's tensors and the list block each become scope entries; reserve room first so a
     failure leaves nothing half-registered. */
  int64_t need = s->n + l->n + 1;
  if (need > s->cap) {
    owned *items = ct__realloc(s->items, (size_t)need * sizeof *items);
    if (!items) {
      ct__list_destroy(l);
      return NULL;
    }
    s->items = items;
    s->cap = need;
  }
  for (int64_t i = 0; i < l->n; i++) {
    s->items[s->n++] = (owned){l->items[i], OWN_TENSOR};
    mark_held(&l->items[i]->refcount);
  }
  s->items[s->n++] = (owned){l, OWN_LIST};
  return l;
}

ct_tensor *ct_keep(ct_tensor *t) {
  if (!t || tl_depth == 0) return t;
  ct_retain(t);
  if (tl_depth >= 2 && !scope_push(&tl_scopes[tl_depth - 2], t, OWN_TENSOR)) {
    ct_release(t);
    return NULL;
  }
  return t;
}

ct_status ct_scope_end_replace(ct_tensor **carried, ct_tensor *next) {
  ct_retain(next); /* the caller's own reference, across the scope's end */
  ct_scope_end();
  if (!carried) {
    ct_release(next);
    return ct__null_arg(1, "carried");
  }
  if (!next) return ct__null_arg(2, "next"); /* the iteration failed: *carried keeps the last good value */
  ct_tensor *old = *carried;
  *carried = next;
  if (!old) return CT_OK;
  /* A scope-owned first value is left to its scope, and said so. */
  if (ct__release_refused(&old->refcount, old, true)) return CT_ERR_RUNTIME;
  if (CT_DROP_LAST(old->refcount)) ct__tensor_free(old);
  return CT_OK;
}
