/* Reference counts and scopes. A scope is a thread-local list of objects it releases at its end. */
#include "core/internal.h"

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

ct_tensor *ct_retain(ct_tensor *t) {
  if (t) atomic_fetch_add_explicit(&t->refcount, 1, memory_order_relaxed);
  return t;
}

void ct_release(ct_tensor *t) {
  if (!t) return;
  if (CT_DROP_LAST(t->refcount)) ct__tensor_free(t);
}

int64_t ct_refcount(const ct_tensor *t) { return t ? atomic_load(&((ct_tensor *)t)->refcount) : 0; }

void ct_tensor_list_release(ct_tensor_list *l) { ct__list_destroy(l); }

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
    case OWN_TENSOR: ct_release(o.ptr); break;
    case OWN_STORAGE: ct_storage_release(o.ptr); break;
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
  return true;
}

ct_tensor *ct__own(ct_tensor *t) {
  if (!t || tl_depth == 0) return t;
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
  for (int64_t i = 0; i < l->n; i++) s->items[s->n++] = (owned){l->items[i], OWN_TENSOR};
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
