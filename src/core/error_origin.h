/* Which public function recorded an error (error_origin.c). */
#ifndef CT_CORE_ERROR_ORIGIN_H
#define CT_CORE_ERROR_ORIGIN_H

/* The calling thread's return addresses, innermost first (backtrace(3)); 0 where unsupported. */
int ct__origin_capture(void **frames, int max);
/* The outermost frame that lies inside an exported ct_ function of this library: its name (static
   storage), or NULL when none is found. */
const char *ct__origin_function(void *const *frames, int n);
/* The frames, symbolized, to stderr. */
void ct__origin_print(void *const *frames, int n);

#endif
