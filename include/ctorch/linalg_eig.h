/* General eigenproblems and matrix functions: linalg.eig, linalg.eigvals, matrix_power, linalg.matrix_exp, linalg.tensorinv, linalg.tensorsolve, linalg.diagonal, as torch 1.13 computes them on the CPU (conventions: linalg.h's comment). */
#ifndef CTORCH_LINALG_EIG_H
#define CTORCH_LINALG_EIG_H

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
