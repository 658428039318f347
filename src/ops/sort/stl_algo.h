/* libstdc++'s (GCC 12) std::sort, std::partial_sort and std::nth_element, step for step, over an array of T
   with a comparison LESS(cx, a, b). torch 1.13's CPU kernels order elements with these (sort with
   stable=False, topk, mode, unique with a dim, median's selection), and for elements that compare equal the
   order they leave depends on every move the algorithm makes: running the same moves with the same
   comparisons gives torch's indices, ties included. CT_STL_ALGOS(P, T, LESS) defines static functions
   P_sort, P_partial_sort, P_nth_element (and their helpers); cx is handed to every comparison. */
#ifndef CTORCH_OPS_SORT_STL_ALGO_H
#define CTORCH_OPS_SORT_STL_ALGO_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* std::__lg */
static inline int64_t ct__stl_lg(int64_t n) { return 63 - __builtin_clzll((unsigned long long)n); }

/* std::sort's threshold below which partitions are left to the final insertion sort. */
#define CT_STL_THRESHOLD 16
/* each user takes some of the functions */
#define CT_STL_FN static inline __attribute__((unused))

#define CT_STL_ALGOS(P, T, LESS)                                                                     \
  CT_STL_FN void P##_swap(T *a, T *b) {                                                              \
    T t_ = *a;                                                                                       \
    *a = *b;                                                                                         \
    *b = t_;                                                                                         \
  }                                                                                                  \
  CT_STL_FN void P##_median_to_first(const void *cx, T *result, T *a, T *b, T *c) {                  \
    (void)cx;                                                                                        \
    if (LESS(cx, *a, *b)) {                                                                          \
      if (LESS(cx, *b, *c)) P##_swap(result, b);                                                     \
      else if (LESS(cx, *a, *c)) P##_swap(result, c);                                                \
      else P##_swap(result, a);                                                                      \
    } else if (LESS(cx, *a, *c)) P##_swap(result, a);                                                \
    else if (LESS(cx, *b, *c)) P##_swap(result, c);                                                  \
    else P##_swap(result, b);                                                                        \
  }                                                                                                  \
  CT_STL_FN T *P##_unguarded_partition(const void *cx, T *first, T *last, T *pivot) {                \
    (void)cx;                                                                                        \
    for (;;) {                                                                                       \
      while (LESS(cx, *first, *pivot)) ++first;                                                      \
      --last;                                                                                        \
      while (LESS(cx, *pivot, *last)) --last;                                                        \
      if (!(first < last)) return first;                                                             \
      P##_swap(first, last);                                                                         \
      ++first;                                                                                       \
    }                                                                                                \
  }                                                                                                  \
  CT_STL_FN T *P##_partition_pivot(const void *cx, T *first, T *last) {                              \
    (void)cx;                                                                                        \
    T *mid = first + (last - first) / 2;                                                             \
    P##_median_to_first(cx, first, first + 1, mid, last - 1);                                        \
    return P##_unguarded_partition(cx, first + 1, last, first);                                      \
  }                                                                                                  \
  CT_STL_FN void P##_push_heap(const void *cx, T *first, ptrdiff_t hole, ptrdiff_t top, T value) {   \
    (void)cx;                                                                                        \
    ptrdiff_t parent = (hole - 1) / 2;                                                               \
    while (hole > top && LESS(cx, first[parent], value)) {                                           \
      first[hole] = first[parent];                                                                   \
      hole = parent;                                                                                 \
      parent = (hole - 1) / 2;                                                                       \
    }                                                                                                \
    first[hole] = value;                                                                             \
  }                                                                                                  \
  CT_STL_FN void P##_adjust_heap(const void *cx, T *first, ptrdiff_t hole, ptrdiff_t len, T value) { \
    (void)cx;                                                                                        \
    const ptrdiff_t top = hole;                                                                      \
    ptrdiff_t second = hole;                                                                         \
    while (second < (len - 1) / 2) {                                                                 \
      second = 2 * (second + 1);                                                                     \
      if (LESS(cx, first[second], first[second - 1])) second--;                                      \
      first[hole] = first[second];                                                                   \
      hole = second;                                                                                 \
    }                                                                                                \
    if ((len & 1) == 0 && second == (len - 2) / 2) {                                                 \
      second = 2 * (second + 1);                                                                     \
      first[hole] = first[second - 1];                                                               \
      hole = second - 1;                                                                             \
    }                                                                                                \
    P##_push_heap(cx, first, hole, top, value);                                                      \
  }                                                                                                  \
  CT_STL_FN void P##_pop_heap(const void *cx, T *first, T *last, T *result) {                        \
    (void)cx;                                                                                        \
    T value = *result;                                                                               \
    *result = *first;                                                                                \
    P##_adjust_heap(cx, first, 0, last - first, value);                                              \
  }                                                                                                  \
  CT_STL_FN void P##_make_heap(const void *cx, T *first, T *last) {                                  \
    (void)cx;                                                                                        \
    ptrdiff_t len = last - first;                                                                    \
    if (len < 2) return;                                                                             \
    for (ptrdiff_t parent = (len - 2) / 2;; parent--) {                                              \
      P##_adjust_heap(cx, first, parent, len, first[parent]);                                        \
      if (parent == 0) return;                                                                       \
    }                                                                                                \
  }                                                                                                  \
  CT_STL_FN void P##_sort_heap(const void *cx, T *first, T *last) {                                  \
    (void)cx;                                                                                        \
    while (last - first > 1) {                                                                       \
      --last;                                                                                        \
      P##_pop_heap(cx, first, last, last);                                                           \
    }                                                                                                \
  }                                                                                                  \
  CT_STL_FN void P##_heap_select(const void *cx, T *first, T *middle, T *last) {                     \
    (void)cx;                                                                                        \
    P##_make_heap(cx, first, middle);                                                                \
    for (T *i = middle; i < last; ++i)                                                               \
      if (LESS(cx, *i, *first)) P##_pop_heap(cx, first, middle, i);                                  \
  }                                                                                                  \
  CT_STL_FN void P##_linear_insert(const void *cx, T *last) {                                        \
    (void)cx;                                                                                        \
    T val = *last, *next = last - 1;                                                                 \
    while (LESS(cx, val, *next)) {                                                                   \
      *last = *next;                                                                                 \
      last = next;                                                                                   \
      --next;                                                                                        \
    }                                                                                                \
    *last = val;                                                                                     \
  }                                                                                                  \
  CT_STL_FN void P##_insertion_sort(const void *cx, T *first, T *last) {                             \
    (void)cx;                                                                                        \
    if (first == last) return;                                                                       \
    for (T *i = first + 1; i != last; ++i) {                                                         \
      if (LESS(cx, *i, *first)) {                                                                    \
        T val = *i;                                                                                  \
        memmove(first + 1, first, (size_t)(i - first) * sizeof(T));                                  \
        *first = val;                                                                                \
      } else {                                                                                       \
        P##_linear_insert(cx, i);                                                                    \
      }                                                                                              \
    }                                                                                                \
  }                                                                                                  \
  CT_STL_FN void P##_introsort_loop(const void *cx, T *first, T *last, int64_t depth) {              \
    (void)cx;                                                                                        \
    while (last - first > CT_STL_THRESHOLD) {                                                        \
      if (depth == 0) {                                                                              \
        P##_heap_select(cx, first, last, last);                                                      \
        P##_sort_heap(cx, first, last);                                                              \
        return;                                                                                      \
      }                                                                                              \
      --depth;                                                                                       \
      T *cut = P##_partition_pivot(cx, first, last);                                                 \
      P##_introsort_loop(cx, cut, last, depth);                                                      \
      last = cut;                                                                                    \
    }                                                                                                \
  }                                                                                                  \
  CT_STL_FN void P##_sort(const void *cx, T *first, T *last) {                                       \
    (void)cx;                                                                                        \
    if (first == last) return;                                                                       \
    P##_introsort_loop(cx, first, last, ct__stl_lg(last - first) * 2);                               \
    if (last - first > CT_STL_THRESHOLD) {                                                           \
      P##_insertion_sort(cx, first, first + CT_STL_THRESHOLD);                                       \
      for (T *i = first + CT_STL_THRESHOLD; i != last; ++i) P##_linear_insert(cx, i);                \
    } else {                                                                                         \
      P##_insertion_sort(cx, first, last);                                                           \
    }                                                                                                \
  }                                                                                                  \
  CT_STL_FN void P##_partial_sort(const void *cx, T *first, T *middle, T *last) {                    \
    (void)cx;                                                                                        \
    P##_heap_select(cx, first, middle, last);                                                        \
    P##_sort_heap(cx, first, middle);                                                                \
  }                                                                                                  \
  CT_STL_FN void P##_nth_element(const void *cx, T *first, T *nth, T *last) {                        \
    (void)cx;                                                                                        \
    if (first == last || nth == last) return;                                                        \
    int64_t depth = ct__stl_lg(last - first) * 2;                                                    \
    while (last - first > 3) {                                                                       \
      if (depth == 0) {                                                                              \
        P##_heap_select(cx, first, nth + 1, last);                                                   \
        P##_swap(first, nth);                                                                        \
        return;                                                                                      \
      }                                                                                              \
      --depth;                                                                                       \
      T *cut = P##_partition_pivot(cx, first, last);                                                 \
      if (cut <= nth) first = cut;                                                                   \
      else last = cut;                                                                               \
    }                                                                                                \
    P##_insertion_sort(cx, first, last);                                                             \
  }

#endif
