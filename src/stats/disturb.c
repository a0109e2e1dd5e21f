/* Disturbed epochs: the default source (the thread's involuntary context
 * switches) and the rule that picks the epochs the statistics use. */
#include "disturb.h"

#if FB_HAVE_LINUX
#include <sys/resource.h>
/* Linux's value; <sys/resource.h> names it only under _GNU_SOURCE. */
#ifndef RUSAGE_THREAD
#define RUSAGE_THREAD 1
#endif
#endif

uint64_t fb__disturb_thread(void *ctx) {
    uint64_t *voluntary = ctx;
    if (voluntary) *voluntary = FB__DISTURB_UNKNOWN;
#if FB_HAVE_LINUX
    struct rusage u;
    if (getrusage(RUSAGE_THREAD, &u) == 0 && u.ru_nivcsw >= 0) {
        if (voluntary && u.ru_nvcsw >= 0) *voluntary = (uint64_t)u.ru_nvcsw;
        return (uint64_t)u.ru_nivcsw;
    }
#endif
    return FB__DISTURB_UNKNOWN;
}

bool fb__disturb_off_cpu(double wall_s, double cpu_s) {
    double margin = FB__OFF_CPU_FRAC * wall_s;
    if (margin < FB__OFF_CPU_MIN_S) margin = FB__OFF_CPU_MIN_S;
    return wall_s - cpu_s > margin;
}

/* Drops the epochs that have `bit` when enough others remain. */
static size_t fb__disturb_drop_if(unsigned char *flags, size_t epochs, size_t kept, unsigned bit) {
    size_t with = 0;
    for (size_t i = 0; i < epochs; ++i)
        if (!(flags[i] & FB__EPOCH_DROPPED) && (flags[i] & bit)) ++with;
    if (with == 0 || kept - with < FB__DISTURB_MIN_KEPT) return kept;
    for (size_t i = 0; i < epochs; ++i)
        if (flags[i] & bit) flags[i] |= FB__EPOCH_DROPPED;
    return kept - with;
}

size_t fb__disturb_select(unsigned char *flags, size_t epochs) {
    size_t kept = 0;
    for (size_t i = 0; i < epochs; ++i) {
        flags[i] &= (unsigned char)~FB__EPOCH_DROPPED;
        ++kept;
    }
    kept = fb__disturb_drop_if(flags, epochs, kept, FB__EPOCH_SUPERSEDED);
    return fb__disturb_drop_if(flags, epochs, kept, FB__EPOCH_DISTURBED);
}
