/* Assertions for the C++ tests: a failed check prints where and what, and the test exits non-zero. */
#ifndef CTORCH_TESTS_CPP_CHECK_HPP
#define CTORCH_TESTS_CPP_CHECK_HPP

#include <cmath>
#include <cstdio>
#include <string>
#include <typeinfo>
#include <vector>

namespace check {

inline int &failures() {
  static int n = 0;
  return n;
}

inline void fail(const char *file, int line, const std::string &what) {
  std::fprintf(stderr, "%s:%d: FAILED: %s\n", file, line, what.c_str());
  failures()++;
}

/* |got - want| <= atol + rtol * |want| elementwise, as torch.testing.assert_close (float32 defaults). */
inline bool close(const std::vector<double> &got, const std::vector<double> &want, double rtol = 1.3e-6,
                  double atol = 1e-5) {
  if (got.size() != want.size()) return false;
  for (size_t i = 0; i < got.size(); i++)
    if (!(std::fabs(got[i] - want[i]) <= atol + rtol * std::fabs(want[i]))) return false;
  return true;
}

/* Runs f and requires an exception of exactly type E (not a subclass) with exactly this message. */
template <class E, class F>
void throws(const char *file, int line, F &&f, const std::string &message) {
  try {
    f();
    fail(file, line, std::string("no exception; expected ") + typeid(E).name() + ": " + message);
  } catch (const E &e) {
    if (typeid(e) != typeid(E)) fail(file, line, std::string("exception of a subclass: ") + typeid(e).name());
    if (message != e.what()) fail(file, line, "message '" + std::string(e.what()) + "', expected '" + message + "'");
  } catch (const std::exception &e) {
    fail(file, line, std::string("wrong exception ") + typeid(e).name() + ": " + e.what());
  }
}

/* Runs f and requires an exception of exactly type E, whatever its message. */
template <class E, class F>
void throws_kind(const char *file, int line, F &&f) {
  try {
    f();
    fail(file, line, std::string("no exception; expected ") + typeid(E).name());
  } catch (const E &e) {
    if (typeid(e) != typeid(E)) fail(file, line, std::string("exception of a subclass: ") + typeid(e).name());
  } catch (const std::exception &e) {
    fail(file, line, std::string("wrong exception ") + typeid(e).name() + ": " + e.what());
  }
}

inline int report(const char *name) {
  if (failures()) std::fprintf(stderr, "%s: %d check(s) failed\n", name, failures());
  else std::printf("%s: all checks passed\n", name);
  return failures() ? 1 : 0;
}

}  // namespace check

#define CHECK(cond) ((cond) ? (void)0 : check::fail(__FILE__, __LINE__, #cond))
#define CHECK_EQ(a, b) ((a) == (b) ? (void)0 : check::fail(__FILE__, __LINE__, #a " == " #b))
#define CHECK_THROWS(E, expr, message) check::throws<E>(__FILE__, __LINE__, [&] { (void)(expr); }, message)
#define CHECK_THROWS_KIND(E, expr) check::throws_kind<E>(__FILE__, __LINE__, [&] { (void)(expr); })

#endif
