/* What the linear algebra unit tests share (test_linalg*.c): a float64 matrix over a C array, a one-element
   result read as a double, and a comparison with expected values (torch 1.13's, cited by each test) within a
   relative tolerance. Include after check.h. */
#ifndef CT_TEST_LINALG_CHECK_H
#define CT_TEST_LINALG_CHECK_H

#include <math.h>
#include <stdio.h>

/* Whether t holds the n values want (read as float64), each within tol * (1 + |want|); prints the first miss. */
static inline bool close_to(const ct_tensor *t, const double *want, int64_t n, double tol) {
  double got[64];
  if (!t || ct_numel(t) != n || n > 64) return false;
  if (ct_copy_to_buffer(t, got, CT_FLOAT64, (size_t)n * sizeof *got) != CT_OK) return false;
  for (int64_t i = 0; i < n; i++)
    if (!(fabs(got[i] - want[i]) <= tol * (1 + fabs(want[i])))) {
      fprintf(stderr, "  element %lld: %.17g, expected %.17g\n", (long long)i, got[i], want[i]);
      return false;
    }
  return true;
}

/* The r x c float64 matrix over d (not copied). */
static inline ct_tensor *mat(const double *d, int64_t r, int64_t c) {
  return ct_tensor_from_data(d, CT_FLOAT64, CT_SHAPE(r, c), NULL);
}

/* The single value of t as a double (NaN, and a failed check, when t is not one element). */
static inline double item(const ct_tensor *t) {
  double v = NAN;
  CHECK(t && ct_numel(t) == 1 && ct_copy_to_buffer(t, &v, CT_FLOAT64, sizeof v) == CT_OK);
  return v;
}

#endif
