/* The only place that looks at the platform: everything else tests FB_HAVE_*. */
#ifndef FB_CONFIG_H
#define FB_CONFIG_H

#if defined(__linux__)
#define FB_HAVE_LINUX 1
#else
#define FB_HAVE_LINUX 0
#endif

/* perf_event_open counters (src/perf_linux.c, else src/perf_none.c). */
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

/* Callgrind client requests (src/valgrind.c, docs/valgrind.md): on when
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

#if defined(__GNUC__) || defined(__clang__)
#define FB__NOINLINE __attribute__((noinline))
#define FB__PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define FB__NOINLINE
#define FB__PRINTF(a, b)
#endif

#endif
