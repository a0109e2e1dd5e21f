/* What every source file of femtobench shares: the platform decisions, the
 * public API, the private-linkage marker and the measure mask. */
#ifndef FB_BASE_H
#define FB_BASE_H

#include "config.h"
#include "femtobench.h"

/* FB__PRIVATE marks every internal (fb__) function declaration. In the
 * single header (FEMTOBENCH_IMPLEMENTATION: all of femtobench in the user's
 * one translation unit) internals become static, so none clashes with a
 * symbol of the user's program (SQLite's SQLITE_PRIVATE); elsewhere they are
 * hidden from a shared library's dynamic symbol table. */
#if defined(FEMTOBENCH_IMPLEMENTATION)
#if defined(__GNUC__) || defined(__clang__)
#define FB__PRIVATE static __attribute__((unused))
#else
#define FB__PRIVATE static
#endif
#elif (defined(__GNUC__) || defined(__clang__)) && !FB_HAVE_WINDOWS
#define FB__PRIVATE __attribute__((visibility("hidden")))
#else
#define FB__PRIVATE
#endif

/* Bit mask of measures (1u << fb_measure). */
typedef unsigned fb__mask;
#define FB__BIT(m) (1u << (unsigned)(m))

#endif
