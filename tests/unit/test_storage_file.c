/* UntypedStorage.from_file and share_memory_: file mappings, POSIX shared memory, their errors
   (texts from torch 1.13's MapAllocator) and out-of-memory at every allocation point. */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "core/internal.h"

static char path[64];

/* A fresh temporary file holding `content` (n bytes). */
static void make_file(const char *content, size_t n) {
  strcpy(path, "/tmp/ctorch_test_XXXXXX");
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0) return;
  CHECK_EQ_INT(write(fd, content, n), (long long)n);
  close(fd);
}

/* The file's bytes into buf (at most n); returns its size. */
static long long read_file(const char *p, char *buf, size_t n) {
  int fd = open(p, O_RDONLY);
  if (fd < 0) return -1;
  ssize_t got = read(fd, buf, n);
  close(fd);
  return got;
}

static bool storage_is(const ct_storage *s, const char *expected, size_t n) {
  char buf[64];
  return ct_storage_nbytes(s) == n && n <= sizeof buf && ct_storage_tolist(s, (uint8_t *)buf) == CT_OK &&
         memcmp(buf, expected, n) == 0;
}

static void test_private_mapping(void) {
  make_file("abcd", 4);
  char msg[256];
  /* UntypedStorage.from_file(p, False, 10) */
  CHECK(ct_storage_from_file(path, false, 10) == NULL);
  snprintf(msg, sizeof msg, "file <%s> size is smaller than the required mapping size <10>", path);
  CHECK_ERROR(CT_ERR_RUNTIME, msg);

  ct_storage *s = ct_storage_from_file(path, false, 3);
  CHECK(s && storage_is(s, "abc", 3));
  CHECK_STR(ct_storage_filename(s), path);
  /* PyTorch reports a private file mapping as shared too. */
  CHECK(ct_storage_is_shared(s));
  CHECK(!ct_storage_resizable(s));
  CHECK_EQ_INT(ct_storage_resize_(s, 8), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Trying to resize storage that is not resizable");
  /* Private: writes stay in this process, the file keeps "abcd". */
  ct_storage_fill_(s, 1);
  CHECK(storage_is(s, "\1\1\1", 3));
  char buf[16];
  CHECK_EQ_INT(read_file(path, buf, sizeof buf), 4);
  CHECK(memcmp(buf, "abcd", 4) == 0);
  /* share_memory_ of an already-shared storage changes nothing (as in PyTorch). */
  void *data = ct_storage_data_ptr(s);
  CHECK_EQ_INT(ct_storage_share_memory_(s), CT_OK);
  CHECK(ct_storage_data_ptr(s) == data);
  ct_storage_release(s);

  /* nbytes 0 works, and the exact file size works. */
  s = ct_storage_from_file(path, false, 0);
  CHECK(s && ct_storage_nbytes(s) == 0);
  CHECK_STR(ct_storage_filename(s), path);
  ct_storage_release(s);
  s = ct_storage_from_file(path, false, 4);
  CHECK(s && storage_is(s, "abcd", 4));
  ct_storage_release(s);
  unlink(path);

  /* PyTorch opens nothing for nbytes 0: a missing file is fine. */
  s = ct_storage_from_file("/tmp/ctorch_no_such_file_x", false, 0);
  CHECK(s != NULL);
  ct_storage_release(s);
}

static void test_shared_mapping(void) {
  make_file("abcd", 4);
  /* shared=True extends the file to nbytes; the first bytes keep their content. */
  ct_storage *s = ct_storage_from_file(path, true, 8);
  CHECK(s && storage_is(s, "abcd\0\0\0\0", 8));
  CHECK(ct_storage_is_shared(s));
  CHECK(!ct_storage_resizable(s));
  CHECK_EQ_INT(ct_storage_resize_(s, 9), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Trying to resize storage that is not resizable");
  struct stat st;
  CHECK(stat(path, &st) == 0 && st.st_size == 8);
  /* s.fill_(65): the writes reach the file */
  ct_storage_fill_(s, 65);
  ct_storage_release(s);
  char buf[16];
  CHECK_EQ_INT(read_file(path, buf, sizeof buf), 8);
  CHECK(memcmp(buf, "AAAAAAAA", 8) == 0);
  /* A smaller mapping leaves the file alone. */
  s = ct_storage_from_file(path, true, 2);
  CHECK(s && storage_is(s, "AA", 2));
  ct_storage_release(s);
  CHECK(stat(path, &st) == 0 && st.st_size == 8);
  s = ct_storage_from_file(path, true, 0);
  CHECK(s && ct_storage_nbytes(s) == 0 && ct_storage_is_shared(s));
  ct_storage_release(s);
  unlink(path);

  /* A missing file is created (zeros)... */
  s = ct_storage_from_file(path, true, 3);
  CHECK(s && storage_is(s, "\0\0\0", 3));
  ct_storage_release(s);
  CHECK(stat(path, &st) == 0 && st.st_size == 3);
  unlink(path);
  /* ...but not for nbytes 0, where PyTorch opens nothing. */
  s = ct_storage_from_file(path, true, 0);
  CHECK(s != NULL);
  ct_storage_release(s);
  CHECK(stat(path, &st) != 0);
}

static void test_file_errors(void) {
  CHECK(ct_storage_from_file("/tmp/ctorch_no_such_file_x", false, 4) == NULL);
  CHECK_ERROR(CT_ERR_IO,
              "unable to open file </tmp/ctorch_no_such_file_x> in read-only mode: No such file or directory (2)");
  CHECK(ct_storage_from_file("/tmp/ctorch_no_such_dir_x/zz", true, 4) == NULL);
  CHECK_ERROR(CT_ERR_IO,
              "unable to open file </tmp/ctorch_no_such_dir_x/zz> in read-write mode: No such file or directory (2)");
  CHECK(ct_storage_from_file("/tmp", true, 2) == NULL);
  CHECK_ERROR(CT_ERR_IO, "unable to open file </tmp> in read-write mode: Is a directory (21)");
  /* A directory opens read-only but cannot be mapped. */
  CHECK(ct_storage_from_file("/tmp", false, 2) == NULL);
  CHECK_ERROR(CT_ERR_IO, "unable to mmap 2 bytes from file </tmp>: No such device (19)");
  CHECK(ct_storage_from_file(NULL, false, 2) == NULL);
  CHECK_ERROR(CT_ERR_TYPE, "argument 1 must be str, not None");
}

/* The names of this process's shared-memory objects still in /dev/shm. */
static int leftover_shm_objects(void) {
  char prefix[64];
  snprintf(prefix, sizeof prefix, "ctorch_%ld_", (long)getpid());
  DIR *d = opendir("/dev/shm");
  if (!d) return 0;
  int n = 0;
  for (struct dirent *e; (e = readdir(d));)
    if (strncmp(e->d_name, prefix, strlen(prefix)) == 0) n++;
  closedir(d);
  return n;
}

static void test_share_memory(void) {
  /* s = UntypedStorage(5).fill_(3); s.share_memory_(): new memory, same bytes, shared */
  ct_storage *s = ct_storage_new(5, CT_DEVICE_CPU);
  ct_storage_fill_(s, 3);
  void *old = ct_storage_data_ptr(s);
  CHECK_EQ_INT(ct_storage_share_memory_(s), CT_OK);
  CHECK(ct_storage_is_shared(s));
  CHECK(ct_storage_data_ptr(s) != old);
  CHECK(storage_is(s, "\3\3\3\3\3", 5));
  CHECK(ct_storage_filename(s) == NULL);
  CHECK_EQ_INT(leftover_shm_objects(), 0);
  CHECK_EQ_INT(ct_storage_resize_(s, 10), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Trying to resize storage that is not resizable");
  ct_storage *nine = ct_storage_new(5, CT_DEVICE_CPU);
  ct_storage_fill_(nine, 9);
  CHECK_EQ_INT(ct_storage_copy_(s, nine), CT_OK);
  CHECK(storage_is(s, "\11\11\11\11\11", 5));
  /* A clone is a plain storage again. */
  ct_storage *c = ct_storage_clone(s);
  CHECK(c && !ct_storage_is_shared(c) && ct_storage_resizable(c));
  ct_storage_release(c);
  /* Sharing twice is a no-op. */
  void *shm = ct_storage_data_ptr(s);
  CHECK_EQ_INT(ct_storage_share_memory_(s), CT_OK);
  CHECK(ct_storage_data_ptr(s) == shm);

  /* The memory really is shared: a child's write is visible here, unlike a private storage's. */
  pid_t pid = fork();
  if (pid == 0) {
    ct_storage_fill_(s, 42);
    ct_storage_fill_(nine, 42);
    _exit(0);
  }
  int status = 0;
  CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status));
  CHECK(storage_is(s, "\52\52\52\52\52", 5));
  CHECK(storage_is(nine, "\11\11\11\11\11", 5));
  ct_storage_release(nine);
  ct_storage_release(s);

  /* UntypedStorage(0).share_memory_(): shared, and no longer resizable */
  s = ct_storage_new(0, CT_DEVICE_CPU);
  CHECK_EQ_INT(ct_storage_share_memory_(s), CT_OK);
  CHECK(ct_storage_is_shared(s));
  CHECK_EQ_INT(ct_storage_resize_(s, 3), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Trying to resize storage that is not resizable");
  ct_storage_release(s);
}

static int blob_deleted;
static void blob_deleter(void *ctx, void *data) {
  (void)ctx;
  blob_deleted++;
  free(data);
}

static void test_share_blob(void) {
  /* Sharing external memory moves the bytes and hands the old block to its deleter right away. */
  uint8_t *mem = malloc(4);
  memcpy(mem, "wxyz", 4);
  blob_deleted = 0;
  ct_storage *s = ct_storage_from_blob(mem, 4, blob_deleter, NULL);
  CHECK_EQ_INT(ct_storage_share_memory_(s), CT_OK);
  CHECK_EQ_INT(blob_deleted, 1);
  CHECK(storage_is(s, "wxyz", 4));
  CHECK(ct_storage_is_shared(s));
  ct_storage_release(s);
  CHECK_EQ_INT(blob_deleted, 1);
}

/* Every allocation point fails in turn: an OOM error and the input unchanged each time. */
static void test_out_of_memory(void) {
  ct_storage *s = ct_storage_new(6, CT_DEVICE_CPU);
  ct_storage_fill_(s, 5);
  void *data = ct_storage_data_ptr(s);
  int failures = 0;
  for (int64_t k = 0;; k++) {
    ct_debug_fail_allocation_at(k);
    ct_status st = ct_storage_share_memory_(s);
    ct_debug_fail_allocation_at(-1);
    if (st == CT_OK) break;
    failures++;
    CHECK_EQ_INT(st, CT_ERR_OUT_OF_MEMORY);
    CHECK_EQ_INT(ct_last_error(), CT_ERR_OUT_OF_MEMORY);
    ct_clear_error();
    CHECK(ct_storage_data_ptr(s) == data);
    CHECK(!ct_storage_is_shared(s) && ct_storage_resizable(s));
    CHECK(storage_is(s, "\5\5\5\5\5\5", 6));
    CHECK_EQ_INT(leftover_shm_objects(), 0);
  }
  CHECK(failures >= 2); /* the ext part and the shared memory */
  CHECK(ct_storage_is_shared(s) && storage_is(s, "\5\5\5\5\5\5", 6));
  ct_storage_release(s);

  make_file("abcd", 4);
  failures = 0;
  for (int64_t k = 0;; k++) {
    ct_debug_fail_allocation_at(k);
    ct_storage *f = ct_storage_from_file(path, true, 4);
    ct_debug_fail_allocation_at(-1);
    if (f) {
      CHECK(storage_is(f, "abcd", 4));
      ct_storage_release(f);
      break;
    }
    failures++;
    CHECK_EQ_INT(ct_last_error(), CT_ERR_OUT_OF_MEMORY);
    ct_clear_error();
  }
  CHECK(failures >= 3); /* struct, ext part, file name */
  unlink(path);
}

int main(void) {
  test_private_mapping();
  test_shared_mapping();
  test_file_errors();
  test_share_memory();
  test_share_blob();
  test_out_of_memory();
  return TEST_SUMMARY();
}
