/* Printing: repr(tensor) exactly as PyTorch 1.13 writes it, and torch.set_printoptions. */
#ifndef CTORCH_FORMAT_H
#define CTORCH_FORMAT_H

#include <stdio.h>

#include "args.h"
#include "error.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* repr(t): a new NUL-terminated string; the caller frees it with free(). NULL on failure (out of
   memory, or the error PyTorch's repr raises, e.g. a negative precision), with the error recorded.
   A NULL tensor gives NULL without recording a new error. */
CT_API char *ct_to_string(const ct_tensor *t);
/* print(t): repr(t) and a newline to stdout / to f. */
CT_API ct_status ct_print(const ct_tensor *t);
CT_API ct_status ct_fprint(FILE *f, const ct_tensor *t);

/* Python's text for the Python values a tensor gives: repr(t.tolist()) ("[[1.5, 2.0], [nan, -0.0]]"),
   repr(t.item()), repr(t.size()) ("torch.Size([2, 3])"), repr(t.stride()) ("(3, 1)", "(1,)", "()").
   Floats as repr(float) writes them (the shortest text that reads back as the same double: 0.1,
   1e-05, 1e+16, float32 0.1 is 0.10000000149011612), ints, True/False, complex as repr(complex)
   ("(1+2j)", "1j", "(nan+infj)"). A new string the caller frees with free(); NULL with the error
   recorded (torch's for item() of many elements or of a meta tensor, tolist() of a meta tensor). */
CT_API char *ct_tolist_repr(const ct_tensor *t);
CT_API char *ct_item_repr(const ct_tensor *t);
CT_API char *ct_size_repr(const ct_tensor *t);
CT_API char *ct_stride_repr(const ct_tensor *t);
/* repr() of a Python number, snprintf-style: at most n bytes written (NUL included), the full length
   returned; buf may be NULL when n is 0. */
CT_API int ct_scalar_repr(ct_scalar s, char *buf, size_t n);

/* sci_mode of set_printoptions. AUTO is PyTorch's None; like PyTorch, every ct_set_printoptions
   call that leaves sci_mode zero resets it to AUTO. KEEP (a ctorch extension) leaves it unchanged. */
typedef enum ct_sci_mode {
  CT_SCI_MODE_AUTO = 0,
  CT_SCI_MODE_ON = 1,
  CT_SCI_MODE_OFF = 2,
  CT_SCI_MODE_KEEP = 3
} ct_sci_mode;

/* The profiles of set_printoptions; applied before the individual fields. */
typedef enum ct_print_profile {
  CT_PRINT_PROFILE_UNSET = 0,
  CT_PRINT_PROFILE_DEFAULT = 1, /* precision 4, threshold 1000, edgeitems 3, linewidth 80 */
  CT_PRINT_PROFILE_SHORT = 2,   /* precision 2, threshold 1000, edgeitems 2, linewidth 80 */
  CT_PRINT_PROFILE_FULL = 3     /* precision 4, threshold inf, edgeitems 3, linewidth 80 */
} ct_print_profile;

/* An optional integer: the zero value ({false, 0}) leaves the option unchanged, so 0 itself can be set. */
typedef struct ct_print_int {
  bool set;
  int64_t value;
} ct_print_int;

/* threshold = inf (the "full" profile): numel never exceeds it. */
#define CT_PRINT_THRESHOLD_INF INT64_MAX

/* torch.set_printoptions' arguments. Zero fields are left unchanged (sci_mode: see ct_sci_mode).
   threshold is PyTorch's float threshold rounded down: numel > 10.5 is numel > 10. */
typedef struct ct_print_options {
  ct_print_profile profile;
  ct_print_int precision; /* digits after the point (4) */
  ct_print_int threshold; /* summarize when numel > threshold (1000) */
  ct_print_int edgeitems; /* items kept at each end of a summarized dim (3) */
  ct_print_int linewidth; /* characters per line (80) */
  ct_sci_mode sci_mode;
} ct_print_options;

#ifndef __cplusplus
#define CT_PRINT_SET(v) ((ct_print_int){true, (int64_t)(v)})
#else
#define CT_PRINT_SET(v) (ct_print_int{true, static_cast<int64_t>(v)})
#endif

/* Process-wide; reading them while another thread sets them is safe (a print sees one consistent
   set). Invalid enum values are a ValueError. NULL options: like set_printoptions() with no
   arguments, which only resets sci_mode. */
CT_API ct_status ct_set_printoptions(const ct_print_options *opts);
/* Fills every field (set = true), the current sci_mode and profile UNSET, so that passing the result
   back to ct_set_printoptions restores these options exactly. */
CT_API ct_status ct_get_printoptions(ct_print_options *out);

/* C: each function above with options is also a macro of its name that checks its arguments (args.h). */
#if !defined(__cplusplus) && !defined(CT_BUILDING_LIBRARY)
#define ct_set_printoptions(...) CT__CHECKED(1, CT__CK_ct_set_printoptions, ct_set_printoptions, __VA_ARGS__)
#define CT__CK_ct_set_printoptions(o) ct_set_printoptions(CT__OPTS(ct_print_options, o))
#endif

#ifdef __cplusplus
}
#endif
#endif
