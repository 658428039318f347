/* torch.unique(sorted=False)'s order: the iteration order of libstdc++'s std::unordered_set built from the
   input range (unique_hash.c). */
#ifndef CTORCH_OPS_SORT_UNIQUE_HASH_H
#define CTORCH_OPS_SORT_UNIQUE_HASH_H

#include <stddef.h>
#include <stdint.h>

/* libstdc++'s std::_Hash_bytes (64-bit size_t): std::hash<float> / <double> of a nonzero value is
   _Hash_bytes(&v, sizeof v, 0xc70f6907). */
uint64_t ct__hash_bytes(const void *p, size_t len, uint64_t seed);

/* _Prime_rehash_policy::_M_next_bkt(n) with max_load_factor 1: the bucket count; *next_resize is the
   policy's _M_next_resize after the call (left as it was for n == 0, as libstdc++ leaves it). */
uint64_t ct__uset_next_bkt(uint64_t n, uint64_t *next_resize);

/* Inserts elements 0..n-1 in order into an emulated std::unordered_set (libstdc++ of GCC 12, the one torch
   1.13's Debian build has): element i has the hash code code[i] and the equality key key[i] (NULL: the
   code), two elements being equal when their keys are (alone[i] != 0, alone may be NULL: equal to nothing,
   a NaN). Writes the nodes' first elements in insertion order (first[0..m)), each element's node
   (node_of[0..n), NULL: not written) and the set's iteration order as nodes (order[0..m)); returns m, or -1
   out of memory (recorded). *buckets (may be NULL): the final bucket count. */
int64_t ct__uset_build(int64_t n, const uint64_t *code, const uint64_t *key, const uint8_t *alone,
                       int64_t *first, int64_t *node_of, int64_t *order, uint64_t *buckets);

#endif
