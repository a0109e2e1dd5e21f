/* femtobench-ab: the plugins: checked, loaded (a file given twice from a copy), listed; the rows
 * (docs/ab.md; tools/ab/ab.h). */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET, sched_getcpu, strsignal */

#include "ab.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* ------------------------------------------------------------- plugins */

void fba_names_add(void *ctx, const char *name) {
    fba_names *s = ctx;
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        char **v = realloc(s->v, cap * sizeof *v);
        if (!v) {
            s->oom = true;
            return;
        }
        s->v = v;
        s->cap = cap;
    }
    char *c = fb__strdup(name);
    if (!c) {
        s->oom = true;
        return;
    }
    s->v[s->n++] = c;
}

long fba_names_find(const fba_names *s, const char *name) {
    for (size_t i = 0; i < s->n; ++i)
        if (strcmp(s->v[i], name) == 0) return (long)i;
    return -1;
}

void fba_names_free(fba_names *s) {
    for (size_t i = 0; i < s->n; ++i) free(s->v[i]);
    free(s->v);
    memset(s, 0, sizeof *s);
}

const char *const fba_side_name[2] = {"old", "new"};

/* An anonymous file in memory (memfd_create) named by /proc/self/fd: a
 * copy that dlopen loads as a file of its own without writing the disk
 * (14 copies of a 550 KB plugin cost 45 ms through the file system here,
 * on a 0.04 s suite). -1 where the kernel or /proc has none. */
static int fba_memfd(char *out, size_t len) {
#ifdef SYS_memfd_create
    int fd = (int)syscall(SYS_memfd_create, "femtobench-ab", 1u); /* MFD_CLOEXEC */
    if (fd < 0) return -1;
    snprintf(out, len, "/proc/self/fd/%d", fd);
    if (access(out, R_OK) != 0) { /* no /proc */
        close(fd);
        return -1;
    }
    return fd;
#else
    (void)out;
    (void)len;
    return -1;
#endif
}

/* Copies src to a new file: in memory (*mem_fd its descriptor, to close
 * once loaded), or else a temporary file (*mem_fd -1, to unlink); its name
 * into out. */
static int fba_copy(const char *src, char *out, size_t len, int *mem_fd, char *why, size_t wlen) {
    const char *tmp = fb__process_tmpdir() ? fb__process_tmpdir() : "/tmp";
    int to = *mem_fd = fba_memfd(out, len);
    if (to < 0) {
        snprintf(out, len, "%s/femtobench-ab.XXXXXX", tmp);
        to = mkstemp(out);
    }
    if (to < 0) {
        snprintf(why, wlen, "cannot copy it to %s (to load it twice): %s", tmp, strerror(errno));
        out[0] = '\0';
        return -1;
    }
    /* the file mapped and written whole: one copy in the kernel, from the
     * page cache (reading it through a buffer cost a third more) */
    int from = open(src, O_RDONLY);
    struct stat st;
    ssize_t n = from >= 0 && fstat(from, &st) == 0 && st.st_size > 0 ? 0 : -1;
    void *map = n == 0 ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, from, 0) : NULL;
    if (map == MAP_FAILED) n = -1;
    for (size_t done = 0; n == 0 && done < (size_t)st.st_size;) {
        ssize_t w = write(to, (const char *)map + done, (size_t)st.st_size - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0)
            n = -1;
        else
            done += (size_t)w;
    }
    int e = errno;
    if (map && map != MAP_FAILED) munmap(map, (size_t)st.st_size);
    if (from >= 0) close(from);
    if (*mem_fd >= 0) { /* kept open until loaded: its name lives as long */
        if (n >= 0) return 0;
        close(to);
        *mem_fd = -1;
    } else if (close(to) == 0 && n >= 0)
        return 0;
    snprintf(why, wlen, "cannot copy it to %.200s (to load it twice): %s", out, strerror(e));
    if (strncmp(out, "/proc/", 6) != 0) unlink(out);
    out[0] = '\0';
    return -1;
}

/* Checks and loads one plugin; 0, or 2 after the error line. Every file
 * and copy binds every symbol at load (RTLD_NOW): a missing one is refused
 * before anything runs, and a copy bound lazily ran a list walk in cJSON
 * +8.5% slower than the same code bound at load, in every layout of A/A
 * runs (docs/ab.md, "Two speeds per load"). */
static int fba_load(fba_side *s, const char *load_path) {
    char head[20];
    int fd = open(s->path, O_RDONLY);
    if (fd < 0) return fb__opts_error("%s: cannot open: %s", s->path, strerror(errno));
    ssize_t got = read(fd, head, sizeof head);
    close(fd);
    if (got < (ssize_t)sizeof head || memcmp(head, "\177ELF", 4) != 0)
        return fb__opts_error(
            "%s: not a shared object (no ELF header); build the suite as a plugin "
            "(docs/ab.md)",
            s->path);
    unsigned type = (unsigned char)head[16] | (unsigned)(unsigned char)head[17] << 8;
    if (head[5] == 2) type = (unsigned char)head[17] | (unsigned)(unsigned char)head[16] << 8;
    if (type != 3) /* ET_DYN */
        return fb__opts_error("%s: not a shared object (an ELF %s); build the suite as a plugin "
                              "(docs/ab.md)",
                              s->path,
                              type == 2   ? "executable"
                              : type == 1 ? "object file"
                                          : "file");
    dlerror();
    s->dl = dlopen(load_path, RTLD_NOW | RTLD_LOCAL);
    if (!s->dl) {
        const char *e = dlerror();
        /* dlerror starts with the path it was given (maybe the copy's): the
         * user knows the file by its own name, given once */
        size_t lp = strlen(load_path);
        const char *colon = e && strncmp(e, load_path, lp) == 0 && e[lp] == ':' ? e + lp + 1 : e;
        while (colon && *colon == ' ') ++colon;
        return fb__opts_error("%s: cannot load: %s", s->path, colon ? colon : "unknown reason");
    }
    const fb__plugin_api *(*entry)(void);
    void *sym = dlsym(s->dl, FB__PLUGIN_ENTRY);
    if (!sym)
        return fb__opts_error(
            "%s: not a femtobench plugin (no %s): link the suite with the femtobench "
            "library as docs/ab.md shows",
            s->path, FB__PLUGIN_ENTRY);
    memcpy(&entry, &sym, sizeof entry); /* dlsym's object pointer as a function pointer */
    s->api = entry();
    unsigned host_major = FB_VERSION_MAJOR, host_minor = FB_VERSION_MINOR, major = 0, minor = 0;
    if (!s->api || !s->api->version || sscanf(s->api->version, "%u.%u", &major, &minor) != 2 ||
        s->api->abi < FB__PLUGIN_ABI_OLDEST || s->api->abi > FB__PLUGIN_ABI ||
        major != host_major || minor != host_minor)
        return fb__opts_error(
            "%s: built with femtobench %s (plugin interface %u); this "
            "femtobench-ab is %s (plugin interfaces %u to %u): rebuild the plugin with it",
            s->path, s->api && s->api->version ? s->api->version : "?", s->api ? s->api->abi : 0u,
            FB_VERSION_STRING, FB__PLUGIN_ABI_OLDEST, FB__PLUGIN_ABI);
    /* a plugin that claims this interface but lacks a function of it
     * would crash at the first call */
    const char *missing = !s->api->identity ? "identity"
                          : !s->api->list   ? "list"
                          : !s->api->run    ? "run"
                                            : NULL;
    if (missing)
        return fb__opts_error("%s: its plugin interface (%u) lacks a function ('%s' is NULL): "
                              "rebuild the plugin with this femtobench",
                              s->path, s->api->abi, missing);
    char why[512];
    int rc = s->api->list(fba_names_add, &s->benches, why, sizeof why);
    if (rc != FB_OK) return fb__opts_error("%s: %s", s->path, why);
    if (s->benches.oom) return fb__opts_error("out of memory");
    /* the names the runner refuses (an older plugin's copy of the library
     * may not check them) */
    for (size_t i = 0; i < s->benches.n; ++i)
        if (fb__select_bad_name(s->benches.v[i]))
            return fb__opts_error("%s: benchmark name '%.40s...' %s", s->path, s->benches.v[i],
                                  fb__select_bad_name(s->benches.v[i]));
    return 0;
}

/* Loads every file of both sides (v[s * k + i]: side s, layout i). A
 * file given more than once (the A/A check: the same file twice) is loaded
 * from a temporary copy: dlopen would hand back the first, with its
 * globals. Then: each side's layouts list the same benchmarks, and no two
 * share a copy of the library. */
int fba_load_all(fba_side *v, size_t k) {
    size_t n = 2 * k;
    struct stat *st = calloc(n, sizeof *st);
    /* the in-memory copies stay open until every file is loaded: a closed
     * one's descriptor, and so its /proc name, would come back for the
     * next, and dlopen would hand back the object loaded under that name */
    int *mem_fd = malloc(n * sizeof *mem_fd);
    if (!st || !mem_fd) {
        free(st);
        free(mem_fd);
        return fb__opts_error("out of memory");
    }
    for (size_t i = 0; i < n; ++i) mem_fd[i] = -1;
    int rc = 0;
    for (size_t i = 0; i < n && !rc; ++i)
        if (stat(v[i].path, &st[i]) != 0)
            rc = fb__opts_error("%s: cannot open: %s", v[i].path, strerror(errno));
    for (size_t i = 0; i < n && !rc; ++i) {
        const char *load = v[i].path;
        for (size_t j = 0; j < i; ++j)
            if (st[i].st_dev == st[j].st_dev && st[i].st_ino == st[j].st_ino) {
                char why[512];
                if (fba_copy(v[i].path, v[i].copy, sizeof v[i].copy, &mem_fd[i], why, sizeof why) !=
                    0) {
                    rc = fb__opts_error("%s: %s", v[i].path, why);
                    break;
                }
                load = v[i].copy;
                break;
            }
        if (rc) break;
        /* dlopen needs a slash to take a path as a path, not a library name */
        char buf[4096];
        if (!strchr(load, '/')) {
            snprintf(buf, sizeof buf, "./%.4090s", load); /* a copy is under 4096 */
            load = buf;
        }
        rc = fba_load(&v[i], load);
        /* loaded (or not): not needed */
        if (mem_fd[i] < 0 && v[i].copy[0]) unlink(v[i].copy);
    }
    for (size_t i = 0; i < n; ++i)
        if (mem_fd[i] >= 0) close(mem_fd[i]);
    free(mem_fd);
    free(st);
    for (size_t i = 0; i < n && !rc; ++i) {
        const fba_side *first = &v[i < k ? 0 : k];
        bool same = v[i].benches.n == first->benches.n;
        for (size_t b = 0; same && b < first->benches.n; ++b)
            same = strcmp(v[i].benches.v[b], first->benches.v[b]) == 0;
        if (!same)
            rc = fb__opts_error("%s: lists other benchmarks than %s: the layouts of one side "
                                "must be builds of the same code (docs/ab.md)",
                                v[i].path, first->path);
        for (size_t j = 0; j < i && !rc; ++j)
            if (v[i].api->identity() == v[j].api->identity())
                rc = fb__opts_error("%s and %s share one copy of the femtobench library (linked "
                                    "with libfemtobench.so?): link each plugin with the static "
                                    "library (docs/ab.md)",
                                    v[j].path, v[i].path);
    }
    /* a name registered twice (Google Benchmark allows it; the runner runs
     * both): runs are paired by name, so only the first is compared; said,
     * once a name and side, never silently */
    for (int sd = 0; sd < 2 && !rc; ++sd) {
        const fba_names *b = &v[sd ? k : 0].benches;
        for (size_t i = 0; i < b->n; ++i) {
            size_t times = 1;
            bool first = true;
            for (size_t j = 0; j < b->n; ++j)
                if (j != i && strcmp(b->v[i], b->v[j]) == 0) {
                    ++times;
                    if (j < i) first = false;
                }
            if (times < 2 || !first) continue;
            if (sd && fba_names_find(&v[0].benches, b->v[i]) >= 0) {
                size_t old_times = 0; /* said for old already when old has as many */
                for (size_t j = 0; j < v[0].benches.n; ++j)
                    old_times += strcmp(v[0].benches.v[j], b->v[i]) == 0;
                if (old_times == times) continue;
            }
            char line[1400];
            snprintf(line, sizeof line,
                     "%s: '%.1024s' is registered %zu times: femtobench-ab pairs runs by name and "
                     "compares the first only (the runner runs each)",
                     v[sd ? k : 0].path, b->v[i], times);
            fputs("femtobench: note: ", stderr);
            fb__put_line(stderr, line);
            fputc('\n', stderr);
        }
    }
    return rc;
}

/* A run's name the runner refuses (src/runner/selection.c: empty, or over 1024
 * bytes): true, with the runner's line in why. */
bool fba_name_refused(const char *bench, const char *run, char *why, size_t len) {
    const char *bad = fb__select_bad_name(run);
    if (bad) snprintf(why, len, "%s: a run's name '%.40s' %s; nothing written", bench, run, bad);
    return bad != NULL;
}

/* ------------------------------------------------------------- the rows */

fba_row *fba_rows_add(fba_rows *rs, const char *name, double n, fba_kind kind) {
    if (rs->n == rs->cap) {
        size_t cap = rs->cap ? 2 * rs->cap : 16;
        fba_row **v = realloc(rs->v, cap * sizeof *v);
        if (!v) return NULL;
        rs->v = v;
        rs->cap = cap;
    }
    fba_row *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    snprintf(r->name, sizeof r->name, "%s", name);
    r->n = n;
    if (n > 0)
        snprintf(r->label, sizeof r->label, "%.1024s N=%.15g", name, n);
    else
        snprintf(r->label, sizeof r->label, "%s", name);
    r->kind = kind;
    r->t_old = r->t_new = r->ins_old = r->ins_new = NAN;
    r->cpu_old = r->cpu_new = NAN;
    r->ins_old_lo = r->ins_old_hi = r->ins_new_lo = r->ins_new_hi = NAN;
    for (size_t l = 0; l < FBA_MAX_LAYOUTS; ++l) r->lay_old[l] = r->lay_new[l] = NAN;
    r->batch[0] = r->batch[1] = 1;
    rs->v[rs->n++] = r;
    return r;
}

void fba_rows_free(fba_rows *rs) {
    for (size_t i = 0; i < rs->n; ++i) free(rs->v[i]);
    free(rs->v);
    memset(rs, 0, sizeof *rs);
}
