/* The held-descriptor syscall floor: every attribute of one scrape opened once,
 * then only pread(fd, buf, n, 0) per pass (sysfs re-runs the attribute's show()
 * at offset 0). The exporter keeps its dynamic attributes open the same way.
 *   floor_held FILE_LIST [PASSES]
 * Prints the median time of a pass and per attribute. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: floor_held FILE_LIST [PASSES]\n");
    return 2;
  }
  int passes = argc > 2 ? atoi(argv[2]) : 200;
  FILE* list = fopen(argv[1], "r");
  if (!list) {
    perror(argv[1]);
    return 2;
  }
  int* fds = NULL;
  size_t n = 0, cap = 0;
  char line[4096];
  while (fgets(line, sizeof line, list)) {
    line[strcspn(line, "\n")] = 0;
    if (!line[0]) continue;
    int fd = open(line, O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    if (n == cap) {
      cap = cap ? cap * 2 : 1024;
      fds = realloc(fds, cap * sizeof *fds);
    }
    fds[n++] = fd;
  }
  fclose(list);
  double* t = malloc((size_t)passes * sizeof *t);
  char buf[4096];
  long failed = 0;
  for (int p = 0; p < passes; ++p) {
    double t0 = now();
    for (size_t i = 0; i < n; ++i)
      if (pread(fds[i], buf, sizeof buf, 0) < 0) ++failed;
    t[p] = now() - t0;
  }
  qsort(t, (size_t)passes, sizeof *t, cmp);
  double median = t[passes / 2];
  printf("held floor: %zu attributes, median pass %.1f us, %.2f us/attribute (%ld failed reads)\n", n,
         median * 1e6, median * 1e6 / (double)(n ? n : 1), failed);
  return 0;
}
