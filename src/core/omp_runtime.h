/* libgomp, the OpenMP runtime of the libraries ctorch loads (OpenBLAS's OpenMP build, oneDNN), reached
   through dlopen rather than linked: see omp_runtime.c for why. The two calls ctorch makes, with
   libgomp's meaning (the calling thread's count for its next parallel regions). */
#ifndef CTORCH_CORE_OMP_RUNTIME_H
#define CTORCH_CORE_OMP_RUNTIME_H

#include <stdbool.h>

int ct__omp_get_max_threads(void);
void ct__omp_set_num_threads(int n);
/* Whether ctorch loaded libgomp itself and, the user having set neither OMP_WAIT_POLICY nor GOMP_SPINCOUNT,
   had it read OMP_WAIT_POLICY=passive (false where the program had libgomp already, or it is missing). */
bool ct__omp_passive(void);

#endif
