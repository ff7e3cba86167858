/* The hand-written C matcher of the e-mail workload: how many lines the
   e-mail pattern (bench/regex/gen.py, EMAIL) matches in full — a
   deterministic automaton written by hand (the table below, one row per
   state, one column per character class), run one table lookup per byte.
   The language, read off the pattern:
     local  @ first . (label .)* tld
     local: over alnum and [._-], its first and last characters alnum
     first: over alnum and [_-], its first and last characters alnum
     label: over alnum and [_-], nonempty, ending in alnum; after its last
            [_-] (if any) at least two alnum: (alnum* [_-]+ alnum)* alnum+
     tld:   two letters or more
   (A version with one goto label per state took 1.8× the time: its
   branches mispredict.)
   usage: email lines PATTERN_FILE DATA_FILE REPEATS  (the pattern file is
   not read: the pattern is this code) */
#include "bench.h"

enum { OTHER, LETTER, DIGIT, DOT, SEP /* - _ */, AT, NCLS };
enum {
    DEAD, START,
    LOCAL_ALNUM, LOCAL_SEP,     /* local part: after alnum, after [._-] */
    FIRST_START, FIRST_ALNUM, FIRST_SEP,  /* first label of the domain */
    LABEL_START,                /* after a dot */
    LETTERS1,                   /* one letter: a label, not a tld */
    LETTERS2,                   /* two or more letters: a tld (accepting) */
    ALNUMS,                     /* alnum with a digit, no [_-]: a label */
    SEPS,                       /* after [_-] */
    AFTER_SEP1, AFTER_SEP2,     /* one, two or more alnum after [_-] */
    NSTATES
};
static const unsigned char DELTA[NSTATES][NCLS] = {
    /*               OTHER LETTER       DIGIT        DOT          SEP         AT */
    [DEAD]        = {DEAD, DEAD,        DEAD,        DEAD,        DEAD,       DEAD},
    [START]       = {DEAD, LOCAL_ALNUM, LOCAL_ALNUM, DEAD,        DEAD,       DEAD},
    [LOCAL_ALNUM] = {DEAD, LOCAL_ALNUM, LOCAL_ALNUM, LOCAL_SEP,   LOCAL_SEP,  FIRST_START},
    [LOCAL_SEP]   = {DEAD, LOCAL_ALNUM, LOCAL_ALNUM, LOCAL_SEP,   LOCAL_SEP,  DEAD},
    [FIRST_START] = {DEAD, FIRST_ALNUM, FIRST_ALNUM, DEAD,        DEAD,       DEAD},
    [FIRST_ALNUM] = {DEAD, FIRST_ALNUM, FIRST_ALNUM, LABEL_START, FIRST_SEP,  DEAD},
    [FIRST_SEP]   = {DEAD, FIRST_ALNUM, FIRST_ALNUM, DEAD,        FIRST_SEP,  DEAD},
    [LABEL_START] = {DEAD, LETTERS1,    ALNUMS,      DEAD,        SEPS,       DEAD},
    [LETTERS1]    = {DEAD, LETTERS2,    ALNUMS,      LABEL_START, SEPS,       DEAD},
    [LETTERS2]    = {DEAD, LETTERS2,    ALNUMS,      LABEL_START, SEPS,       DEAD},
    [ALNUMS]      = {DEAD, ALNUMS,      ALNUMS,      LABEL_START, SEPS,       DEAD},
    [SEPS]        = {DEAD, AFTER_SEP1,  AFTER_SEP1,  DEAD,        SEPS,       DEAD},
    [AFTER_SEP1]  = {DEAD, AFTER_SEP2,  AFTER_SEP2,  DEAD,        SEPS,       DEAD},
    [AFTER_SEP2]  = {DEAD, AFTER_SEP2,  AFTER_SEP2,  LABEL_START, SEPS,       DEAD},
};
static unsigned char next[NSTATES][256];  /* DELTA by byte, not by class */

static int email(const unsigned char *s, size_t n) {
    const unsigned char *e = s + n;
    unsigned st = START;
    while (s < e) st = next[st][*s++];
    return st == LETTERS2;
}

static const char **starts;
static size_t *lens, nlines;

static long pass(void *ctx) {
    (void)ctx;
    long count = 0;
    for (size_t i = 0; i < nlines; i++) count += email((const unsigned char *)starts[i], lens[i]);
    return count;
}

int main(int argc, char **argv) {
    if (argc != 5 || strcmp(argv[1], "lines") != 0) die("usage: email lines PATTERN_FILE DATA_FILE REPEATS");
    unsigned char cls[256] = {0};
    for (int ch = 'a'; ch <= 'z'; ch++) cls[ch] = cls[ch - 'a' + 'A'] = LETTER;
    for (int ch = '0'; ch <= '9'; ch++) cls[ch] = DIGIT;
    cls['.'] = DOT;
    cls['-'] = cls['_'] = SEP;
    cls['@'] = AT;
    for (int st = 0; st < NSTATES; st++)
        for (int b = 0; b < 256; b++) next[st][b] = DELTA[st][cls[b]];
    size_t len;
    char *data = read_file(argv[3], &len);
    nlines = split_lines(data, len, &starts, &lens);
#ifdef EMAIL_TEST  /* prints 0 or 1 per line: checked against Python's re */
    for (size_t i = 0; i < nlines; i++) printf("%d\n", email((const unsigned char *)starts[i], lens[i]));
    return 0;
#endif
    bench_report(pass, NULL, atoi(argv[4]), 0);
    return 0;
}
