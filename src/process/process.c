/* The process state: the one owner of process-wide facts (see process.h for
 * the list). One static object (its fields: src/process/process_state.h);
 * every field is written once, under its lock, and only read afterwards
 * (fb__process_reload, for tests, is the exception). The registry is
 * written by constructors before main, when there is one thread. Here: the
 * environment and what is read from it, the registry, the epoch hook; the
 * machine's part (clock, checks, facts, counters) is
 * src/process/process_machine.c's. */
#include "process.h"
#include "process_state.h"

#include "os.h" /* a FILE over a buffer: fmemopen, or a temporary file on Windows */
#include "text.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if FB_HAVE_VALGRIND
#include <valgrind/callgrind.h>
#endif

extern char **environ; /* POSIX: the process's environment (fb__process_child_env) */

static struct fb__process fb__proc = {.lock = PTHREAD_MUTEX_INITIALIZER,
                                      .vg_lock = PTHREAD_MUTEX_INITIALIZER};

void fb__process_callgrind_expand(const char *pattern, long pid, char *out, size_t len) {
    size_t o = 0;
    if (!len) return;
    for (const char *p = pattern; *p && o + 1 < len; ++p) {
        char buf[64] = "";
        const char *add = buf;
        if (p[0] == '%' && p[1] == 'p') {
            snprintf(buf, sizeof buf, "%ld", pid);
            ++p;
        } else if (p[0] == '%' && p[1] == '%') {
            buf[0] = '%';
            ++p;
        } else if (p[0] == '%' && p[1] == 'q' && p[2] == '{' && strchr(p + 3, '}')) {
            const char *close = strchr(p + 3, '}');
            char name[128];
            snprintf(name, sizeof name, "%.*s", (int)(close - (p + 3)), p + 3);
            add = getenv(name) ? getenv(name) : "";
            p = close;
        } else {
            buf[0] = *p;
        }
        for (; *add && o + 1 < len; ++add) out[o++] = *add;
    }
    out[o] = '\0';
}

/* RUNNING_ON_VALGRIND, FEMTOBENCH_VALGRIND and the dump files' name. */
static void fb__process_read_callgrind_locked(void) {
    fb__callgrind *vg = &fb__proc.vg;
    memset(vg, 0, sizeof *vg);
#if FB_HAVE_VALGRIND
    vg->on = RUNNING_ON_VALGRIND != 0;
#endif
    const char *e = getenv("FEMTOBENCH_VALGRIND");
    vg->exact = vg->on && e && *e && strcmp(e, "0") != 0;
    if (!vg->on) return;
    const char *pattern = getenv("FEMTOBENCH_CALLGRIND_OUT");
    char name[2048];
    fb__process_callgrind_expand(pattern && *pattern ? pattern : "callgrind.out.%p", (long)getpid(),
                                 name, sizeof name);
    char cwd[1024] = ".";
    /* Valgrind resolves a relative name against the starting directory */
    if (name[0] != '/' && !getcwd(cwd, sizeof cwd)) snprintf(cwd, sizeof cwd, ".");
    if (name[0] == '/')
        snprintf(vg->base, sizeof vg->base, "%s", name);
    else
        snprintf(vg->base, sizeof vg->base, "%s/%s", cwd, name);
}

static void fb__process_read_env_locked(void) {
    const char *v = getenv("FEMTOBENCH_SUPPRESS_WARNINGS");
    fb__proc.suppress = v && *v && strcmp(v, "0") != 0;
    free(fb__proc.endless);
    v = getenv("FEMTOBENCH_ENDLESS");
    fb__proc.endless = v && *v ? fb__strdup(v) : NULL;
    memset(&fb__proc.config, 0, sizeof fb__proc.config);
    fb__proc.config_errors[0] = '\0';
    fb__proc.config_bad = 0;
    fb__proc.config_reported = false;
    v = getenv("FEMTOBENCH_CONFIG");
    if (v && *v) {
        FILE *mem = fb__os_memfile_open(fb__proc.config_errors, sizeof fb__proc.config_errors);
        fb__proc.config_bad = fb__config_parse(v, &fb__proc.config, mem);
        if (mem) fb__os_memfile_close(mem, fb__proc.config_errors, sizeof fb__proc.config_errors);
    }
    fb__process_read_callgrind_locked();
    fb__proc.pass_fd = -1;
    v = getenv("FEMTOBENCH_PASS");
    if (v && *v) {
        unsigned p = 0, n = 0;
        int fd = -1, used = 0;
        if (sscanf(v, "%u/%u:%d%n", &p, &n, &fd, &used) == 3 && v[used] == '\0' && p < n &&
            n <= 1000 && fd > 2) {
            fb__proc.pass = p;
            fb__proc.passes = n;
            fb__proc.pass_fd = fd;
        }
    }
    free(fb__proc.path);
    v = getenv("PATH");
    fb__proc.path = v && *v ? fb__strdup(v) : NULL;
    free(fb__proc.tmpdir);
    v = getenv("TMPDIR");
    fb__proc.tmpdir = v && *v ? fb__strdup(v) : NULL;
    fb__proc.env_read = true;
}

/* The environment is read at the first use of any fact. */
struct fb__process *fb__process_lock(void) {
    pthread_mutex_lock(&fb__proc.lock);
    if (!fb__proc.env_read) fb__process_read_env_locked();
    return &fb__proc;
}

void fb__process_unlock(void) { pthread_mutex_unlock(&fb__proc.lock); }

bool fb__process_suppressed(void) {
    fb__process_lock();
    bool s = fb__proc.suppress || fb__proc.quiet;
    fb__process_unlock();
    return s;
}

void fb__process_set_quiet(bool quiet) {
    fb__process_lock();
    fb__proc.quiet = quiet;
    fb__process_unlock();
}

const char *fb__process_endless(void) {
    fb__process_lock();
    const char *e = fb__proc.endless;
    fb__process_unlock();
    return e;
}

const fb__layer *fb__process_config_layer(void) {
    fb__process_lock();
    fb__process_unlock();
    return &fb__proc.config;
}

int fb__process_config_errors(void) {
    fb__process_lock();
    int n = fb__proc.config_bad;
    fb__process_unlock();
    return n;
}

void fb__process_config_report(FILE *f) {
    fb__process_lock();
    if (f) fputs(fb__proc.config_errors, f);
    fb__process_unlock();
}

const fb__callgrind *fb__process_callgrind(void) {
    fb__process_lock();
    fb__process_unlock();
    return &fb__proc.vg;
}

unsigned fb__process_callgrind_dump(uint64_t n, const char *name, char *tag, size_t len) {
    pthread_mutex_lock(&fb__proc.vg_lock);
    unsigned k = ++fb__proc.vg_dumps;
    snprintf(tag, len, "femtobench:%u:%llu:%s", k, (unsigned long long)n, name);
#if FB_HAVE_VALGRIND
    CALLGRIND_DUMP_STATS_AT(tag);
#endif
    pthread_mutex_unlock(&fb__proc.vg_lock);
    return k;
}

const char *fb__process_path(void) {
    fb__process_lock();
    const char *p = fb__proc.path;
    fb__process_unlock();
    return p;
}

const char *fb__process_tmpdir(void) {
    fb__process_lock();
    const char *t = fb__proc.tmpdir;
    fb__process_unlock();
    return t;
}

int fb__process_pass_child(unsigned *pass, unsigned *passes) {
    fb__process_lock();
    int fd = fb__proc.pass_fd;
    *pass = fb__proc.pass;
    *passes = fb__proc.passes;
    fb__process_unlock();
    return fd;
}

char **fb__process_child_env(const char *const *set, size_t n) {
    size_t have = 0;
    while (environ && environ[have]) ++have;
    char **env = calloc(have + n + 1, sizeof *env);
    if (!env) return NULL;
    size_t k = 0;
    for (size_t i = 0; i < have; ++i) {
        bool replaced = false;
        for (size_t j = 0; j < n && !replaced; ++j) {
            size_t name_len = strcspn(set[j], "=");
            replaced = strncmp(environ[i], set[j], name_len) == 0 && environ[i][name_len] == '=';
        }
        if (!replaced) env[k++] = environ[i];
    }
    for (size_t j = 0; j < n; ++j) env[k++] = fb__str_unconst(set[j]);
    env[k] = NULL;
    return env;
}

void fb__process_forked(void) {
    /* -isolate's child (src/runner/isolate.c): the counters inherited from the
     * parent count the parent's thread; close this copy and open new ones at
     * the first run. Notes and warnings the parent printed stay printed. */
    pthread_mutex_lock(&fb__proc.lock);
    if (fb__proc.perf) fb__perf_close(fb__proc.perf);
    fb__proc.perf = NULL;
    fb__proc.perf_tried = false;
    /* the parent checks the build from the child's records (one line,
     * not one per child) */
    fb__proc.build_checked = true;
    pthread_mutex_unlock(&fb__proc.lock);
}

void fb__register(fb__registration *reg) {
    /* constructors run before main, one at a time: no lock needed (nor
     * possible: the lock may not be usable before the process starts) */
    reg->next = fb__proc.registry;
    fb__proc.registry = reg;
}

int fb__process_register_later(void (*fn)(void)) {
    /* before main, or from main's thread before the registry is read, as
     * fb__register */
    for (size_t i = 0; i < fb__proc.n_later; ++i)
        if (fb__proc.later[i] == fn) return FB_OK;
    if (fb__proc.n_later == FB__PROCESS_LATER_MAX) return FB_ENOMEM;
    fb__proc.later[fb__proc.n_later++] = fn;
    return FB_OK;
}

fb__registration *fb__process_registry(void) {
    /* the registrations made late, once, before the first read (a suite
     * built as a plugin never runs its main, which a port registers from) */
    while (fb__proc.later_done < fb__proc.n_later) fb__proc.later[fb__proc.later_done++]();
    return fb__proc.registry;
}

void fb__process_set_epoch_hook(const fb__epoch_hook *hook) {
    pthread_mutex_lock(&fb__proc.lock);
    fb__proc.epoch_hook = hook;
    pthread_mutex_unlock(&fb__proc.lock);
}

const fb__epoch_hook *fb__process_epoch_hook(void) {
    pthread_mutex_lock(&fb__proc.lock);
    const fb__epoch_hook *hook = fb__proc.epoch_hook;
    pthread_mutex_unlock(&fb__proc.lock);
    return hook;
}

void fb__process_reload(void) {
    pthread_mutex_lock(&fb__proc.lock);
    fb__process_read_env_locked();
    fb__proc.first_run_done = false;
    fb__proc.env_checked = false;
    fb__proc.env_printed = false;
    fb__proc.sys_done = false;
    fb__proc.moment_done = false;
    fb__proc.perf_noted = false;
    pthread_mutex_unlock(&fb__proc.lock);
}
