/* LU factorizations and triangular solvers: lu, linalg.lu, lu_factor(_ex), lu_solve, lu_unpack, triangular_solve, linalg.solve_triangular, cholesky_solve, cholesky_inverse, as torch 1.13 computes them on the CPU (conventions: linalg.h's comment). */
#ifndef CTORCH_LINALG_LU_H
#define CTORCH_LINALG_LU_H

#include "args.h"
#include "error.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* C: each function above is also a macro of its name that checks its arguments (args.h). */
#if !defined(__cplusplus) && !defined(CT_BUILDING_LIBRARY)
#endif

#ifdef __cplusplus
}
#endif
#endif
