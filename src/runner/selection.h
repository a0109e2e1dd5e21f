/* The runner's first step (src/runner/selection.c): the command line read and
 * checked, the registry expanded and filtered, the outputs checked as one
 * set and pinned, the baseline loaded; all before anything runs. */
#ifndef FB_SELECTION_H
#define FB_SELECTION_H

#include "base.h"
#include "options.h"
#include "outfile.h"
#include "registry.h"

/* Reads argv into *o and selects the benchmarks to run (*sel, a
 * NULL-terminated list the caller frees with fb__instances_free, also when
 * the return is not 0). 0: run them; -1: done (-help, -version); else the
 * exit status of bad input, its one line already said. */
FB__PRIVATE int fb__select(int argc, char **argv, fb__opts *o, fb__instance ***sel);
/* Names that dashboards refuse: NULL when fine, else what is wrong. */
FB__PRIVATE const char *fb__select_bad_name(const char *name);

#endif
