/* The measuring loop shared by peers.cpp, email.c and literal.c (C and C++).
   A program reads its data before timing, then calls bench_report with its
   pass function (one pass over the data: the count of matches, or -1 on an
   error, its message in bench_error). The first pass is a warm-up and gives
   the count; each measurement then runs the pass `batch` times (enough for
   ~5 ms) and reports the time of one pass. Measuring stops after `repeats`
   measurements or ~4 s; a warm-up of 2 s or more is the one measurement. Clock: CLOCK_MONOTONIC (std::chrono::steady_clock's).
   Output, one line: count=N compile_us=X match_us=M1,M2,... batch=B */
#ifndef BENCH_H
#define BENCH_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static char bench_error[256];

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void die(const char *msg) {
    printf("error: %s\n", msg);
    exit(1);
}

/* The whole file, NUL-terminated; its length in *len. */
static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) die("cannot open a file");
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = (char *)malloc(n + 1);
    if (fread(buf, 1, n, f) != (size_t)n) die("cannot read a file");
    fclose(f);
    buf[n] = 0;
    *len = n;
    return buf;
}

/* The lines of buf (split at '\n', a final empty line dropped), as
   (start, length) pairs: *starts and *lens, malloc'd; returns how many. */
static inline size_t split_lines(const char *buf, size_t len, const char ***starts, size_t **lens) {
    size_t n = 0, cap = 1024;
    *starts = (const char **)malloc(cap * sizeof(char *));
    *lens = (size_t *)malloc(cap * sizeof(size_t));
    const char *p = buf, *end = buf + len;
    while (p < end) {
        const char *nl = (const char *)memchr(p, '\n', end - p);
        if (!nl) nl = end;
        if (n == cap) {
            cap *= 2;
            *starts = (const char **)realloc(*starts, cap * sizeof(char *));
            *lens = (size_t *)realloc(*lens, cap * sizeof(size_t));
        }
        (*starts)[n] = p;
        (*lens)[n++] = nl - p;
        p = nl + 1;
    }
    return n;
}

static inline int bench_cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of n compile times (µs), to report one figure. */
static inline double median_us(double *t, int n) {
    qsort(t, n, sizeof(double), bench_cmp);
    return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

static void bench_report(long (*pass)(void *), void *ctx, int repeats, double compile_us) {
    double t0 = now_us();
    long count = pass(ctx);
    double warm = now_us() - t0;
    if (count < 0) die(bench_error);
    long batch = warm >= 5000 ? 1 : (long)(5000 / (warm + 0.01)) + 1;
    if (batch > 100000) batch = 100000;
    /* Warm up for 0.3 s in all (thorin's programs do the same, so that its
       JIT has compiled the hot code before the measurements). */
    while (warm < 2e6 && now_us() - t0 < 3e5) {
        __asm__ __volatile__("" ::: "memory");
        if (pass(ctx) < 0) die(bench_error);
    }
    double *times = (double *)malloc(sizeof(double) * (repeats > 0 ? repeats : 1));
    int done = 0;
    if (warm >= 2e6) { /* a slow engine: the warm-up is the measurement */
        times[done++] = warm;
        repeats = 1;
    }
    double start = now_us();
    while (done < repeats && (done == 0 || now_us() - start < 4e6)) {
        long total = 0;
        double t = now_us();
        for (long b = 0; b < batch; b++) {
            /* (a compiler barrier: a pass that reads memory and calls only
               pure functions must not be hoisted out of this loop) */
            __asm__ __volatile__("" ::: "memory");
            long c = pass(ctx);
            if (c < 0) die(bench_error);
            total += c;
        }
        times[done++] = (now_us() - t) / batch;
        if (total != count * batch) die("the count changed between passes");
    }
    printf("count=%ld compile_us=%.2f match_us=", count, compile_us);
    for (int i = 0; i < done; i++) printf(i ? ",%.3f" : "%.3f", times[i]);
    printf(" batch=%ld\n", batch);
}
#endif
