/* The command line of a program that writes a generated file which is committed (docs/api/pointwise.md,
   include/ctorch/pointwise_args.h): with no argument it writes the file to stdout; with --check FILE it
   exits 1, saying how to regenerate FILE, when FILE is not what it writes (a ctest runs that). */
#ifndef CT_SCRIPTS_GENERATED_FILE_H
#define CT_SCRIPTS_GENERATED_FILE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The whole of a file, or NULL. */
static char *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = NULL;
  size_t cap = 0, n = 0, got;
  do {
    if (n == cap) {
      char *grown = realloc(buf, cap = cap ? 2 * cap : 65536);
      if (!grown) {
        free(buf);
        fclose(f);
        return NULL;
      }
      buf = grown;
    }
    got = fread(buf + n, 1, cap - n, f);
    n += got;
  } while (got > 0);
  fclose(f);
  *size = n;
  return buf;
}

/* 0 when the file at path is text; else says where it differs and how to regenerate it. */
static int check(const char *path, const char *self, const char *text, size_t size) {
  size_t have_size = 0;
  char *have = read_file(path, &have_size);
  if (have && have_size == size && memcmp(have, text, size) == 0) {
    free(have);
    printf("%s: up to date\n", path);
    return 0;
  }
  if (!have) {
    printf("%s: cannot be read\n", path);
  } else {
    size_t at = 0, line = 1;
    while (at < size && at < have_size && text[at] == have[at]) line += text[at++] == '\n';
    printf("%s differs from what its generator gives, from line %zu on\n", path, line);
  }
  printf("regenerate it with `make docs` (or `%s > %s`) and commit it\n", self, path);
  free(have);
  return 1;
}

static int generated_file_main(int argc, char **argv, void (*write)(FILE *)) {
  if (argc == 1) {
    write(stdout);
    return fflush(stdout) == 0 ? 0 : 1;
  }
  if (argc != 3 || strcmp(argv[1], "--check") != 0) {
    fprintf(stderr, "usage: %s [--check FILE]\n", argv[0]);
    return 2;
  }
  char *text = NULL;
  size_t size = 0;
  FILE *mem = open_memstream(&text, &size);
  if (!mem) return 2;
  write(mem);
  fclose(mem);
  int rc = check(argv[2], argv[0], text, size);
  free(text);
  return rc;
}

#endif
