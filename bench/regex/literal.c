/* The hand-written C matcher of the literal workload: the non-overlapping
   occurrences of a literal (the pattern file's bytes, e.g. `Sherlock`) in
   the data — memchr for its first byte, memcmp for the rest. (glibc's
   memmem took 14× the time on the haystack.)
   usage: literal count PATTERN_FILE DATA_FILE REPEATS */
#include "bench.h"

static const char *needle, *hay;
static size_t nlen, hlen;

static long pass(void *ctx) {
    (void)ctx;
    long count = 0;
    const char *p = hay, *end = hay + hlen;
    while ((size_t)(end - p) >= nlen) {
        const char *q = (const char *)memchr(p, needle[0], end - p - nlen + 1);
        if (!q) break;
        if (memcmp(q + 1, needle + 1, nlen - 1) == 0) {
            count++;
            p = q + nlen;
        } else {
            p = q + 1;
        }
    }
    return count;
}

int main(int argc, char **argv) {
    if (argc != 5 || strcmp(argv[1], "count") != 0) die("usage: literal count PATTERN_FILE DATA_FILE REPEATS");
    needle = read_file(argv[2], &nlen);
    if (nlen == 0) die("an empty literal");
    hay = read_file(argv[3], &hlen);
    bench_report(pass, NULL, atoi(argv[4]), 0);
    return 0;
}
