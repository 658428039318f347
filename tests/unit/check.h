/* A minimal unit-test harness: CHECK records a failure and goes on; main ends with TEST_SUMMARY(). */
#ifndef CT_TEST_CHECK_H
#define CT_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

#include <ctorch.h>

static int ct_test_passed, ct_test_failed;

#define CHECK(cond)                                                                   \
  do {                                                                                \
    if (cond) {                                                                       \
      ct_test_passed++;                                                               \
    } else {                                                                          \
      ct_test_failed++;                                                               \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);        \
    }                                                                                 \
  } while (0)

#define CHECK_EQ_INT(a, b)                                                                      \
  do {                                                                                          \
    long long ct_a_ = (long long)(a), ct_b_ = (long long)(b);                                   \
    if (ct_a_ == ct_b_) {                                                                       \
      ct_test_passed++;                                                                         \
    } else {                                                                                    \
      ct_test_failed++;                                                                         \
      fprintf(stderr, "%s:%d: %s == %s failed: %lld != %lld\n", __FILE__, __LINE__, #a, #b, ct_a_, ct_b_); \
    }                                                                                           \
  } while (0)

#define CHECK_STR(a, b)                                                                         \
  do {                                                                                          \
    const char *ct_a_ = (a), *ct_b_ = (b);                                                      \
    if (ct_a_ && ct_b_ && strcmp(ct_a_, ct_b_) == 0) {                                          \
      ct_test_passed++;                                                                         \
    } else {                                                                                    \
      ct_test_failed++;                                                                         \
      fprintf(stderr, "%s:%d: %s == %s failed:\n  got:      \"%s\"\n  expected: \"%s\"\n", __FILE__, __LINE__, \
              #a, #b, ct_a_ ? ct_a_ : "(null)", ct_b_ ? ct_b_ : "(null)");                  \
    }                                                                                           \
  } while (0)

/* Asserts the last call failed with this kind and exact message, then clears the error. */
#define CHECK_ERROR(kind, msg)                      \
  do {                                              \
    CHECK_EQ_INT(ct_last_error(), (kind));          \
    CHECK_STR(ct_last_error_message(), (msg));      \
    ct_clear_error();                               \
  } while (0)

/* Same shape as the given literal list. */
#define CHECK_SHAPE(t, ...)                                                                 \
  do {                                                                                      \
    const int64_t ct_e_[] = {__VA_ARGS__};                                                  \
    int64_t ct_n_ = (int64_t)(sizeof ct_e_ / sizeof ct_e_[0]);                              \
    CHECK_EQ_INT(ct_dim(t), ct_n_);                                                         \
    if (ct_dim(t) == ct_n_)                                                                 \
      for (int64_t ct_i_ = 0; ct_i_ < ct_n_; ct_i_++) CHECK_EQ_INT(ct_sizes(t)[ct_i_], ct_e_[ct_i_]); \
  } while (0)

#define CHECK_STRIDES(t, ...)                                                               \
  do {                                                                                      \
    const int64_t ct_e_[] = {__VA_ARGS__};                                                  \
    int64_t ct_n_ = (int64_t)(sizeof ct_e_ / sizeof ct_e_[0]);                              \
    CHECK_EQ_INT(ct_dim(t), ct_n_);                                                         \
    if (ct_dim(t) == ct_n_)                                                                 \
      for (int64_t ct_i_ = 0; ct_i_ < ct_n_; ct_i_++) CHECK_EQ_INT(ct_strides(t)[ct_i_], ct_e_[ct_i_]); \
  } while (0)

#define TEST_SUMMARY()                                                          \
  (printf("%s: %d passed, %d failed\n", __FILE__, ct_test_passed, ct_test_failed), ct_test_failed ? 1 : 0)

#endif
