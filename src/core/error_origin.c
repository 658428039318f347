/* Which public function failed: the stack is captured when an error is recorded (only then: a call
   that succeeds pays nothing) and read later, on demand, as the outermost frame that lies inside an
   exported ct_ function of this library.

   Why the outermost: a public function calls others (ct_std calls ct_var's code; ct_float calls
   ct_to), and the user called the outermost one. Why exported and of this library: dladdr1's symbol
   entry gives the symbol's size, so a frame in a hidden (static) function placed after ct_x is not
   taken for ct_x, and the object's base tells a user's own function named ct_x apart from ours. A
   public function that ended in a tail call to a helper would leave no frame at all, so the library
   is compiled with -fno-optimize-sibling-calls (CMakeLists.txt).

   Needs glibc (backtrace, dladdr1) and the ct_ symbols in the dynamic symbol table: the shared
   library, or a static link of a program built with -rdynamic (ENABLE_EXPORTS). Elsewhere the function
   is unknown ("") and everything else works. */
#include <stdint.h>

#include "core/error_origin.h"

#if defined(__GLIBC__)
#include <dlfcn.h>
#include <string.h>
#include <execinfo.h>
#include <link.h>
#include <unistd.h>

int ct__origin_capture(void **frames, int max) { return backtrace(frames, max); }

/* The base of the object that holds this code (the shared library, or the program it is linked into). */
static const void *library_base(void) {
  Dl_info info;
  return dladdr((void *)(uintptr_t)&ct__origin_capture, &info) ? info.dli_fbase : NULL;
}

/* The exported ct_ function (not a ct__ internal) whose code holds addr, or NULL. */
static const char *public_function_at(const void *addr, const void *base) {
  Dl_info info;
  const ElfW(Sym) *sym = NULL;
  if (!dladdr1(addr, &info, (void **)&sym, RTLD_DL_SYMENT) || info.dli_fbase != base || !sym || !info.dli_sname)
    return NULL;
  if (ELF64_ST_TYPE(sym->st_info) != STT_FUNC) return NULL;
  uintptr_t start = (uintptr_t)info.dli_saddr, a = (uintptr_t)addr;
  if (a < start || a >= start + sym->st_size) return NULL;
  const char *n = info.dli_sname;
  return n[0] == 'c' && n[1] == 't' && n[2] == '_' && n[3] != '_' ? n : NULL;
}

const char *ct__origin_function(void *const *frames, int n) {
  const void *base = library_base();
  if (!base) return NULL;
  const char *found = NULL;
  /* frames[i] are return addresses: the call instruction ends just before, and a call that is a
     function's last instruction returns past its end, so look one byte back. */
  for (int i = 0; i < n; i++) {
    const char *name = public_function_at((const char *)frames[i] - 1, base);
    /* ct_call_*: the trampolines the C macros of include/ctorch/args.h route a call through (numbers
       wrapped, options checked); the user wrote the function they call */
    if (name && !(found && strncmp(name, "ct_call_", 8) == 0)) found = name;
  }
  return found;
}

void ct__origin_print(void *const *frames, int n) { backtrace_symbols_fd(frames, n, STDERR_FILENO); }

#else

int ct__origin_capture(void **frames, int max) {
  (void)frames;
  (void)max;
  return 0;
}
const char *ct__origin_function(void *const *frames, int n) {
  (void)frames;
  (void)n;
  return NULL;
}
void ct__origin_print(void *const *frames, int n) {
  (void)frames;
  (void)n;
}

#endif
