/* torch.device: parsing with PyTorch 1.13's grammar and messages, str() and repr(). */
#include "check.h"

#define EXPECTED_ONE_OF                                                                                      \
  "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, ort, xla, lazy, vulkan, " \
  "mps, meta, hpu, privateuseone device type at start of device string: "

static void check_parses(const char *s, ct_device_type type, int index, const char *str, const char *repr) {
  ct_device d = {CT_DEVICE_TYPE_UNSET, -7};
  CHECK_EQ_INT(ct_device_parse(s, &d), CT_OK);
  CHECK_EQ_INT(d.type, type);
  CHECK_EQ_INT(d.index, index);
  char buf[64];
  ct_device_str(d, buf, sizeof buf);
  CHECK_STR(buf, str);
  ct_device_repr(d, buf, sizeof buf);
  CHECK_STR(buf, repr);
}

/* Fails with this kind and message, leaving *out alone. */
static void check_fails(const char *s, ct_error_kind kind, const char *msg) {
  ct_device d = {CT_META, 5};
  CHECK_EQ_INT(ct_device_parse(s, &d), kind);
  CHECK_ERROR(kind, msg);
  CHECK(d.type == CT_META && d.index == 5);
}

static void test_valid(void) {
  /* str(torch.device(s)), repr(torch.device(s)) */
  check_parses("cpu", CT_CPU, -1, "cpu", "device(type='cpu')");
  check_parses("cuda", CT_CUDA, -1, "cuda", "device(type='cuda')");
  check_parses("cuda:1", CT_CUDA, 1, "cuda:1", "device(type='cuda', index=1)");
  check_parses("cuda:0", CT_CUDA, 0, "cuda:0", "device(type='cuda', index=0)");
  check_parses("cuda:10", CT_CUDA, 10, "cuda:10", "device(type='cuda', index=10)");
  check_parses("cuda:127", CT_CUDA, 127, "cuda:127", "device(type='cuda', index=127)");
  check_parses("meta", CT_META, -1, "meta", "device(type='meta')");
  check_parses("cpu:0", CT_CPU, 0, "cpu:0", "device(type='cpu', index=0)");
  check_parses("cpu:1", CT_CPU, 1, "cpu:1", "device(type='cpu', index=1)");
  check_parses("meta:0", CT_META, 0, "meta:0", "device(type='meta', index=0)");
}

static void test_invalid(void) {
  check_fails("cuda:x", CT_ERR_RUNTIME, "Invalid device string: 'cuda:x'");
  check_fails("cuda:-1", CT_ERR_RUNTIME, "Invalid device string: 'cuda:-1'");
  check_fails("cuda:01", CT_ERR_RUNTIME, "Invalid device string: 'cuda:01'");
  check_fails("cuda:00", CT_ERR_RUNTIME, "Invalid device string: 'cuda:00'");
  check_fails("cuda:-0", CT_ERR_RUNTIME, "Invalid device string: 'cuda:-0'");
  check_fails("cuda:+1", CT_ERR_RUNTIME, "Invalid device string: 'cuda:+1'");
  check_fails("cuda: 1", CT_ERR_RUNTIME, "Invalid device string: 'cuda: 1'");
  check_fails("cuda:1 ", CT_ERR_RUNTIME, "Invalid device string: 'cuda:1 '");
  check_fails("cuda:1a", CT_ERR_RUNTIME, "Invalid device string: 'cuda:1a'");
  check_fails("cuda:0x", CT_ERR_RUNTIME, "Invalid device string: 'cuda:0x'");
  check_fails("cuda:", CT_ERR_RUNTIME, "Invalid device string: 'cuda:'");
  check_fails("cuda::", CT_ERR_RUNTIME, "Invalid device string: 'cuda::'");
  check_fails("cuda:1:2", CT_ERR_RUNTIME, "Invalid device string: 'cuda:1:2'");
  check_fails(" cuda", CT_ERR_RUNTIME, "Invalid device string: ' cuda'");
  check_fails("cpu ", CT_ERR_RUNTIME, "Invalid device string: 'cpu '");
  check_fails(":1", CT_ERR_RUNTIME, "Invalid device string: ':1'");
  check_fails("1", CT_ERR_RUNTIME, "Invalid device string: '1'");
  check_fails("x1", CT_ERR_RUNTIME, "Invalid device string: 'x1'");
  /* The grammar is checked before the type name. */
  check_fails("foo:01", CT_ERR_RUNTIME, "Invalid device string: 'foo:01'");
  check_fails("", CT_ERR_RUNTIME, "Device string must not be empty");
  check_fails("foo", CT_ERR_RUNTIME, EXPECTED_ONE_OF "foo");
  check_fails("foo:1", CT_ERR_RUNTIME, EXPECTED_ONE_OF "foo");
  check_fails("CUDA", CT_ERR_RUNTIME, EXPECTED_ONE_OF "CUDA");
  check_fails("Cpu", CT_ERR_RUNTIME, EXPECTED_ONE_OF "Cpu");
  check_fails("a_b", CT_ERR_RUNTIME, EXPECTED_ONE_OF "a_b");
  check_fails("_", CT_ERR_RUNTIME, EXPECTED_ONE_OF "_");
  /* The index must fit an int (std::stoi), checked before the type name. */
  check_fails("cuda:99999999999", CT_ERR_RUNTIME,
              "Could not parse device index '99999999999' in device string 'cuda:99999999999'");
  check_fails("cuda:2147483648", CT_ERR_RUNTIME,
              "Could not parse device index '2147483648' in device string 'cuda:2147483648'");
  check_fails("foo:99999999999", CT_ERR_RUNTIME,
              "Could not parse device index '99999999999' in device string 'foo:99999999999'");
  /* Deviation: PyTorch wraps indices above 127 into its int8 DeviceIndex (cuda:128 becomes index
     -128, cuda:256 becomes cuda:0); ctorch refuses them. */
  check_fails("cuda:128", CT_ERR_RUNTIME,
              "Device index must be at most 127 (DeviceIndex is int8), got 128 in device string 'cuda:128'");
  check_fails("cuda:2147483647", CT_ERR_RUNTIME,
              "Device index must be at most 127 (DeviceIndex is int8), got 2147483647 in device string "
              "'cuda:2147483647'");
}

static void test_unsupported_types(void) {
  /* Types PyTorch knows (torch.device("xla") works there) but ctorch does not implement. */
  const char *types[] = {"ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve",
                         "fpga", "ort", "xla",  "lazy",   "vulkan", "mps",    "hpu", "privateuseone"};
  char msg[128];
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
    snprintf(msg, sizeof msg, "ctorch does not support the '%s' device type (supported: cpu, cuda, meta)",
             types[i]);
    check_fails(types[i], CT_ERR_NOT_IMPLEMENTED, msg);
  }
  check_fails("xla:0", CT_ERR_NOT_IMPLEMENTED,
              "ctorch does not support the 'xla' device type (supported: cpu, cuda, meta)");
}

static void test_ordinal_and_misc(void) {
  ct_device d;
  /* torch.device(3) is cuda:3; torch.device(-1) fails */
  CHECK_EQ_INT(ct_device_from_ordinal(3, &d), CT_OK);
  CHECK(d.type == CT_CUDA && d.index == 3);
  CHECK_EQ_INT(ct_device_from_ordinal(-1, &d), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Device index must not be negative");
  CHECK_EQ_INT(ct_device_from_ordinal(128, &d), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Device index must be at most 127 (DeviceIndex is int8), got 128");
  CHECK(ct_device_equal(CT_DEVICE_CUDA(1), CT_DEVICE_CUDA(1)));
  CHECK(!ct_device_equal(CT_DEVICE_CUDA(1), CT_DEVICE_CUDA(0)));
  /* torch.device('cuda') != torch.device('cuda:0') */
  CHECK(!ct_device_equal(CT_DEVICE_CUDA(-1), CT_DEVICE_CUDA(0)));
  CHECK(!ct_cuda_is_available());
  /* ct_device_str truncates to the buffer and returns the full length, like snprintf. */
  char small[4];
  CHECK_EQ_INT(ct_device_str(CT_DEVICE_CUDA(12), small, sizeof small), 7);
  CHECK_STR(small, "cud");
  CHECK_EQ_INT(ct_device_parse(NULL, &d), CT_ERR_VALUE);
  ct_clear_error();
}

int main(void) {
  test_valid();
  test_invalid();
  test_unsupported_types();
  test_ordinal_and_misc();
  return TEST_SUMMARY();
}
