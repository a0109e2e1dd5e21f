/* Nothing silently dropped: a run that cannot get its memory.
 * A child process lowers its address-space limit so that the arrays of a
 * million-epoch run cannot be allocated; the run must be refused with a
 * diagnostic and counted in b->dropped (the runner turns that into an error
 * row and exit status 1), never crash or vanish. Skipped under
 * AddressSanitizer, whose allocator does not honour RLIMIT_AS quietly. */
#include "check.h"
#include "fake_clock.h"
#include "internal.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define FB_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FB_TEST_ASAN 1
#endif
#endif

#ifdef FB_TEST_ASAN
int main(void) {
    (void)check_failures_;
    CHECK_SKIP("AddressSanitizer: RLIMIT_AS makes its allocator abort");
}
#else
static unsigned long long vm_bytes(void) {
    unsigned long long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) return 0;
    if (fscanf(f, "%llu", &pages) != 1) pages = 0;
    fclose(f);
    return pages * (unsigned long long)sysconf(_SC_PAGESIZE);
}

/* In the child: 0 when the run was refused and counted, else a code. */
static int child(void) {
    fake_clock c = {0, 100, 0, 0};
    fb_bench *b = fake_bench(&c);
    char *diag = NULL;
    size_t len = 0;
    FILE *d = open_memstream(&diag, &len);
    fb_set_diagnostics(b, d);
    fb_set_epochs(b, 1000000); /* 8 MB per array */
    fb_set_epoch_iterations(b, 1);
    (void)fb__process_clock(); /* facts the run needs, before the limit */
    fb__process_first_run(NULL, -1);
    unsigned long long vm = vm_bytes();
    if (!vm) return 77;
    struct rlimit rl = {(rlim_t)(vm + (2u << 20)), (rlim_t)(vm + (2u << 20))};
    if (setrlimit(RLIMIT_AS, &rl) != 0) return 77;
    const fb_result *r = fb_run(b, "too big", fake_clock_op, &c);
    fflush(d);
    if (r) return 1;                                                          /* it ran after all */
    if (b->dropped != 1) return 2;                                            /* not counted */
    if (!diag || !strstr(diag, "'too big' not run: out of memory")) return 3; /* not said */
    return 0;
}

int main(void) {
    const char *emu = check_emulator();
    if (emu && strstr(emu, "qemu"))
        CHECK_SKIP("under qemu-user RLIMIT_AS does not bind the guest's allocations (the "
                   "emulator reserves the guest's address space itself): the refusal cannot "
                   "be provoked there; the native builds check it");
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) CHECK_SKIP("fork failed");
    if (pid == 0) _exit(child());
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 77) CHECK_SKIP("cannot limit memory here");
    CHECK(WIFEXITED(status));
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    if (WIFEXITED(status) && WEXITSTATUS(status))
        fprintf(stderr, "child: %d\n", WEXITSTATUS(status));
    return CHECK_DONE();
}
#endif
