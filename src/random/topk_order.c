/* libstdc++'s (GCC 12) partial_sort, nth_element and sort, written out for topk's comparator
   (see topk_order.h). Names follow the library's internal helpers they mirror. */
#include <math.h>

#include "random/topk_order.h"

typedef ct_topk_elem elem;

/* topk's "largest" comparator: NaN first, then greater values first. */
static inline bool comp(const elem *x, const elem *y) {
  return (isnan(x->value) && !isnan(y->value)) || x->value > y->value;
}
static inline void swap(elem *a, elem *b) {
  elem t = *a;
  *a = *b;
  *b = t;
}
static int64_t lg(int64_t n) { return 63 - __builtin_clzll((unsigned long long)n); }

static void push_heap(elem *first, int64_t hole, int64_t top, elem value) {
  int64_t parent = (hole - 1) / 2;
  while (hole > top && comp(first + parent, &value)) {
    first[hole] = first[parent];
    hole = parent;
    parent = (hole - 1) / 2;
  }
  first[hole] = value;
}

static void adjust_heap(elem *first, int64_t hole, int64_t len, elem value) {
  const int64_t top = hole;
  int64_t child = hole;
  while (child < (len - 1) / 2) {
    child = 2 * (child + 1);
    if (comp(first + child, first + (child - 1))) child--;
    first[hole] = first[child];
    hole = child;
  }
  if ((len & 1) == 0 && child == (len - 2) / 2) {
    child = 2 * (child + 1);
    first[hole] = first[child - 1];
    hole = child - 1;
  }
  push_heap(first, hole, top, value);
}

static void pop_heap(elem *first, elem *last, elem *result) {
  elem value = *result;
  *result = *first;
  adjust_heap(first, 0, last - first, value);
}

static void make_heap(elem *first, elem *last) {
  if (last - first < 2) return;
  const int64_t len = last - first;
  int64_t parent = (len - 2) / 2;
  for (;;) {
    adjust_heap(first, parent, len, first[parent]);
    if (parent == 0) return;
    parent--;
  }
}

static void sort_heap(elem *first, elem *last) {
  while (last - first > 1) {
    --last;
    pop_heap(first, last, last);
  }
}

static void heap_select(elem *first, elem *middle, elem *last) {
  make_heap(first, middle);
  for (elem *i = middle; i < last; ++i)
    if (comp(i, first)) pop_heap(first, middle, i);
}

static void partial_sort(elem *first, elem *middle, elem *last) {
  heap_select(first, middle, last);
  sort_heap(first, middle);
}

static void move_median_to_first(elem *result, elem *a, elem *b, elem *c) {
  if (comp(a, b)) {
    if (comp(b, c))
      swap(result, b);
    else if (comp(a, c))
      swap(result, c);
    else
      swap(result, a);
  } else if (comp(a, c)) {
    swap(result, a);
  } else if (comp(b, c)) {
    swap(result, c);
  } else {
    swap(result, b);
  }
}

static elem *unguarded_partition(elem *first, elem *last, elem *pivot) {
  for (;;) {
    while (comp(first, pivot)) ++first;
    --last;
    while (comp(pivot, last)) --last;
    if (!(first < last)) return first;
    swap(first, last);
    ++first;
  }
}

static elem *unguarded_partition_pivot(elem *first, elem *last) {
  elem *mid = first + (last - first) / 2;
  move_median_to_first(first, first + 1, mid, last - 1);
  return unguarded_partition(first + 1, last, first);
}

static void unguarded_linear_insert(elem *last) {
  elem val = *last;
  elem *next = last - 1;
  while (comp(&val, next)) {
    *last = *next;
    last = next;
    --next;
  }
  *last = val;
}

static void insertion_sort(elem *first, elem *last) {
  if (first == last) return;
  for (elem *i = first + 1; i != last; ++i) {
    if (comp(i, first)) {
      elem val = *i;
      for (elem *p = i; p != first; --p) p[0] = p[-1];
      *first = val;
    } else {
      unguarded_linear_insert(i);
    }
  }
}

static void introselect(elem *first, elem *nth, elem *last, int64_t depth) {
  while (last - first > 3) {
    if (depth == 0) {
      heap_select(first, nth + 1, last);
      swap(first, nth);
      return;
    }
    --depth;
    elem *cut = unguarded_partition_pivot(first, last);
    if (cut <= nth)
      first = cut;
    else
      last = cut;
  }
  insertion_sort(first, last);
}

static void nth_element(elem *first, elem *nth, elem *last) {
  if (first == last || nth == last) return;
  introselect(first, nth, last, lg(last - first) * 2);
}

enum { THRESHOLD = 16 };

static void introsort_loop(elem *first, elem *last, int64_t depth) {
  while (last - first > THRESHOLD) {
    if (depth == 0) {
      partial_sort(first, last, last);
      return;
    }
    --depth;
    elem *cut = unguarded_partition_pivot(first, last);
    introsort_loop(cut, last, depth);
    last = cut;
  }
}

static void final_insertion_sort(elem *first, elem *last) {
  if (last - first > THRESHOLD) {
    insertion_sort(first, first + THRESHOLD);
    for (elem *i = first + THRESHOLD; i != last; ++i) unguarded_linear_insert(i);
  } else {
    insertion_sort(first, last);
  }
}

static void sort(elem *first, elem *last) {
  if (first == last) return;
  introsort_loop(first, last, lg(last - first) * 2);
  final_insertion_sort(first, last);
}

void ct__topk_largest(ct_topk_elem *q, int64_t n, int64_t k) {
  if (k <= 0) return;
  if (k * 64 <= n) {
    partial_sort(q, q + k, q + n);
  } else {
    nth_element(q, q + k - 1, q + n);
    sort(q, q + k - 1);
  }
}
