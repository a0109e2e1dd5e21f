/* The only place that looks at the platform: everything else tests FB_HAVE_*. */
#ifndef FB_CONFIG_H
#define FB_CONFIG_H

#if defined(__linux__)
#define FB_HAVE_LINUX 1
#else
#define FB_HAVE_LINUX 0
#endif

/* Windows (mingw-w64; docs/platforms.md): the Win32 platform files
 * (clock, machine facts, files), no fork, no POSIX regex, no signals to
 * block. */
#if defined(_WIN32)
#define FB_HAVE_WINDOWS 1
#else
#define FB_HAVE_WINDOWS 0
#endif

/* macOS: not built here, kept ready (docs/platforms.md lists what its port
 * needs). It is POSIX: everything below but /proc, /sys and perf. */
#if defined(__APPLE__)
#define FB_HAVE_MACOS 1
#else
#define FB_HAVE_MACOS 0
#endif

/* The OS and the architecture a program was built for, as every output
 * file records them (a comparison across them compares machines, not
 * code): compile-time facts, so a cross-built program says where it runs. */
#if FB_HAVE_WINDOWS
#define FB_OS_NAME "windows"
#elif FB_HAVE_LINUX
#define FB_OS_NAME "linux"
#elif FB_HAVE_MACOS
#define FB_OS_NAME "macos"
#elif defined(__FreeBSD__)
#define FB_OS_NAME "freebsd"
#else
#define FB_OS_NAME "unknown"
#endif
#if defined(__x86_64__) || defined(_M_X64)
#define FB_ARCH_NAME "x86_64"
#elif defined(__aarch64__) || defined(_M_ARM64)
#define FB_ARCH_NAME "aarch64"
#elif defined(__i386__) || defined(_M_IX86)
#define FB_ARCH_NAME "i386"
#elif defined(__arm__) || defined(_M_ARM)
#define FB_ARCH_NAME "arm"
#elif defined(__riscv) && defined(__LP64__)
#define FB_ARCH_NAME "riscv64"
#elif defined(__powerpc64__)
#define FB_ARCH_NAME "ppc64"
#elif defined(__s390x__)
#define FB_ARCH_NAME "s390x"
#else
#define FB_ARCH_NAME "unknown"
#endif

/* POSIX processes and files: fork, pipe, poll, waitpid, sigaction and
 * signal masks, getrusage, lstat/readlink, fsync (-isolate, -valgrind, the
 * -filter child, the output files' signal window). */
#define FB_HAVE_POSIX (!FB_HAVE_WINDOWS)
/* POSIX threads: groups of threads (fb_run_threads, FB_BENCHMARK_THREADS;
 * src/run/group.c). Without them a group of more than one thread is refused
 * with FB_ENOTSUP. */
#define FB_HAVE_THREADS FB_HAVE_POSIX
/* <regex.h>: -filter's extended regular expressions; without it a small
 * matcher of its own (src/runner/filter_basic.c). */
#define FB_HAVE_POSIX_REGEX FB_HAVE_POSIX
/* fmemopen: a FILE over a caller's buffer; without it a temporary file. */
#define FB_HAVE_FMEMOPEN FB_HAVE_POSIX

/* The default clock (src/machine/clock.c; docs/platforms.md, "Clocks"):
 *   Windows: QueryPerformanceCounter, or rdtsc where the TSC is invariant
 *            (FB_HAVE_RDTSC: x86-64 with GCC/Clang);
 *   elsewhere: clock_gettime(CLOCK_MONOTONIC) (on Linux aarch64 too: the
 *            vDSO reads cntvct_el0 itself and was measured no slower than
 *            reading it by hand, docs/platforms.md). */
#if FB_HAVE_WINDOWS && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define FB_HAVE_RDTSC 1
#else
#define FB_HAVE_RDTSC 0
#endif

/* perf_event_open counters (src/machine/perf_linux.c, else src/machine/perf_none.c). */
/* Linux without the kernel's headers (musl-gcc, some cross toolchains): the
 * stub, with a note saying why (FB__NO_PERF_HEADER). */
#if FB_HAVE_LINUX && !defined(FB_DISABLE_PERF_COUNTERS) && defined(__has_include)
#if !__has_include(<linux/perf_event.h>)
#define FB__NO_PERF_HEADER 1
#endif
#endif
#if FB_HAVE_LINUX && !defined(FB_DISABLE_PERF_COUNTERS) && !defined(FB__NO_PERF_HEADER)
#define FB_HAVE_PERF_EVENTS 1
#else
#define FB_HAVE_PERF_EVENTS 0
#endif

/* Callgrind client requests (src/run/valgrind.c, docs/valgrind.md): on when
 * <valgrind/callgrind.h> (Debian/Ubuntu: package valgrind; Fedora:
 * valgrind-devel) was there at build time. The CMake build decides with
 * check_include_file and passes FB_HAVE_CALLGRIND_H=0/1; other builds (the
 * single header) ask the compiler. FB_DISABLE_VALGRIND turns it off. */
#if defined(FB_DISABLE_VALGRIND)
#define FB_HAVE_VALGRIND 0
#elif defined(FB_HAVE_CALLGRIND_H)
#define FB_HAVE_VALGRIND FB_HAVE_CALLGRIND_H
#elif defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#define FB_HAVE_VALGRIND 1
#else
#define FB_HAVE_VALGRIND 0
#endif
#else
#define FB_HAVE_VALGRIND 0
#endif
#if FB_HAVE_VALGRIND && !defined(__VALGRIND_H)
/* <valgrind/valgrind.h> defines two static functions; in the single header
 * they would be unprefixed names in the user's translation unit. Renamed, a
 * later VALGRIND_PRINTF in that file still works (it calls the renamed one). */
#define VALGRIND_PRINTF fb__valgrind_printf
#define VALGRIND_PRINTF_BACKTRACE fb__valgrind_printf_backtrace
#endif

/* /sys and /proc checks for the environment warnings. */
#define FB_HAVE_SYSFS FB_HAVE_LINUX

/* The core probe's kernels (src/machine/probe.c): x86-64 assembly with GCC/Clang.
 * Off elsewhere (aarch64 among them: its multiply latency differs between
 * cores, and the chain kernel needs a known one; docs/platforms.md). */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define FB_HAVE_PROBE 1
#else
#define FB_HAVE_PROBE 0
#endif

#if (defined(__GNUC__) || defined(__clang__)) && defined(__MINGW32__)
/* mingw-w64: C99 printf (%zu, %lld) from its own stdio, which the build
 * selects with __USE_MINGW_ANSI_STDIO=1; gnu_printf checks that dialect. */
#define FB__NOINLINE __attribute__((noinline))
#define FB__PRINTF(a, b) __attribute__((format(gnu_printf, a, b)))
#elif defined(__GNUC__) || defined(__clang__)
#define FB__NOINLINE __attribute__((noinline))
#define FB__PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define FB__NOINLINE
#define FB__PRINTF(a, b)
#endif

#endif
