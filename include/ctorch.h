/* ctorch: PyTorch's tensor as a C library. The only header users include. */
#ifndef CTORCH_H
#define CTORCH_H

#define CTORCH_VERSION_MAJOR 0
#define CTORCH_VERSION_MINOR 1
#define CTORCH_VERSION_PATCH 0

#include "ctorch/types.h"
#include "ctorch/error.h"
#include "ctorch/dtype.h"
#include "ctorch/tensor.h"
#include "ctorch/storage.h"
#include "ctorch/create.h"
#include "ctorch/convert.h"
#include "ctorch/view.h"
#include "ctorch/pointwise.h"
#include "ctorch/reduce.h"
#include "ctorch/scan.h"
#include "ctorch/index.h"
#include "ctorch/join.h"
#include "ctorch/matmul.h"
#include "ctorch/sort.h"
#include "ctorch/linalg.h"
#include "ctorch/linalg_lu.h"
#include "ctorch/linalg_qr.h"
#include "ctorch/linalg_eig.h"
#include "ctorch/linalg_norm.h"
#include "ctorch/format.h"
#include "ctorch/random.h"

#endif
