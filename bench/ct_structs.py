"""The ctypes mirrors of ctorch's value types that the Python benchmarks pass by value (one copy for all)."""
import ctypes


class Shape(ctypes.Structure):  # ct_shape
    _fields_ = [("data", ctypes.POINTER(ctypes.c_int64)), ("ndim", ctypes.c_int64)]


class Complex(ctypes.Structure):
    _fields_ = [("re", ctypes.c_double), ("im", ctypes.c_double)]


class ScalarValue(ctypes.Union):
    _fields_ = [("b", ctypes.c_bool), ("i", ctypes.c_int64), ("d", ctypes.c_double), ("c", Complex)]


class Scalar(ctypes.Structure):  # ct_scalar
    _fields_ = [("kind", ctypes.c_int), ("v", ScalarValue)]


class ReduceOpts(ctypes.Structure):  # ct_reduce_opts
    _fields_ = [("dims", Shape), ("keepdim", ctypes.c_bool), ("dtype", ctypes.c_int)]


class VarOpts(ctypes.Structure):  # ct_var_opts (correction kind 0: unbiased, PyTorch's default)
    _fields_ = [("dims", Shape), ("keepdim", ctypes.c_bool), ("correction", Scalar)]


class RandomOpts(ctypes.Structure):  # ct_random_opts: generator, dtype, then fields left zero
    _fields_ = [("generator", ctypes.c_void_p), ("dtype", ctypes.c_int), ("rest", ctypes.c_char * 64)]
