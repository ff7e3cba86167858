// The regex peers of `bench/run regex` in one program: PCRE2 (8-bit; JIT and
// interpreter), RE2, Hyperscan, Boost.Regex and std::regex, each in its
// fastest fair mode: the pattern compiled once, match data made once and
// reused, the data read before timing (bench.h: the measuring loop).
//   usage: peers ENGINE KIND PATTERN_FILE DATA_FILE REPEATS
//   ENGINE: pcre2-jit pcre2 re2 hyperscan boost std
//   KIND:   lines (how many lines the pattern matches in full, one call per
//           line) or count (the non-overlapping leftmost-first matches in
//           the whole data, as Python's re.finditer; an empty match moves
//           on by one byte)
// Hyperscan reports every match (all end offsets): for count, with
// HS_FLAG_SOM_LEFTMOST, this takes each match that starts at or after the
// end of the last one taken — which is leftmost-first's count only for some
// patterns (the harness compares it with Python's).
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <re2/re2.h>
#include <hs/hs.h>
#include <boost/regex.hpp>
#include <regex>
#include <string>
#include <vector>
#include <memory>
#include <stdexcept>
#include "bench.h"

struct Data {
    const char *buf = nullptr;
    size_t len = 0;
    const char **starts = nullptr;
    size_t *lens = nullptr, nlines = 0;
};

struct Engine {
    virtual ~Engine() {}
    virtual void compile(const std::string &pat, bool lines) = 0;
    virtual long count(const Data &d) = 0;  // KIND count
    virtual long lines(const Data &d) = 0;  // KIND lines
};

struct Pcre2 : Engine {
    bool jit;
    pcre2_code *code = nullptr;
    pcre2_match_data *md = nullptr;
    pcre2_match_context *mctx = nullptr;
    pcre2_jit_stack *stack = nullptr;
    explicit Pcre2(bool j) : jit(j) {}
    static std::string message(int rc) {
        PCRE2_UCHAR buf[256];
        pcre2_get_error_message(rc, buf, sizeof buf);
        return "PCRE2: " + std::string((char *)buf);
    }
    void compile(const std::string &pat, bool) override {
        if (code) pcre2_code_free(code);
        int err;
        PCRE2_SIZE off;
        code = pcre2_compile((PCRE2_SPTR)pat.data(), pat.size(), 0, &err, &off, nullptr);
        if (!code) throw std::runtime_error(message(err));
        if (jit) {
            int rc = pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);
            if (rc != 0) throw std::runtime_error(message(rc));
        }
        if (!md) {
            md = pcre2_match_data_create(1, nullptr);
            mctx = pcre2_match_context_create(nullptr);
            stack = pcre2_jit_stack_create(32 * 1024, 8 << 20, nullptr);  // (the default is 32 KiB)
            pcre2_jit_stack_assign(mctx, nullptr, stack);
        }
    }
    int match(const char *s, size_t n, size_t start) {
        return jit ? pcre2_jit_match(code, (PCRE2_SPTR)s, n, start, 0, md, mctx)
                   : pcre2_match(code, (PCRE2_SPTR)s, n, start, 0, md, mctx);
    }
    long count(const Data &d) override {
        long c = 0;
        size_t pos = 0;
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
        while (pos <= d.len) {
            int rc = match(d.buf, d.len, pos);
            if (rc == PCRE2_ERROR_NOMATCH) break;
            if (rc < 0) throw std::runtime_error(message(rc));
            c++;
            pos = ov[1] > ov[0] ? ov[1] : ov[1] + 1;
        }
        return c;
    }
    long lines(const Data &d) override {
        long c = 0;
        for (size_t i = 0; i < d.nlines; i++) {
            int rc = match(d.starts[i], d.lens[i], 0);
            if (rc >= 0) c++;
            else if (rc != PCRE2_ERROR_NOMATCH) throw std::runtime_error(message(rc));
        }
        return c;
    }
};

struct Re2 : Engine {
    std::unique_ptr<RE2> re;
    void compile(const std::string &pat, bool) override {
        RE2::Options o;
        o.set_encoding(RE2::Options::EncodingLatin1);  // bytes, as thorin's alphabet
        o.set_log_errors(false);
        re.reset(new RE2(pat, o));
        if (!re->ok()) throw std::runtime_error("RE2: " + re->error());
    }
    long count(const Data &d) override {
        long c = 0;
        size_t pos = 0;
        re2::StringPiece text(d.buf, d.len), m;
        while (pos <= d.len && re->Match(text, pos, d.len, RE2::UNANCHORED, &m, 1)) {
            c++;
            size_t end = m.data() - d.buf + m.size();
            pos = m.size() ? end : end + 1;
        }
        return c;
    }
    long lines(const Data &d) override {
        long c = 0;
        for (size_t i = 0; i < d.nlines; i++)
            c += RE2::FullMatch(re2::StringPiece(d.starts[i], d.lens[i]), *re);
        return c;
    }
};

struct Hyperscan : Engine {
    hs_database_t *db = nullptr;
    hs_scratch_t *scratch = nullptr;
    struct Ctx { long count; unsigned long long last_end; };
    void compile(const std::string &pat, bool lines) override {
        if (db) hs_free_database(db);
        hs_compile_error_t *err = nullptr;
        unsigned flags = lines ? HS_FLAG_SINGLEMATCH : HS_FLAG_SOM_LEFTMOST;
        if (hs_compile(pat.c_str(), flags, HS_MODE_BLOCK, nullptr, &db, &err) != HS_SUCCESS) {
            std::string m = "Hyperscan: " + std::string(err->message);
            hs_free_compile_error(err);
            throw std::runtime_error(m);
        }
        if (hs_alloc_scratch(db, &scratch) != HS_SUCCESS) throw std::runtime_error("Hyperscan: scratch");
    }
    static int on_count(unsigned, unsigned long long from, unsigned long long to, unsigned, void *p) {
        Ctx *c = (Ctx *)p;
        if (from >= c->last_end) {
            c->count++;
            c->last_end = to > from ? to : to + 1;
        }
        return 0;
    }
    static int on_line(unsigned, unsigned long long, unsigned long long, unsigned, void *p) {
        ((Ctx *)p)->count++;
        return 1;  // stop: one match is enough
    }
    long count(const Data &d) override {
        Ctx c{0, 0};
        hs_error_t rc = hs_scan(db, d.buf, d.len, 0, scratch, on_count, &c);
        if (rc != HS_SUCCESS) throw std::runtime_error("Hyperscan: scan error " + std::to_string(rc));
        return c.count;
    }
    long lines(const Data &d) override {
        Ctx c{0, 0};
        for (size_t i = 0; i < d.nlines; i++) {
            hs_error_t rc = hs_scan(db, d.starts[i], d.lens[i], 0, scratch, on_line, &c);
            if (rc != HS_SUCCESS && rc != HS_SCAN_TERMINATED)
                throw std::runtime_error("Hyperscan: scan error " + std::to_string(rc));
        }
        return c.count;
    }
};

// Boost.Regex and std::regex: regex_search from the end of the last match
// with one match_results reused (match_prev_avail: \b sees the byte before).
template <class Regex, class Match, class Flags>
struct Std : Engine {
    Regex re;
    Match m;
    Flags syntax;
    explicit Std(Flags f) : syntax(f) {}
    void compile(const std::string &pat, bool) override { re = Regex(pat, syntax); }
    long count(const Data &d) override {
        long c = 0;
        const char *p = d.buf, *end = d.buf + d.len;
        while (p <= end) {
            auto flags = p == d.buf ? decltype(std::regex_constants::match_default)() : std::regex_constants::match_prev_avail;
            if (!search(p, end, flags)) break;
            c++;
            const char *e = m[0].second;
            p = e > m[0].first ? e : e + 1;
        }
        return c;
    }
    bool search(const char *p, const char *end, std::regex_constants::match_flag_type f);
    long lines(const Data &d) override;
};

using StdRegex = Std<std::regex, std::cmatch, std::regex::flag_type>;
using BoostRegex = Std<boost::regex, boost::cmatch, boost::regex::flag_type>;

template <> bool StdRegex::search(const char *p, const char *end, std::regex_constants::match_flag_type f) {
    return std::regex_search(p, end, m, re, f);
}
template <> long StdRegex::lines(const Data &d) {
    long c = 0;
    for (size_t i = 0; i < d.nlines; i++) c += std::regex_match(d.starts[i], d.starts[i] + d.lens[i], re);
    return c;
}
template <> bool BoostRegex::search(const char *p, const char *end, std::regex_constants::match_flag_type f) {
    return boost::regex_search(p, end, m, re,
                               f == std::regex_constants::match_prev_avail ? boost::match_prev_avail : boost::match_default);
}
template <> long BoostRegex::lines(const Data &d) {
    long c = 0;
    for (size_t i = 0; i < d.nlines; i++) c += boost::regex_match(d.starts[i], d.starts[i] + d.lens[i], re);
    return c;
}

static Engine *engine;
static Data data;
static bool by_lines;

static long pass(void *) {
    try {
        return by_lines ? engine->lines(data) : engine->count(data);
    } catch (const std::exception &e) {
        snprintf(bench_error, sizeof bench_error, "%s", e.what());
        return -1;
    }
}

int main(int argc, char **argv) {
    if (argc != 6) die("usage: peers ENGINE KIND PATTERN_FILE DATA_FILE REPEATS");
    std::string name = argv[1], kind = argv[2];
    if (kind != "lines" && kind != "count") die("KIND: lines or count");
    by_lines = kind == "lines";
    if (name == "pcre2-jit") engine = new Pcre2(true);
    else if (name == "pcre2") engine = new Pcre2(false);
    else if (name == "re2") engine = new Re2();
    else if (name == "hyperscan") engine = new Hyperscan();
    else if (name == "boost") engine = new BoostRegex(boost::regex::perl);
    else if (name == "std") engine = new StdRegex(std::regex::ECMAScript | std::regex::optimize);
    else die("ENGINE: pcre2-jit pcre2 re2 hyperscan boost std");
    size_t plen;
    std::string pat = read_file(argv[3], &plen);
    data.buf = read_file(argv[4], &data.len);
    if (by_lines) data.nlines = split_lines(data.buf, data.len, &data.starts, &data.lens);
    // Compile time: the median of up to 5 compilations (within ~1 s).
    double times[5];
    int n = 0;
    double start = now_us();
    try {
        while (n < 5 && (n == 0 || now_us() - start < 1e6)) {
            double t = now_us();
            engine->compile(pat, by_lines);
            times[n++] = now_us() - t;
        }
    } catch (const std::exception &e) {
        die(e.what());
    }
    bench_report(pass, nullptr, atoi(argv[5]), median_us(times, n));
    return 0;
}
