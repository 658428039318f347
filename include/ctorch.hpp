/* ctorch.hpp: a header-only C++17 layer over ctorch's C API, in namespace ctorch, so that C++ reads as
   torch does:

     ctorch::manual_seed(0);
     ctorch::Tensor x = ctorch::randn({6, 3});
     ctorch::Tensor z = (x - x.mean(0)) / x.std(0);
     std::cout << z << "\n";              // repr(z), as torch 1.13 prints it

   - Tensor is a reference-counted handle: copying shares the tensor (a retain), assignment rebinds the
     handle as Python's `=` does, the destructor releases. Results never belong to a ct scope: every call
     runs in a scope of its own and hands out a reference of the Tensor's own, so Tensors and C scopes
     can be mixed freely.
   - C++ numbers are Python numbers (bool, int, float, complex) and promote as torch's wrapped numbers:
     `x * 2` keeps x's dtype, `int_tensor * 0.5` gives the default float dtype.
   - A failing call throws the exception class of its ct error kind (value_error for ValueError, ...),
     whose what() is torch's message. The recorded C error is cleared when it is thrown.
   - Operators are Python's: + - * / % (true division, Python's remainder), unary -, the comparisons
     (element-wise, bool tensors), & | ^ ~ (bitwise), += -= *= /= (in place). */
#ifndef CTORCH_HPP
#define CTORCH_HPP

/* <cmath> first: it turns <math.h>'s signbit / isnan / ... macros into functions, so the methods of the
   same names below are not macro-expanded. */
#include <cmath>

#include <array>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "ctorch.h"

namespace ctorch {

/* ===== exceptions: one class per ct error kind, in Python's hierarchy ===== */

/* Python's Exception: every ctorch exception; kind() is the ct error kind. */
class error : public std::runtime_error {
 public:
  error(ct_error_kind kind, const std::string &message) : std::runtime_error(message), kind_(kind) {}
  ct_error_kind kind() const noexcept { return kind_; }
  /* "RuntimeError", "ValueError", ... */
  const char *python_name() const noexcept { return ct_error_kind_name(kind_); }

 private:
  ct_error_kind kind_;
};

#define CTORCH_HPP_ERROR_CLASS(cls, base, kind_value)                                   \
  class cls : public base {                                                            \
   public:                                                                             \
    explicit cls(const std::string &message) : base(kind_value, message) {}            \
                                                                                       \
   protected:                                                                          \
    cls(ct_error_kind kind, const std::string &message) : base(kind, message) {}       \
  };
CTORCH_HPP_ERROR_CLASS(runtime_error, error, CT_ERR_RUNTIME)                   /* RuntimeError */
CTORCH_HPP_ERROR_CLASS(not_implemented_error, runtime_error, CT_ERR_NOT_IMPLEMENTED) /* NotImplementedError */
CTORCH_HPP_ERROR_CLASS(out_of_memory_error, runtime_error, CT_ERR_OUT_OF_MEMORY)     /* torch's OutOfMemoryError */
CTORCH_HPP_ERROR_CLASS(value_error, error, CT_ERR_VALUE)                       /* ValueError */
CTORCH_HPP_ERROR_CLASS(type_error, error, CT_ERR_TYPE)                         /* TypeError */
CTORCH_HPP_ERROR_CLASS(index_error, error, CT_ERR_INDEX)                       /* IndexError */
CTORCH_HPP_ERROR_CLASS(os_error, error, CT_ERR_IO)                             /* OSError */
CTORCH_HPP_ERROR_CLASS(overflow_error, error, CT_ERR_OVERFLOW)                 /* OverflowError */
CTORCH_HPP_ERROR_CLASS(linalg_error, runtime_error, CT_ERR_LINALG)             /* torch.linalg.LinAlgError */
#undef CTORCH_HPP_ERROR_CLASS

namespace detail {

[[noreturn]] inline void throw_error(ct_error_kind kind, const std::string &message) {
  switch (kind) {
    case CT_ERR_RUNTIME: throw runtime_error(message);
    case CT_ERR_NOT_IMPLEMENTED: throw not_implemented_error(message);
    case CT_ERR_OUT_OF_MEMORY: throw out_of_memory_error(message);
    case CT_ERR_VALUE: throw value_error(message);
    case CT_ERR_TYPE: throw type_error(message);
    case CT_ERR_INDEX: throw index_error(message);
    case CT_ERR_IO: throw os_error(message);
    case CT_ERR_OVERFLOW: throw overflow_error(message);
    case CT_ERR_LINALG: throw linalg_error(message);
    default: throw error(kind, message);
  }
}

/* Throws the error the failing call recorded, and clears it. */
[[noreturn]] inline void throw_last_error() {
  ct_error_kind kind = ct_last_error();
  std::string message = ct_last_error_message();
  ct_clear_error();
  if (kind == CT_OK)
    throw value_error("a ctorch call failed without recording an error: an undefined Tensor "
                      "(default-constructed or moved-from) was passed");
  throw_error(kind, message);
}

/* Every call runs in a ct scope of its own: whatever the call and its helpers (wrapped numbers, lists)
   create belongs to this scope, and the result the caller keeps is retained before the scope ends. So a
   Tensor owns exactly one reference whether or not the user has a C scope open. */
class call_scope {
 public:
  call_scope() {
    if (ct_scope_begin() != CT_OK) {
      ct_scope_end(); /* a failed begin still needs its end */
      throw out_of_memory_error("ct_scope_begin: out of memory");
    }
    ct_clear_error(); /* a failure reports its own cause, not an earlier C call's */
  }
  ~call_scope() { ct_scope_end(); }
  call_scope(const call_scope &) = delete;
  call_scope &operator=(const call_scope &) = delete;
};

inline ct_tensor *keep(ct_tensor *t) {
  if (!t) throw_last_error();
  return ct_retain(t);
}

inline void check(ct_status s) {
  if (s != CT_OK) throw_last_error();
}

/* Runs f (returning a ct_tensor *) in a call scope; returns a reference the caller owns. */
template <class F>
ct_tensor *call(F &&f) {
  call_scope scope;
  return keep(f());
}

/* Runs f (returning a ct_status) in a call scope. */
template <class F>
void call_status(F &&f) {
  call_scope scope;
  check(f());
}

}  // namespace detail

/* ===== dtypes, as torch's C++ names them ===== */
using ScalarType = ct_dtype;
constexpr ct_dtype kBool = CT_BOOL, kUInt8 = CT_UINT8, kByte = CT_UINT8, kInt8 = CT_INT8, kChar = CT_INT8,
                   kInt16 = CT_INT16, kShort = CT_INT16, kInt32 = CT_INT32, kInt = CT_INT32, kInt64 = CT_INT64,
                   kLong = CT_INT64, kFloat16 = CT_FLOAT16, kHalf = CT_FLOAT16, kBFloat16 = CT_BFLOAT16,
                   kFloat32 = CT_FLOAT32, kFloat = CT_FLOAT32, kFloat64 = CT_FLOAT64, kDouble = CT_FLOAT64,
                   kComplex64 = CT_COMPLEX64, kComplexFloat = CT_COMPLEX64, kComplex128 = CT_COMPLEX128,
                   kComplexDouble = CT_COMPLEX128;

/* "torch.float32" */
inline std::string dtype_name(ct_dtype dtype) {
  const char *name = ct_dtype_name(dtype);
  return name ? name : "";
}
inline ct_dtype get_default_dtype() { return ct_get_default_dtype(); }
inline void set_default_dtype(ct_dtype dtype) { detail::check(ct_set_default_dtype(dtype)); }

/* ===== Python numbers ===== */

/* A Python number: bool, int (any C++ integer), float (float, double), complex (std::complex). */
class Scalar {
 public:
  template <class T, std::enable_if_t<std::is_arithmetic<T>::value, int> = 0>
  Scalar(T v) noexcept : s_(make(v)) {}
  template <class T>
  Scalar(std::complex<T> v) noexcept : s_(ct_scalar_complex(static_cast<double>(v.real()), static_cast<double>(v.imag()))) {}
  Scalar(ct_scalar s) noexcept : s_(s) {}
  const ct_scalar &c() const noexcept { return s_; }

 private:
  template <class T>
  static ct_scalar make(T v) noexcept {
    if constexpr (std::is_same<T, bool>::value)
      return ct_scalar_bool(v);
    else if constexpr (std::is_integral<T>::value)
      return ct_scalar_int(static_cast<int64_t>(v));
    else
      return ct_scalar_double(static_cast<double>(v));
  }
  ct_scalar s_;
};

namespace detail {
/* A wrapped-number tensor owned by the current call scope (NULL on failure, which the op then reports). */
inline ct_tensor *wrap(const Scalar &s) { return ct_wrapped_scalar(s.c()); }
}  // namespace detail

/* ===== shapes and dim lists ===== */

/* torch.Size: the shape of a tensor; prints as torch.Size([2, 3]). */
class Size {
 public:
  Size() = default;
  Size(std::initializer_list<int64_t> v) : v_(v) {}
  explicit Size(std::vector<int64_t> v) : v_(std::move(v)) {}
  int64_t size() const noexcept { return static_cast<int64_t>(v_.size()); }
  /* Python's indexing: negative counts from the end; out of range is torch's IndexError. */
  int64_t operator[](int64_t i) const {
    int64_t n = size();
    if (i < -n || i >= n) throw index_error("tuple index out of range");
    return v_[static_cast<size_t>(i < 0 ? i + n : i)];
  }
  int64_t numel() const { return ct_shape_numel(*this); }
  const std::vector<int64_t> &vec() const noexcept { return v_; }
  std::vector<int64_t>::const_iterator begin() const noexcept { return v_.begin(); }
  std::vector<int64_t>::const_iterator end() const noexcept { return v_.end(); }
  operator ct_shape() const noexcept { return ct_shape{v_.data(), size()}; }
  friend bool operator==(const Size &a, const Size &b) { return a.v_ == b.v_; }
  friend bool operator!=(const Size &a, const Size &b) { return a.v_ != b.v_; }
  std::string str() const {
    char buf[64];
    int n = ct_shape_str(*this, buf, sizeof buf);
    if (n < 0) detail::throw_last_error();
    if (static_cast<size_t>(n) < sizeof buf) return std::string(buf, static_cast<size_t>(n));
    std::string s(static_cast<size_t>(n) + 1, '\0');
    ct_shape_str(*this, &s[0], s.size());
    s.resize(static_cast<size_t>(n));
    return s;
  }
  friend std::ostream &operator<<(std::ostream &os, const Size &s) { return os << s.str(); }

 private:
  std::vector<int64_t> v_;
};

/* A borrowed list of ints for shapes and dims, as at::IntArrayRef: a braced list ({2, 3}), one int, a
   std::vector, a std::array or a Size. It points into its argument: use it as a parameter only. */
class IntArrayRef {
 public:
  IntArrayRef() noexcept = default;
  IntArrayRef(const int64_t &one) noexcept : data_(&one), n_(1) {}
  /* The list's array lives to the end of the caller's full expression, as long as this parameter.
     (std::data rather than begin(): GCC's init-list-lifetime warning flags members set from begin().) */
  IntArrayRef(const std::initializer_list<int64_t> &v) noexcept
      : data_(std::data(v)), n_(static_cast<int64_t>(v.size())) {}
  IntArrayRef(const std::vector<int64_t> &v) noexcept : data_(v.data()), n_(static_cast<int64_t>(v.size())) {}
  template <size_t N>
  IntArrayRef(const std::array<int64_t, N> &v) noexcept : data_(v.data()), n_(static_cast<int64_t>(N)) {}
  IntArrayRef(const Size &s) noexcept : IntArrayRef(s.vec()) {}
  operator ct_shape() const noexcept { return ct_shape{n_ ? data_ : nullptr, n_}; }
  int64_t size() const noexcept { return n_; }

 private:
  const int64_t *data_ = nullptr;
  int64_t n_ = 0;
};

/* Keyword arguments of the factories: dtype and device (torch's TensorOptions); a dtype alone converts. */
class TensorOptions {
 public:
  TensorOptions() noexcept = default;
  TensorOptions(ct_dtype dtype) noexcept : dtype_(dtype) {}
  TensorOptions dtype(ct_dtype d) const noexcept {
    TensorOptions o = *this;
    o.dtype_ = d;
    return o;
  }
  TensorOptions device(ct_device d) const noexcept {
    TensorOptions o = *this;
    o.device_ = d;
    return o;
  }
  ct_dtype dtype() const noexcept { return dtype_; }
  ct_device device() const noexcept { return device_; }
  ct_tensor_opts tensor_opts() const noexcept {
    ct_tensor_opts o{};
    o.dtype = dtype_;
    o.device = device_;
    return o;
  }
  ct_random_opts random_opts() const noexcept {
    ct_random_opts o{};
    o.dtype = dtype_;
    o.device = device_;
    return o;
  }

 private:
  ct_dtype dtype_ = CT_DTYPE_UNSET;
  ct_device device_{};
};
inline TensorOptions dtype(ct_dtype d) noexcept { return TensorOptions(d); }

/* ===== the tensor handle ===== */

class Tensor {
 public:
  /* An undefined tensor (torch's at::Tensor()): ops given one throw value_error. */
  Tensor() noexcept = default;
  Tensor(const Tensor &other) noexcept : t_(ct_retain(other.t_)) {}
  Tensor(Tensor &&other) noexcept : t_(other.t_) { other.t_ = nullptr; }
  Tensor &operator=(const Tensor &other) noexcept {
    ct_tensor *t = ct_retain(other.t_);
    ct_release(t_);
    t_ = t;
    return *this;
  }
  Tensor &operator=(Tensor &&other) noexcept {
    if (this != &other) {
      ct_release(t_);
      t_ = other.t_;
      other.t_ = nullptr;
    }
    return *this;
  }
  ~Tensor() { ct_release(t_); }

  /* From C: adopt takes over a reference the caller owns (a result made while no ct scope is open);
     borrow adds a reference of its own (for a tensor a scope owns, or one the caller keeps too). */
  static Tensor adopt(ct_tensor *t) noexcept { return Tensor(t); }
  static Tensor borrow(ct_tensor *t) noexcept { return Tensor(ct_retain(t)); }
  /* To C: the handle, borrowed (valid while this Tensor lives); release hands the reference over. */
  ct_tensor *get() const noexcept { return t_; }
  ct_tensor *release() noexcept {
    ct_tensor *t = t_;
    t_ = nullptr;
    return t;
  }
  bool defined() const noexcept { return t_ != nullptr; }

  /* ---- queries ---- */
  int64_t dim() const noexcept { return ct_dim(t_); }
  int64_t ndim() const noexcept { return ct_ndim(t_); }
  int64_t numel() const noexcept { return ct_numel(t_); }
  int64_t element_size() const noexcept { return ct_element_size(t_); }
  /* size(dim) / stride(dim): negative dims count from the end; a bad dim throws torch's index_error. */
  int64_t size(int64_t dim) const { return checked_query(ct_size(t_, dim)); }
  int64_t stride(int64_t dim) const { return checked_query(ct_stride(t_, dim)); }
  Size shape() const { return Size(std::vector<int64_t>(ct_sizes(t_), ct_sizes(t_) + ct_dim(t_))); }
  Size sizes() const { return shape(); }
  std::vector<int64_t> strides() const { return std::vector<int64_t>(ct_strides(t_), ct_strides(t_) + ct_dim(t_)); }
  int64_t storage_offset() const noexcept { return ct_storage_offset(t_); }
  ct_dtype dtype() const noexcept { return ct_dtype_of(t_); }
  ct_dtype scalar_type() const noexcept { return ct_dtype_of(t_); }
  ct_device device() const noexcept { return ct_device_of(t_); }
  bool is_contiguous() const noexcept { return ct_is_contiguous(t_, CT_MEMORY_FORMAT_UNSET); }
  bool is_floating_point() const noexcept { return ct_is_floating_point(t_); }
  bool is_complex() const noexcept { return ct_is_complex(t_); }
  template <class T>
  T *data_ptr() const noexcept {
    return static_cast<T *>(ct_data_ptr(t_));
  }

  /* ---- conversion ---- */
  Tensor to(ct_dtype dtype) const { return run([&] { return ct_to_dtype(t_, dtype); }); }
  /* Tensor.to(other): other's dtype and device. */
  Tensor to(const Tensor &other) const {
    ct_to_opts o{};
    o.dtype = other.dtype();
    o.device = other.device();
    return run([&] { return other.t_ ? ct_to(t_, &o) : nullptr; });
  }
  Tensor cpu() const {
    ct_to_opts o{};
    o.device = CT_DEVICE_CPU;
    return run([&] { return ct_to(t_, &o); });
  }
  Tensor type_as(const Tensor &other) const { return run([&] { return ct_type_as(t_, other.t_); }); }
  Tensor contiguous() const { return run([&] { return ct_contiguous(t_, CT_MEMORY_FORMAT_UNSET); }); }
  Tensor clone() const { return run([&] { return ct_clone(t_, CT_MEMORY_FORMAT_UNSET); }); }
  Tensor detach() const { return run([&] { return ct_detach(t_); }); }
  Tensor &copy_(const Tensor &src) {
    detail::call_status([&] { return ct_copy_(t_, src.t_); });
    return *this;
  }
  Tensor &fill_(const Scalar &value) {
    detail::call_status([&] {
      ct_tensor *v = detail::wrap(value);
      return v ? ct_copy_(t_, v) : ct_last_error();
    });
    return *this;
  }
  Tensor &zero_() { return fill_(0); }
  /* Tensor.item(): T is double, float, int64_t (or another integer), bool or std::complex<double>. */
  template <class T>
  T item() const;
  /* The values in row-major order, converted to T (the C form of tolist(), flattened). */
  template <class T>
  std::vector<T> to_vector() const;
  /* torch.equal */
  bool equal(const Tensor &other) const {
    bool r = false;
    detail::call_status([&] { return ct_equal(t_, other.t_, &r); });
    return r;
  }
  /* torch.allclose(self, other, rtol, atol, equal_nan) */
  bool allclose(const Tensor &other, double rtol = 1e-05, double atol = 1e-08, bool equal_nan = false) const {
    ct_isclose_opts o{ct_scalar_double(rtol), ct_scalar_double(atol), equal_nan};
    bool r = false;
    detail::call_status([&] { return ct_allclose(t_, other.t_, &r, &o); });
    return r;
  }
  Tensor isclose(const Tensor &other, double rtol = 1e-05, double atol = 1e-08, bool equal_nan = false) const {
    ct_isclose_opts o{ct_scalar_double(rtol), ct_scalar_double(atol), equal_nan};
    return run([&] { return ct_isclose(t_, other.t_, &o); });
  }

  /* ---- views ---- */
  Tensor view(IntArrayRef shape) const { return run([&] { return ct_view(t_, shape); }); }
  Tensor reshape(IntArrayRef shape) const { return run([&] { return ct_reshape(t_, shape); }); }
  Tensor view_as(const Tensor &other) const { return run([&] { return ct_view_as(t_, other.t_); }); }
  Tensor transpose(int64_t dim0, int64_t dim1) const { return run([&] { return ct_transpose(t_, dim0, dim1); }); }
  Tensor t() const { return run([&] { return ct_t(t_); }); }
  Tensor permute(IntArrayRef dims) const { return run([&] { return ct_permute(t_, dims); }); }
  Tensor unsqueeze(int64_t dim) const { return run([&] { return ct_unsqueeze(t_, dim); }); }
  Tensor squeeze() const { return run([&] { return ct_squeeze(t_); }); }
  Tensor squeeze(int64_t dim) const { return run([&] { return ct_squeeze_dim(t_, dim); }); }
  Tensor flatten(int64_t start_dim = 0, int64_t end_dim = -1) const {
    return run([&] { return ct_flatten(t_, start_dim, end_dim); });
  }
  Tensor expand(IntArrayRef shape) const { return run([&] { return ct_expand(t_, shape); }); }
  Tensor expand_as(const Tensor &other) const { return run([&] { return ct_expand_as(t_, other.t_); }); }
  Tensor select(int64_t dim, int64_t index) const { return run([&] { return ct_select(t_, dim, index); }); }
  Tensor narrow(int64_t dim, int64_t start, int64_t length) const {
    return run([&] { return ct_narrow(t_, dim, start, length); });
  }
  /* self[start:end:step] along dim (end CT_END: to the end). */
  Tensor slice(int64_t dim, int64_t start, int64_t end = CT_END, int64_t step = 1) const {
    return run([&] { return ct_slice(t_, dim, start, end, step); });
  }
  /* self[i]: select(0, i) with the messages of torch's indexing rather than select's. */
  Tensor operator[](int64_t index) const {
    if (t_ && dim() == 0)
      throw index_error("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` "
                        "in C++ to convert a 0-dim tensor to a number");
    int64_t n = t_ ? ct_size(t_, 0) : 0;
    if (t_ && (index < -n || index >= n))
      throw index_error("index " + std::to_string(index) + " is out of bounds for dimension 0 with size " +
                        std::to_string(n));
    return select(0, index);
  }
  std::vector<Tensor> unbind(int64_t dim = 0) const { return list([&] { return ct_unbind(t_, dim); }); }
  std::vector<Tensor> chunk(int64_t chunks, int64_t dim = 0) const {
    return list([&] { return ct_chunk(t_, chunks, dim); });
  }
  std::vector<Tensor> split(int64_t split_size, int64_t dim = 0) const {
    return list([&] { return ct_split(t_, split_size, dim); });
  }

  /* ---- pointwise ops with a regular signature: generated from pointwise_ops.h ---- */
#define CTORCH_HPP_UNARY_NO_INPLACE(name) \
  Tensor name() const { return run([&] { return ct_##name(t_); }); }
#define CTORCH_HPP_UNARY(name)                                   \
  CTORCH_HPP_UNARY_NO_INPLACE(name)                              \
  Tensor &name##_() {                                            \
    detail::call_status([&] { return ct_##name##_(t_); });       \
    return *this;                                                \
  }
#define CTORCH_HPP_BINARY_NO_INPLACE(name)                                                     \
  Tensor name(const Tensor &other) const { return run([&] { return ct_##name(t_, other.t_); }); } \
  Tensor name(const Scalar &other) const {                                                     \
    return run([&] { return ct_##name(t_, detail::wrap(other)); });                            \
  }
#define CTORCH_HPP_BINARY(name)                                                              \
  CTORCH_HPP_BINARY_NO_INPLACE(name)                                                         \
  Tensor &name##_(const Tensor &other) {                                                     \
    detail::call_status([&] { return ct_##name##_(t_, other.t_); });                         \
    return *this;                                                                            \
  }                                                                                          \
  Tensor &name##_(const Scalar &other) {                                                     \
    detail::call_status([&] { return ct_##name##_(t_, detail::wrap(other)); });              \
    return *this;                                                                            \
  }
#define CTORCH_HPP_ALPHA(name)                                                                \
  Tensor name(const Tensor &other, const Scalar &alpha = 1) const {                           \
    ct_alpha_opts o{alpha.c()};                                                               \
    return run([&] { return ct_##name(t_, other.t_, &o); });                                  \
  }                                                                                           \
  Tensor name(const Scalar &other, const Scalar &alpha = 1) const {                           \
    ct_alpha_opts o{alpha.c()};                                                               \
    return run([&] { return ct_##name(t_, detail::wrap(other), &o); });                       \
  }                                                                                           \
  Tensor &name##_(const Tensor &other, const Scalar &alpha = 1) {                             \
    ct_alpha_opts o{alpha.c()};                                                               \
    detail::call_status([&] { return ct_##name##_(t_, other.t_, &o); });                      \
    return *this;                                                                             \
  }                                                                                           \
  Tensor &name##_(const Scalar &other, const Scalar &alpha = 1) {                             \
    ct_alpha_opts o{alpha.c()};                                                               \
    detail::call_status([&] { return ct_##name##_(t_, detail::wrap(other), &o); });           \
    return *this;                                                                             \
  }
#define CTORCH_HPP_METHOD(name, form, torch, kind) CTORCH_HPP_##form(name)
  CT_POINTWISE_OPS(CTORCH_HPP_METHOD, CTORCH_HPP_METHOD, CT_POINTWISE_SKIP)
#undef CTORCH_HPP_METHOD

  /* ---- pointwise ops with signatures of their own ---- */
  /* Tensor.div(other, rounding_mode=None | "trunc" | "floor") */
  Tensor div(const Tensor &other, const char *rounding_mode = nullptr) const {
    ct_div_opts o{rounding_mode};
    return run([&] { return ct_div(t_, other.t_, &o); });
  }
  Tensor div(const Scalar &other, const char *rounding_mode = nullptr) const {
    ct_div_opts o{rounding_mode};
    return run([&] { return ct_div(t_, detail::wrap(other), &o); });
  }
  Tensor &div_(const Tensor &other, const char *rounding_mode = nullptr) {
    ct_div_opts o{rounding_mode};
    detail::call_status([&] { return ct_div_(t_, other.t_, &o); });
    return *this;
  }
  Tensor &div_(const Scalar &other, const char *rounding_mode = nullptr) {
    ct_div_opts o{rounding_mode};
    detail::call_status([&] { return ct_div_(t_, detail::wrap(other), &o); });
    return *this;
  }
  CTORCH_HPP_BINARY(pow)
  CTORCH_HPP_BINARY(float_power)
  Tensor isnan() const { return run([&] { return ct_isnan(t_); }); }
  Tensor isinf() const { return run([&] { return ct_isinf(t_); }); }
  Tensor isfinite() const { return run([&] { return ct_isfinite(t_); }); }
  Tensor positive() const { return run([&] { return ct_positive(t_); }); }
  Tensor conj() const { return run([&] { return ct_conj(t_); }); }
  Tensor round(int64_t decimals = 0) const {
    ct_round_opts o{decimals};
    return run([&] { return ct_round(t_, &o); });
  }
  /* clamp(min, max) with two Python numbers or two tensors; clamp_min / clamp_max for one bound. */
  Tensor clamp(const Scalar &min, const Scalar &max) const {
    return run([&] { return ct_clamp(t_, detail::wrap(min), detail::wrap(max)); });
  }
  Tensor clamp(const Tensor &min, const Tensor &max) const {
    return run([&] { return ct_clamp(t_, min.t_, max.t_); });
  }
  Tensor clamp_min(const Scalar &min) const { return run([&] { return ct_clamp_min(t_, detail::wrap(min)); }); }
  Tensor clamp_max(const Scalar &max) const { return run([&] { return ct_clamp_max(t_, detail::wrap(max)); }); }
  Tensor masked_fill(const Tensor &mask, const Scalar &value) const {
    return run([&] { return ct_masked_fill(t_, mask.t_, detail::wrap(value)); });
  }
  Tensor lerp(const Tensor &end, const Scalar &weight) const {
    return run([&] { return ct_lerp(t_, end.t_, detail::wrap(weight)); });
  }
  Tensor lerp(const Tensor &end, const Tensor &weight) const {
    return run([&] { return ct_lerp(t_, end.t_, weight.t_); });
  }

  /* ---- reductions: dims {} means every dim, as dim=None ---- */
#define CTORCH_HPP_REDUCE(name)                                                            \
  Tensor name(IntArrayRef dims, bool keepdim = false, ct_dtype dtype = CT_DTYPE_UNSET) const { \
    ct_reduce_opts o{dims, keepdim, dtype};                                                 \
    return run([&] { return ct_##name(t_, &o); });                                        \
  }                                                                                         \
  Tensor name(ct_dtype dtype = CT_DTYPE_UNSET) const { return name(IntArrayRef(), false, dtype); }
  CTORCH_HPP_REDUCE(sum)
  CTORCH_HPP_REDUCE(nansum)
  CTORCH_HPP_REDUCE(mean)
  CTORCH_HPP_REDUCE(nanmean)
  CTORCH_HPP_REDUCE(prod)
#undef CTORCH_HPP_REDUCE
#define CTORCH_HPP_REDUCE_NO_DTYPE(name)                                \
  Tensor name(IntArrayRef dims = {}, bool keepdim = false) const {      \
    ct_reduce_opts o{dims, keepdim, CT_DTYPE_UNSET};                     \
    return run([&] { return ct_##name(t_, &o); });                     \
  }
  CTORCH_HPP_REDUCE_NO_DTYPE(amax)
  CTORCH_HPP_REDUCE_NO_DTYPE(amin)
  CTORCH_HPP_REDUCE_NO_DTYPE(logsumexp)
  CTORCH_HPP_REDUCE_NO_DTYPE(count_nonzero)
#undef CTORCH_HPP_REDUCE_NO_DTYPE
  /* Ops that take one dim at most: all() / all(dim, keepdim), argmax() / argmax(dim, keepdim), ... */
#define CTORCH_HPP_REDUCE_ONE_DIM(name)                                                         \
  Tensor name() const { return run([&] { return ct_##name(t_, nullptr); }); }                   \
  Tensor name(int64_t dim, bool keepdim = false) const {                                        \
    ct_reduce_opts o{ct_dims{&dim, 1}, keepdim, CT_DTYPE_UNSET};                                 \
    return run([&] { return ct_##name(t_, &o); });                                              \
  }
  CTORCH_HPP_REDUCE_ONE_DIM(all)
  CTORCH_HPP_REDUCE_ONE_DIM(any)
  CTORCH_HPP_REDUCE_ONE_DIM(argmax)
  CTORCH_HPP_REDUCE_ONE_DIM(argmin)
#undef CTORCH_HPP_REDUCE_ONE_DIM
  /* var / std (dims, unbiased = true, keepdim = false), as torch 1.13's. */
  Tensor var(IntArrayRef dims = {}, bool unbiased = true, bool keepdim = false) const {
    ct_var_opts o{dims, keepdim, ct_scalar_int(unbiased ? 1 : 0)};
    return run([&] { return ct_var(t_, &o); });
  }
  Tensor std(IntArrayRef dims = {}, bool unbiased = true, bool keepdim = false) const {
    ct_var_opts o{dims, keepdim, ct_scalar_int(unbiased ? 1 : 0)};
    return run([&] { return ct_std(t_, &o); });
  }
  /* torch.norm(self, p=2 ('fro'), dim, keepdim) */
  Tensor norm(const Scalar &p = 2, IntArrayRef dims = {}, bool keepdim = false) const {
    ct_norm_opts o{p.c(), false, dims, keepdim, CT_DTYPE_UNSET};
    return run([&] { return ct_norm(t_, &o); });
  }
  /* max() / min(): the whole tensor; max(dim, keepdim) / min(dim, keepdim): (values, indices). */
  Tensor max() const { return run([&] { return ct_max(t_); }); }
  Tensor min() const { return run([&] { return ct_min(t_); }); }
  std::tuple<Tensor, Tensor> max(int64_t dim, bool keepdim = false) const {
    ct_keepdim_opts o{keepdim};
    return pair([&](ct_tensor **v, ct_tensor **i) { return ct_max_dim(t_, dim, v, i, &o); });
  }
  std::tuple<Tensor, Tensor> min(int64_t dim, bool keepdim = false) const {
    ct_keepdim_opts o{keepdim};
    return pair([&](ct_tensor **v, ct_tensor **i) { return ct_min_dim(t_, dim, v, i, &o); });
  }
  /* Scans. */
  Tensor cumsum(int64_t dim, ct_dtype dtype = CT_DTYPE_UNSET) const {
    ct_scan_opts o{dtype};
    return run([&] { return ct_cumsum(t_, dim, &o); });
  }
  Tensor cumprod(int64_t dim, ct_dtype dtype = CT_DTYPE_UNSET) const {
    ct_scan_opts o{dtype};
    return run([&] { return ct_cumprod(t_, dim, &o); });
  }

  /* ---- printing ---- */
  /* repr(self), as torch 1.13 writes it. */
  std::string str() const {
    if (!t_) return "[ Tensor (undefined) ]";
    char *s = nullptr;
    detail::call_status([&] {
      s = ct_to_string(t_);
      return s ? CT_OK : ct_last_error();
    });
    std::string r(s);
    std::free(s);
    return r;
  }

  /* In place, as Python's augmented assignment on tensors. */
  Tensor &operator+=(const Tensor &o) { return add_(o); }
  Tensor &operator+=(const Scalar &o) { return add_(o); }
  Tensor &operator-=(const Tensor &o) { return sub_(o); }
  Tensor &operator-=(const Scalar &o) { return sub_(o); }
  Tensor &operator*=(const Tensor &o) { return mul_(o); }
  Tensor &operator*=(const Scalar &o) { return mul_(o); }
  Tensor &operator/=(const Tensor &o) { return div_(o); }
  Tensor &operator/=(const Scalar &o) { return div_(o); }

 private:
  explicit Tensor(ct_tensor *t) noexcept : t_(t) {}
  template <class F>
  static Tensor run(F &&f) {
    return Tensor(detail::call(std::forward<F>(f)));
  }
  template <class F>
  static std::vector<Tensor> list(F &&f) {
    detail::call_scope scope;
    ct_tensor_list *l = f();
    if (!l) detail::throw_last_error();
    std::vector<Tensor> out;
    out.reserve(static_cast<size_t>(l->n));
    for (int64_t i = 0; i < l->n; i++) out.push_back(Tensor(ct_retain(l->items[i])));
    return out;
  }
  template <class F>
  static std::tuple<Tensor, Tensor> pair(F &&f) {
    detail::call_scope scope;
    ct_tensor *a = nullptr, *b = nullptr;
    detail::check(f(&a, &b));
    return std::tuple<Tensor, Tensor>(Tensor(ct_retain(a)), Tensor(ct_retain(b)));
  }
  static int64_t checked_query(int64_t v) {
    if (v < 0) detail::throw_last_error();
    return v;
  }
  ct_tensor *t_ = nullptr;
};

namespace detail {
/* item() and to_vector() through the C getters, by the requested C++ type. */
template <class T>
struct element {
  static constexpr ct_dtype dtype = std::is_same<T, bool>::value       ? CT_BOOL
                                    : std::is_same<T, uint8_t>::value  ? CT_UINT8
                                    : std::is_same<T, int8_t>::value   ? CT_INT8
                                    : std::is_same<T, int16_t>::value  ? CT_INT16
                                    : std::is_same<T, int32_t>::value  ? CT_INT32
                                    : std::is_same<T, int64_t>::value  ? CT_INT64
                                    : std::is_same<T, float>::value    ? CT_FLOAT32
                                    : std::is_same<T, double>::value   ? CT_FLOAT64
                                    : std::is_same<T, std::complex<float>>::value  ? CT_COMPLEX64
                                    : std::is_same<T, std::complex<double>>::value ? CT_COMPLEX128
                                                                                     : CT_DTYPE_UNSET;
  static_assert(dtype != CT_DTYPE_UNSET, "no ctorch dtype for this C++ type");
};
}  // namespace detail

template <class T>
T Tensor::item() const {
  if constexpr (std::is_same<T, bool>::value) {
    bool v = false;
    detail::call_status([&] { return ct_item_bool(t_, &v); });
    return v;
  } else if constexpr (std::is_integral<T>::value) {
    int64_t v = 0;
    detail::call_status([&] { return ct_item_int64(t_, &v); });
    return static_cast<T>(v);
  } else if constexpr (std::is_floating_point<T>::value) {
    double v = 0;
    detail::call_status([&] { return ct_item_double(t_, &v); });
    return static_cast<T>(v);
  } else {
    ct_complex128 v{0, 0};
    detail::call_status([&] { return ct_item_complex(t_, &v); });
    return T(v.re, v.im);
  }
}

template <class T>
std::vector<T> Tensor::to_vector() const {
  std::vector<T> v(static_cast<size_t>(t_ ? numel() : 0));
  detail::call_status(
      [&] { return ct_copy_to_buffer(t_, v.data(), detail::element<T>::dtype, v.size() * sizeof(T)); });
  return v;
}

inline std::ostream &operator<<(std::ostream &os, const Tensor &t) { return os << t.str(); }

/* ===== operators: Python's, with C++ numbers as Python numbers ===== */
#define CTORCH_HPP_OPERATOR(op, method)                                                               \
  inline Tensor operator op(const Tensor &a, const Tensor &b) { return a.method(b); }                 \
  inline Tensor operator op(const Tensor &a, const Scalar &b) { return a.method(b); }                 \
  inline Tensor operator op(const Scalar &a, const Tensor &b) {                                       \
    return Tensor::adopt(detail::call([&] { return ct_##method(detail::wrap(a), b.get()); }));        \
  }
CTORCH_HPP_OPERATOR(*, mul)
CTORCH_HPP_OPERATOR(%, remainder)
CTORCH_HPP_OPERATOR(==, eq)
CTORCH_HPP_OPERATOR(!=, ne)
CTORCH_HPP_OPERATOR(<, lt)
CTORCH_HPP_OPERATOR(<=, le)
CTORCH_HPP_OPERATOR(>, gt)
CTORCH_HPP_OPERATOR(>=, ge)
CTORCH_HPP_OPERATOR(&, bitwise_and)
CTORCH_HPP_OPERATOR(|, bitwise_or)
CTORCH_HPP_OPERATOR(^, bitwise_xor)
#undef CTORCH_HPP_OPERATOR
/* + and - carry alpha, / a rounding mode: the C calls take options. */
inline Tensor operator+(const Tensor &a, const Tensor &b) { return a.add(b); }
inline Tensor operator+(const Tensor &a, const Scalar &b) { return a.add(b); }
inline Tensor operator+(const Scalar &a, const Tensor &b) {
  return Tensor::adopt(detail::call([&] { return ct_add(detail::wrap(a), b.get(), nullptr); }));
}
inline Tensor operator-(const Tensor &a, const Tensor &b) { return a.sub(b); }
inline Tensor operator-(const Tensor &a, const Scalar &b) { return a.sub(b); }
inline Tensor operator-(const Scalar &a, const Tensor &b) {
  return Tensor::adopt(detail::call([&] { return ct_sub(detail::wrap(a), b.get(), nullptr); }));
}
inline Tensor operator/(const Tensor &a, const Tensor &b) { return a.div(b); }
inline Tensor operator/(const Tensor &a, const Scalar &b) { return a.div(b); }
inline Tensor operator/(const Scalar &a, const Tensor &b) {
  return Tensor::adopt(detail::call([&] { return ct_div(detail::wrap(a), b.get(), nullptr); }));
}
inline Tensor operator-(const Tensor &t) { return t.neg(); }
inline Tensor operator~(const Tensor &t) { return t.bitwise_not(); }

/* ===== torch.X functions ===== */
#define CTORCH_HPP_FREE_UNARY(name) \
  inline Tensor name(const Tensor &t) { return t.name(); }
#define CTORCH_HPP_FREE_BINARY(name)                                                            \
  inline Tensor name(const Tensor &a, const Tensor &b) { return a.name(b); }                    \
  inline Tensor name(const Tensor &a, const Scalar &b) { return a.name(b); }                    \
  inline Tensor name(const Scalar &a, const Tensor &b) {                                        \
    return Tensor::adopt(detail::call([&] { return ct_##name(detail::wrap(a), b.get()); }));    \
  }
#define CTORCH_HPP_FREE_ALPHA(name)                                                             \
  inline Tensor name(const Tensor &a, const Tensor &b, const Scalar &alpha = 1) { return a.name(b, alpha); } \
  inline Tensor name(const Tensor &a, const Scalar &b, const Scalar &alpha = 1) { return a.name(b, alpha); }
#define CTORCH_HPP_FREE(name, form, torch, kind) CTORCH_HPP_FREE_##form(name)
#define CTORCH_HPP_FREE_UNARY_NO_INPLACE CTORCH_HPP_FREE_UNARY
#define CTORCH_HPP_FREE_BINARY_NO_INPLACE CTORCH_HPP_FREE_BINARY
CT_POINTWISE_OPS(CTORCH_HPP_FREE, CTORCH_HPP_FREE, CT_POINTWISE_SKIP)
CTORCH_HPP_FREE_BINARY(pow)
CTORCH_HPP_FREE_BINARY(float_power)
#undef CTORCH_HPP_FREE
#undef CTORCH_HPP_FREE_UNARY_NO_INPLACE
#undef CTORCH_HPP_FREE_BINARY_NO_INPLACE
#undef CTORCH_HPP_FREE_UNARY
#undef CTORCH_HPP_FREE_BINARY
#undef CTORCH_HPP_FREE_ALPHA
#undef CTORCH_HPP_UNARY
#undef CTORCH_HPP_UNARY_NO_INPLACE
#undef CTORCH_HPP_BINARY
#undef CTORCH_HPP_BINARY_NO_INPLACE
#undef CTORCH_HPP_ALPHA

inline Tensor isnan(const Tensor &t) { return t.isnan(); }
inline Tensor isinf(const Tensor &t) { return t.isinf(); }
inline Tensor isfinite(const Tensor &t) { return t.isfinite(); }
inline Tensor div(const Tensor &a, const Tensor &b, const char *rounding_mode = nullptr) {
  return a.div(b, rounding_mode);
}
/* torch.where(condition, a, b): either branch may be a Python number. */
inline Tensor where(const Tensor &condition, const Tensor &a, const Tensor &b) {
  return Tensor::adopt(detail::call([&] { return ct_where(condition.get(), a.get(), b.get()); }));
}
inline Tensor where(const Tensor &condition, const Tensor &a, const Scalar &b) {
  return Tensor::adopt(detail::call([&] { return ct_where(condition.get(), a.get(), detail::wrap(b)); }));
}
inline Tensor where(const Tensor &condition, const Scalar &a, const Tensor &b) {
  return Tensor::adopt(detail::call([&] { return ct_where(condition.get(), detail::wrap(a), b.get()); }));
}
inline Tensor where(const Tensor &condition, const Scalar &a, const Scalar &b) {
  return Tensor::adopt(
      detail::call([&] { return ct_where(condition.get(), detail::wrap(a), detail::wrap(b)); }));
}
inline bool equal(const Tensor &a, const Tensor &b) { return a.equal(b); }
inline bool allclose(const Tensor &a, const Tensor &b, double rtol = 1e-05, double atol = 1e-08,
                     bool equal_nan = false) {
  return a.allclose(b, rtol, atol, equal_nan);
}

/* ===== factories ===== */
namespace detail {
template <class F>
Tensor make(const TensorOptions &options, F &&f) {
  ct_tensor_opts o = options.tensor_opts();
  return Tensor::adopt(call([&] { return f(&o); }));
}
template <class F>
Tensor make_random(const TensorOptions &options, F &&f) {
  ct_random_opts o = options.random_opts();
  return Tensor::adopt(call([&] { return f(&o); }));
}
}  // namespace detail

inline Tensor empty(IntArrayRef shape, const TensorOptions &options = {}) {
  return detail::make(options, [&](const ct_tensor_opts *o) { return ct_empty(shape, o); });
}
inline Tensor zeros(IntArrayRef shape, const TensorOptions &options = {}) {
  return detail::make(options, [&](const ct_tensor_opts *o) { return ct_zeros(shape, o); });
}
inline Tensor ones(IntArrayRef shape, const TensorOptions &options = {}) {
  return detail::make(options, [&](const ct_tensor_opts *o) { return ct_ones(shape, o); });
}
/* dtype inferred from the value as torch.full does (bool, int64, the default float or complex). */
inline Tensor full(IntArrayRef shape, const Scalar &value, const TensorOptions &options = {}) {
  return detail::make(options, [&](const ct_tensor_opts *o) { return ct_full(shape, value.c(), o); });
}
inline Tensor zeros_like(const Tensor &t, const TensorOptions &options = {}) {
  return detail::make(options, [&](const ct_tensor_opts *o) { return ct_zeros_like(t.get(), o); });
}
inline Tensor ones_like(const Tensor &t, const TensorOptions &options = {}) {
  return detail::make(options, [&](const ct_tensor_opts *o) { return ct_ones_like(t.get(), o); });
}
inline Tensor full_like(const Tensor &t, const Scalar &value, const TensorOptions &options = {}) {
  return detail::make(options, [&](const ct_tensor_opts *o) { return ct_full_like(t.get(), value.c(), o); });
}
inline Tensor eye(int64_t n, const TensorOptions &options = {}) {
  return detail::make(options, [&](const ct_tensor_opts *o) { return ct_eye(n, o); });
}
/* torch.arange(end) and torch.arange(start, end, step = 1): int64 when every bound is an integer. */
inline Tensor arange(const Scalar &end, const TensorOptions &options = {}) {
  return detail::make(options,
                      [&](const ct_tensor_opts *o) { return ct_arange(ct_scalar_int(0), end.c(), ct_scalar_int(1), o); });
}
inline Tensor arange(const Scalar &start, const Scalar &end, const Scalar &step = 1,
                     const TensorOptions &options = {}) {
  return detail::make(options, [&](const ct_tensor_opts *o) { return ct_arange(start.c(), end.c(), step.c(), o); });
}
inline Tensor linspace(const Scalar &start, const Scalar &end, int64_t steps, const TensorOptions &options = {}) {
  return detail::make(options, [&](const ct_tensor_opts *o) { return ct_linspace(start.c(), end.c(), steps, o); });
}
/* A 0-dim tensor of a Python number (torch.tensor(3.5)): dtype inferred as torch.tensor does. */
inline Tensor scalar_tensor(const Scalar &value, const TensorOptions &options = {}) {
  return full({}, value, options);
}

/* Random factories on the default generator, bit-identical to torch 1.13's. */
inline void manual_seed(int64_t seed) { detail::check(ct_manual_seed(seed)); }
inline Tensor rand(IntArrayRef shape, const TensorOptions &options = {}) {
  return detail::make_random(options, [&](const ct_random_opts *o) { return ct_rand(shape, o); });
}
inline Tensor randn(IntArrayRef shape, const TensorOptions &options = {}) {
  return detail::make_random(options, [&](const ct_random_opts *o) { return ct_randn(shape, o); });
}
inline Tensor randint(int64_t low, int64_t high, IntArrayRef shape, const TensorOptions &options = {}) {
  return detail::make_random(options, [&](const ct_random_opts *o) { return ct_randint(low, high, shape, o); });
}
inline Tensor randperm(int64_t n, const TensorOptions &options = {}) {
  return detail::make_random(options, [&](const ct_random_opts *o) { return ct_randperm(n, o); });
}

/* A Python value for torch.tensor: a number (bool, any integer, floating, std::complex) or a braced list
   of them, nested for more dims: {{1, 2}, {3, 4.5}}. It points into the braced lists of the caller's
   expression: use it as a parameter only. */
class TensorLiteral {
 public:
  template <class T, std::enable_if_t<std::is_arithmetic<T>::value, int> = 0>
  TensorLiteral(T v) noexcept : scalar_(Scalar(v).c()) {}
  template <class T>
  TensorLiteral(std::complex<T> v) noexcept : scalar_(Scalar(v).c()) {}
  /* (std::data: see IntArrayRef.) */
  TensorLiteral(const std::initializer_list<TensorLiteral> &items) noexcept
      : items_(std::data(items)), n_(items.size()), is_list_(true) {}

  /* torch.tensor(value): the dtype is inferred as torch does from Python values (any complex: the default
     complex dtype; else any float: the default dtype; else any int: int64; else bool), the shape from the
     first element at each depth; ragged or mixed-depth lists raise torch's errors. */
  Tensor make(const TensorOptions &options) const {
    std::vector<int64_t> shape;
    for (const TensorLiteral *v = this; v->is_list_; v = &v->items_[0]) {
      shape.push_back(static_cast<int64_t>(v->n_));
      if (v->n_ == 0) break;
    }
    ct_scalar_kind kind = widest(CT_SCALAR_BOOL);
    bool any_scalar = has_scalar();
    ct_dtype inferred = !any_scalar || kind == CT_SCALAR_DOUBLE ? ct_get_default_dtype()
                        : kind == CT_SCALAR_COMPLEX ? (ct_get_default_dtype() == CT_FLOAT64 ? CT_COMPLEX128 : CT_COMPLEX64)
                        : kind == CT_SCALAR_INT ? CT_INT64
                                                : CT_BOOL;
    std::vector<ct_scalar> flat;
    store(shape, 0, inferred, flat);
    ct_tensor_opts o = options.tensor_opts();
    if (o.dtype == CT_DTYPE_UNSET) o.dtype = inferred;
    ct_shape s{shape.empty() ? nullptr : shape.data(), static_cast<int64_t>(shape.size())};
    /* Copied through the widest C type of the values' kind, converted by ct_tensor_from_data. */
    if (!any_scalar || kind == CT_SCALAR_DOUBLE) return from(flat, s, o, CT_FLOAT64, [](const ct_scalar &v) {
        return v.kind == CT_SCALAR_DOUBLE ? v.v.d : v.kind == CT_SCALAR_INT ? static_cast<double>(v.v.i) : v.v.b ? 1.0 : 0.0;
      });
    if (kind == CT_SCALAR_COMPLEX) return from(flat, s, o, CT_COMPLEX128, [](const ct_scalar &v) {
        return v.kind == CT_SCALAR_COMPLEX ? v.v.c
               : ct_complex128{v.kind == CT_SCALAR_DOUBLE ? v.v.d : v.kind == CT_SCALAR_INT ? static_cast<double>(v.v.i) : v.v.b ? 1.0 : 0.0, 0.0};
      });
    if (kind == CT_SCALAR_INT) return from(flat, s, o, CT_INT64, [](const ct_scalar &v) {
        return v.kind == CT_SCALAR_INT ? v.v.i : static_cast<int64_t>(v.v.b);
      });
    return from(flat, s, o, CT_BOOL, [](const ct_scalar &v) { return static_cast<uint8_t>(v.v.b ? 1 : 0); });
  }

 private:
  ct_scalar_kind widest(ct_scalar_kind kind) const {
    if (!is_list_) return scalar_.kind > kind ? scalar_.kind : kind;
    for (size_t i = 0; i < n_; i++) kind = items_[i].widest(kind);
    return kind;
  }
  bool has_scalar() const {
    if (!is_list_) return true;
    for (size_t i = 0; i < n_; i++)
      if (items_[i].has_scalar()) return true;
    return false;
  }
  void store(const std::vector<int64_t> &shape, size_t dim, ct_dtype dtype, std::vector<ct_scalar> &flat) const {
    if (dim == shape.size()) {
      if (is_list_)
        throw type_error(dtype == CT_BOOL || dtype == CT_INT64 ? "'list' object cannot be interpreted as an integer"
                                                               : "must be real number, not list");
      flat.push_back(scalar_);
      return;
    }
    if (!is_list_) throw type_error("not a sequence");
    if (static_cast<int64_t>(n_) != shape[dim])
      throw value_error("expected sequence of length " + std::to_string(shape[dim]) + " at dim " +
                        std::to_string(dim) + " (got " + std::to_string(n_) + ")");
    for (size_t i = 0; i < n_; i++) items_[i].store(shape, dim + 1, dtype, flat);
  }
  template <class F>
  static Tensor from(const std::vector<ct_scalar> &flat, ct_shape shape, const ct_tensor_opts &o, ct_dtype src, F &&convert) {
    using C = decltype(convert(flat[0]));
    std::vector<C> data;
    data.reserve(flat.size());
    for (const ct_scalar &v : flat) data.push_back(convert(v));
    return Tensor::adopt(detail::call([&] { return ct_tensor_from_data(data.data(), src, shape, &o); }));
  }

  ct_scalar scalar_{};
  const TensorLiteral *items_ = nullptr;
  size_t n_ = 0;
  bool is_list_ = false;
};

/* torch.tensor(data): ctorch::tensor({{1, 2}, {3, 4}}), ctorch::tensor({1.5, 2}), ctorch::tensor(3.5). */
inline Tensor tensor(const TensorLiteral &data, const TensorOptions &options = {}) { return data.make(options); }

/* ===== printing options (torch.set_printoptions) ===== */
class PrintOptions {
 public:
  PrintOptions precision(int64_t v) const { return with(&ct_print_options::precision, v); }
  PrintOptions threshold(int64_t v) const { return with(&ct_print_options::threshold, v); }
  PrintOptions edgeitems(int64_t v) const { return with(&ct_print_options::edgeitems, v); }
  PrintOptions linewidth(int64_t v) const { return with(&ct_print_options::linewidth, v); }
  PrintOptions sci_mode(bool on) const {
    PrintOptions p = *this;
    p.o_.sci_mode = on ? CT_SCI_MODE_ON : CT_SCI_MODE_OFF;
    return p;
  }
  const ct_print_options &c() const noexcept { return o_; }

 private:
  PrintOptions with(ct_print_int ct_print_options::*field, int64_t v) const {
    PrintOptions p = *this;
    p.o_.*field = CT_PRINT_SET(v);
    return p;
  }
  ct_print_options o_{};
};
inline void set_printoptions(const PrintOptions &options) { detail::check(ct_set_printoptions(&options.c())); }

}  // namespace ctorch

#endif
