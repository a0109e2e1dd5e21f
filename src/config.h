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
