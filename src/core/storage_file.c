/* Storages over memory the allocator did not make: caller memory with a deleter (from_blob), file
   mappings (from_file) and POSIX shared memory (share_memory_). Each keeps its release function in
   the storage's ext part, so ct_storage_release frees it the right way. Error texts follow PyTorch's
   MapAllocator. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/internal.h"

/* ---- release functions ---- */
static void blob_release(ct_storage *s) {
  if (s->ext->deleter) s->ext->deleter(s->ext->ctx, s->data);
}

static void unmap_release(ct_storage *s) {
  if (s->data) munmap(s->data, s->ext->map_len);
}

/* Records "<what>: <strerror> (<errno>)" as PyTorch's MapAllocator words it. Running out of memory
   (or of space in /dev/shm) is CT_ERR_OUT_OF_MEMORY; anything else is an I/O error. */
static ct_status fail_errno(int err, const char *fmt, ...) CT_PRINTF(2, 3);
static ct_status fail_errno(int err, const char *fmt, ...) {
  char what[4352];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  ct_error_kind kind = err == ENOMEM || err == ENOSPC ? CT_ERR_OUT_OF_MEMORY : CT_ERR_IO;
  ct__error(kind, "%s: %s (%d)", what, strerror(err), err);
  return kind;
}

/* Makes the file behind fd at least n bytes long: grows it when `grow`, else requires it. */
static ct_status ensure_file_size(int fd, const char *name, size_t n, bool grow) {
  struct stat st;
  if (fstat(fd, &st) == -1) return fail_errno(errno, "unable to stat the file <%s>", name);
  if ((uint64_t)st.st_size >= n) return CT_OK;
  if (!grow) {
    ct__error(CT_ERR_RUNTIME, "file <%s> size is smaller than the required mapping size <%zu>", name, n);
    return CT_ERR_RUNTIME;
  }
  if (n > (uint64_t)INT64_MAX || ftruncate(fd, (off_t)n) == -1)
    return fail_errno(n > (uint64_t)INT64_MAX ? EFBIG : errno, "unable to resize file <%s> to the right size", name);
  return CT_OK;
}

/* Maps the first n (> 0) bytes of fd read-write: MAP_SHARED writes reach the file, MAP_PRIVATE
   ones stay in this process. NULL after recording the error. */
static void *map_file(int fd, const char *name, size_t n, bool shared) {
  void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, shared ? MAP_SHARED : MAP_PRIVATE, fd, 0);
  if (p != MAP_FAILED) return p;
  fail_errno(errno, "unable to mmap %zu bytes from file <%s>", n, name);
  return NULL;
}

/* ---- external memory ---- */
ct_storage *ct_storage_from_blob(void *data, size_t nbytes, void (*deleter)(void *ctx, void *data), void *ctx) {
  if (!data && nbytes) {
    ct__error(CT_ERR_VALUE, "ct_storage_from_blob: data is NULL but nbytes is %zu", nbytes);
    return NULL;
  }
  ct_storage *s = ct__storage_shell(CT_DEVICE_CPU);
  if (!s) return NULL;
  ct__storage_set_ext(s, ct__calloc(1, sizeof(ct_storage_ext)));
  if (!s->ext) {
    ct_storage_release(s);
    return NULL;
  }
  s->data = data;
  s->nbytes = nbytes;
  s->flags = CT_STORAGE_EXTERNAL | CT_STORAGE_HAS_EXT;
  s->ext->release = blob_release;
  s->ext->ctx = ctx;
  /* The deleter is armed only once the call has succeeded: a failed call (even one whose scope
     registration fails) leaves the memory with the caller and never calls it. */
  s = ct__own_storage(s);
  if (s) s->ext->deleter = deleter;
  return s;
}

/* ---- file mappings ---- */
static char *copy_string(const char *src) {
  size_t n = strlen(src) + 1;
  char *dst = ct__malloc(n);
  if (dst) memcpy(dst, src, n);
  return dst;
}

/* Opens, sizes and maps the file into s (which has its ext and filename). */
static ct_status map_into(ct_storage *s, const char *filename, bool shared, size_t nbytes) {
  int fd = shared ? open(filename, O_RDWR | O_CREAT | O_CLOEXEC, 0600) : open(filename, O_RDONLY | O_CLOEXEC);
  if (fd == -1)
    return fail_errno(errno, "unable to open file <%s> in read-%s mode", filename, shared ? "write" : "only");
  ct_status st = ensure_file_size(fd, filename, nbytes, shared);
  void *p = st == CT_OK ? map_file(fd, filename, nbytes, shared) : NULL;
  close(fd); /* the mapping keeps the file alive */
  if (!p) return st != CT_OK ? st : ct_last_error();
  s->data = p;
  s->ext->map_len = nbytes;
  return CT_OK;
}

ct_storage *ct_storage_from_file(const char *filename, bool shared, size_t nbytes) {
  if (!filename) {
    ct__error(CT_ERR_TYPE, "argument 1 must be str, not None");
    return NULL;
  }
  ct_storage *s = ct__storage_shell(CT_DEVICE_CPU);
  if (!s) return NULL;
  ct__storage_set_ext(s, ct__calloc(1, sizeof(ct_storage_ext)));
  if (!s->ext || !(s->ext->filename = copy_string(filename))) {
    ct_storage_release(s);
    return NULL;
  }
  s->ext->release = unmap_release;
  /* PyTorch reports every file mapping as shared (is_shared() is true even for shared=False) and
     never resizes one. */
  s->flags = CT_STORAGE_MAPPED | CT_STORAGE_SHARED | CT_STORAGE_HAS_EXT;
  /* As in PyTorch, nbytes 0 opens nothing: there is nothing to map (mmap refuses length 0). */
  if (nbytes && map_into(s, filename, shared, nbytes) != CT_OK) {
    ct_storage_release(s);
    return NULL;
  }
  s->nbytes = nbytes;
  return ct__own_storage(s);
}

/* ---- shared memory ---- */
/* A fresh, already unlinked shared-memory mapping of n (> 0) bytes. The name is unique to this
   process and call; O_EXCL makes a clash with a stale object fail over to the next name. The fault
   injector can fail it (as ENOMEM), like any storage allocation. */
static void *map_shared_memory(size_t n) {
  static _Atomic uint64_t counter;
  char name[64];
  int fd = -1;
  for (int attempt = 0; fd == -1 && attempt < 16; attempt++) {
    snprintf(name, sizeof name, "/ctorch_%ld_%llu", (long)getpid(),
             (unsigned long long)atomic_fetch_add(&counter, 1));
    fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd == -1 && errno != EEXIST) break;
  }
  if (fd == -1) {
    fail_errno(errno, "unable to open shared memory object <%s> in read-write mode", name);
    return NULL;
  }
  void *p = NULL;
  if (ct__alloc_should_fail())
    fail_errno(ENOMEM, "unable to mmap %zu bytes from file <%s>", n, name);
  else if (ensure_file_size(fd, name, n, true) == CT_OK)
    p = map_file(fd, name, n, true);
  /* Unlinked right away: the mapping keeps the memory, and nothing is left behind in /dev/shm even
     if the process dies. */
  shm_unlink(name);
  close(fd);
  return p;
}

ct_status ct_storage_share_memory_(ct_storage *s) {
  CT__NONNULL_STATUS(s);
  if (s->device_type != CT_CPU) {
    ct__error(CT_ERR_RUNTIME, "_share_fd_: only available on CPU");
    return CT_ERR_RUNTIME;
  }
  if (s->flags & CT_STORAGE_SHARED) return CT_OK;
  /* Everything that can fail happens before s is touched, so a failure leaves it unchanged. */
  ct_storage_ext *ext = ct__calloc(1, sizeof *ext);
  if (!ext) return CT_ERR_OUT_OF_MEMORY;
  void *p = NULL;
  if (s->nbytes) {
    p = map_shared_memory(s->nbytes);
    if (!p) {
      ct__free(ext);
      return ct_last_error();
    }
    memcpy(p, s->data, s->nbytes);
  }
  ext->release = unmap_release;
  ext->map_len = s->nbytes;
  ct__storage_free_data(s); /* the old block: allocator, blob deleter, ... */
  s->data = p;
  s->ext = ext;
  s->flags = CT_STORAGE_SHARED | CT_STORAGE_HAS_EXT; /* no longer resizable, external or a file mapping */
  return CT_OK;
}
