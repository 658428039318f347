/* torch.set_printoptions: process-wide options behind a lock, so a print reads one consistent set. */
#include <pthread.h>

#include "format/format_internal.h"

static pthread_mutex_t opts_lock = PTHREAD_MUTEX_INITIALIZER;
static ct__print_opts current = {4, 1000, 3, 80, CT_SCI_MODE_AUTO};

static void read_opts(ct__print_opts *o) {
  pthread_mutex_lock(&opts_lock);
  *o = current;
  pthread_mutex_unlock(&opts_lock);
}

/* Python's integers do not overflow; the printer's int64 arithmetic (linewidth - indent, ...) would at the
   ends of the range. Any width beyond +-2^62 prints as one that far out: no line comes near it. */
void ct__get_print_opts(ct__print_opts *o) {
  read_opts(o);
  const int64_t lim = INT64_C(1) << 62;
  o->linewidth = o->linewidth < -lim ? -lim : o->linewidth > lim ? lim : o->linewidth;
}

static void apply_profile(ct__print_opts *o, ct_print_profile p) {
  switch (p) {
    case CT_PRINT_PROFILE_DEFAULT: o->precision = 4, o->threshold = 1000, o->edgeitems = 3, o->linewidth = 80; break;
    case CT_PRINT_PROFILE_SHORT: o->precision = 2, o->threshold = 1000, o->edgeitems = 2, o->linewidth = 80; break;
    case CT_PRINT_PROFILE_FULL:
      o->precision = 4, o->threshold = CT_PRINT_THRESHOLD_INF, o->edgeitems = 3, o->linewidth = 80;
      break;
    default: break;
  }
}

static void apply_int(int64_t *dst, ct_print_int v) {
  if (v.set) *dst = v.value;
}

ct_status ct_set_printoptions(const ct_print_options *opts) {
  ct_print_options in = opts ? *opts : (ct_print_options){0};
  if ((unsigned)in.profile > CT_PRINT_PROFILE_FULL) {
    ct__error(CT_ERR_VALUE, "set_printoptions: invalid profile %d", (int)in.profile);
    return CT_ERR_VALUE;
  }
  if ((unsigned)in.sci_mode > CT_SCI_MODE_KEEP) {
    ct__error(CT_ERR_VALUE, "set_printoptions: invalid sci_mode %d", (int)in.sci_mode);
    return CT_ERR_VALUE;
  }
  pthread_mutex_lock(&opts_lock);
  apply_profile(&current, in.profile);
  apply_int(&current.precision, in.precision);
  apply_int(&current.threshold, in.threshold);
  apply_int(&current.edgeitems, in.edgeitems);
  apply_int(&current.linewidth, in.linewidth);
  /* PyTorch's quirk: sci_mode not given means None, so every call resets it. */
  if (in.sci_mode != CT_SCI_MODE_KEEP) current.sci_mode = in.sci_mode;
  pthread_mutex_unlock(&opts_lock);
  return CT_OK;
}

ct_status ct_get_printoptions(ct_print_options *out) {
  if (!out) {
    ct__error(CT_ERR_VALUE, "get_printoptions: out must not be NULL");
    return CT_ERR_VALUE;
  }
  ct__print_opts o;
  read_opts(&o); /* the values as set, unclamped */
  *out = (ct_print_options){
      .profile = CT_PRINT_PROFILE_UNSET,
      .precision = {true, o.precision},
      .threshold = {true, o.threshold},
      .edgeitems = {true, o.edgeitems},
      .linewidth = {true, o.linewidth},
      .sci_mode = o.sci_mode,
  };
  return CT_OK;
}
