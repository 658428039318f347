/* The error model: a failing call returns NULL (or a non-zero ct_status) and records a thread-local
   error whose kind mirrors PyTorch's exception class and whose message is PyTorch's text.
   A call given a NULL tensor returns NULL and leaves the recorded error alone, so a chain of calls
   reports its first cause. */
#ifndef CTORCH_ERROR_H
#define CTORCH_ERROR_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ct_error_kind {
  CT_OK = 0,
  CT_ERR_RUNTIME = 1,        /* RuntimeError */
  CT_ERR_VALUE = 2,          /* ValueError */
  CT_ERR_TYPE = 3,           /* TypeError */
  CT_ERR_INDEX = 4,          /* IndexError */
  CT_ERR_NOT_IMPLEMENTED = 5,/* NotImplementedError */
  CT_ERR_OUT_OF_MEMORY = 6,  /* torch.cuda.OutOfMemoryError / RuntimeError: can't allocate */
  CT_ERR_IO = 7,             /* OSError */
  CT_ERR_OVERFLOW = 8,       /* OverflowError (a float seed that is infinite) */
  CT_ERR_LINALG = 9          /* torch.linalg.LinAlgError (a singular or not positive-definite matrix) */
} ct_error_kind;

/* Functions that return a value rather than a tensor return a ct_status (CT_OK on success). */
typedef ct_error_kind ct_status;

CT_API ct_error_kind ct_last_error(void);
/* The message of the last error ("" when none); valid until the next failing call on this thread. */
CT_API const char *ct_last_error_message(void);
/* The Python exception class name of a kind: "RuntimeError", "IndexError", ... */
CT_API const char *ct_error_kind_name(ct_error_kind kind);
CT_API void ct_clear_error(void);
/* The public function the recorded error came from: the outermost ct_ function on the stack when it was
   recorded ("ct_cpu" for an error inside the ct_to that ct_cpu calls). "" when no error is recorded, or
   when it cannot be told: it needs glibc and the library's symbols in the dynamic symbol table (the
   shared library, or a static link with -rdynamic). Valid until the next error on this thread. */
CT_API const char *ct_last_error_function(void);
/* Called on the recording thread each time an error is recorded, with the kind, the function (as
   ct_last_error_function) and the message; process-wide, NULL removes it. A failing call made from the
   handler does not call it again. */
typedef void (*ct_error_handler)(ct_error_kind kind, const char *function, const char *message, void *user);
CT_API void ct_set_error_handler(ct_error_handler fn, void *user);
/* The debug mode: each error is printed to stderr when recorded ("ctorch: ValueError in ct_mul: ..." and
   a backtrace), and ct_release checks every release against the scopes of the calling thread. Also on
   when the environment has CTORCH_DEBUG=1 at load time. Costs only in debug mode and on errors. */
CT_API void ct_set_debug(bool on);
CT_API bool ct_debug_enabled(void);

#ifdef __cplusplus
}
#endif
#endif
