/* One result as -isolate's result record (src/runner/isolate_record.c has
 * the other records and reads them off the pipe; src/runner/isolate_wire.c
 * the bytes), and back.
 *
 * The record: 'R', a u32 payload length, then the payload: name and error
 * (u32 length + bytes; 0xffffffff = NULL error), the config (title, unit,
 * batch, time unit and label, relative, complexity N, counters, min_time,
 * every numeric key), callsite, clock resolution and overhead, the empty
 * loop's cost per iteration (f64 each), epochs (u64),
 * the measure mask (u32), iterations per epoch (u64 each) and one double per
 * epoch for each measure in the mask; then the pass (u32),
 * epochs asked (u64), a flag byte (1 explicit epochs, 2 disturbance known,
 * 4 slow core), stopped_by, rounds, remeasured (u32 each), the two probe
 * values (f64) and, without an error, one FB__EPOCH_* byte per epoch; then
 * the user counters: a u32 count, and per counter its name, value (f64) and
 * flags (u32); then a family's arguments: u32 0 without, else 1 + their
 * count, and each (u64); then a port's family (fb_register_ordered: its
 * name, a string, and its id and model, u32 each); then the Callgrind counts (a byte, 1 with them,
 * then struct fb__vg_result as it is); then the label (fb_set_label; a string, the NULL marker
 * without one). */
#include "isolate_record.h"

#include "disturb.h"  /* FB__EPOCH_* */
#include "group.h"    /* a group's size and medians */
#include "ucounter.h" /* user counters travel with the result */
#include "valgrind.h"

#include <stdlib.h>
#include <string.h>

int fb__isolate_encode(const fb_result *r, unsigned char **buf, size_t *len, size_t *cap) {
    fb__iso_buf b = {*buf, *len, *cap, false};
    size_t start = b.len;
    fb__iso_put(&b, "R", 1);
    fb__iso_put_u32(&b, 0); /* payload length, filled below */
    fb__iso_put_str(&b, r->name);
    fb__iso_put_str(&b, r->error);
    const fb__config *c = &r->config;
    fb__iso_put_str(&b, c->title);
    fb__iso_put_str(&b, c->unit);
    fb__iso_put_f64(&b, c->batch);
    fb__iso_put_f64(&b, c->time_unit_s);
    fb__iso_put(&b, c->time_unit_label, sizeof c->time_unit_label);
    unsigned char flags = (unsigned char)((c->relative ? 1 : 0) | (c->counters ? 2 : 0));
    fb__iso_put(&b, &flags, 1);
    fb__iso_put_f64(&b, c->complexity_n);
    for (int k = 0; k < FB__K_COUNT; ++k) fb__iso_put_f64(&b, c->num[k]);
    fb__iso_put_u32(&b, (uint32_t)r->callsite);
    fb__iso_put_f64(&b, r->clock_resolution_s);
    fb__iso_put_f64(&b, r->clock_overhead_s);
    fb__iso_put_f64(&b, r->empty_loop_s);
    fb__iso_put_u64(&b, r->error ? 0 : (uint64_t)r->epochs);
    fb__iso_put_u32(&b, r->error ? 0 : r->has);
    if (!r->error) {
        for (size_t i = 0; i < r->epochs; ++i) fb__iso_put_u64(&b, r->iterations[i]);
        for (int m = 0; m < FB_MEASURE_COUNT; ++m)
            if (r->has & FB__BIT(m))
                for (size_t i = 0; i < r->epochs; ++i) fb__iso_put_f64(&b, r->values[m][i]);
    }
    /* the pass, why the run stopped, the probe, disturbed epochs */
    fb__iso_put_u32(&b, c->pass);
    fb__iso_put_u64(&b, (uint64_t)r->epochs_asked);
    unsigned char f19 = (unsigned char)((r->epochs_explicit ? 1 : 0) | (r->disturb_known ? 2 : 0) |
                                        (r->slow_core ? 4 : 0));
    fb__iso_put(&b, &f19, 1);
    fb__iso_put_u32(&b, (uint32_t)r->stopped_by);
    fb__iso_put_u32(&b, r->rounds);
    fb__iso_put_u32(&b, r->remeasured);
    fb__iso_put_f64(&b, r->probe[0]);
    fb__iso_put_f64(&b, r->probe[1]);
    if (!r->error)
        for (size_t i = 0; i < r->epochs; ++i) {
            unsigned char e = r->epoch_flags ? r->epoch_flags[i] : 0;
            fb__iso_put(&b, &e, 1);
        }
    /* user counters (src/handle/ucounter.h): a count, then name, value, flags */
    size_t n_uc = r->ucounters ? r->ucounters->n : 0;
    fb__iso_put_u32(&b, (uint32_t)n_uc);
    for (size_t i = 0; i < n_uc; ++i) {
        fb__iso_put_str(&b, r->ucounters->c[i].name);
        fb__iso_put_f64(&b, r->ucounters->c[i].value);
        fb__iso_put_u32(&b, r->ucounters->c[i].flags);
    }
    /* a family's arguments (FB_MAX_ARGS at most) */
    fb__iso_put_u32(&b, c->has_arg ? (uint32_t)c->n_args + 1u : 0u);
    for (size_t i = 0; c->has_arg && i < c->n_args; ++i) fb__iso_put_u64(&b, (uint64_t)c->args[i]);
    /* a port's family (fb_register_ordered): its name, id and model */
    fb__iso_put_str(&b, c->family);
    fb__iso_put_u32(&b, c->family_id);
    fb__iso_put_u32(&b, (uint32_t)c->family_model);
    /* a group of threads (src/run/group.h): its size, then each thread's median
     * when there are medians */
    fb__iso_put_u32(&b, (uint32_t)r->threads);
    unsigned char has_tm = r->thread_median_s ? 1 : 0;
    fb__iso_put(&b, &has_tm, 1);
    for (size_t i = 0; has_tm && i < r->threads; ++i) fb__iso_put_f64(&b, r->thread_median_s[i]);
    /* the counts under Callgrind */
    unsigned char has_vg = r->vg ? 1 : 0;
    fb__iso_put(&b, &has_vg, 1);
    if (r->vg) fb__iso_put(&b, r->vg, sizeof *r->vg);
    fb__iso_put_str(&b, r->label);
    *buf = b.p;
    *cap = b.cap;
    if (b.oom) return FB_ENOMEM;
    uint32_t payload = (uint32_t)(b.len - start - 5);
    memcpy(b.p + start + 1, &payload, sizeof payload);
    *len = b.len;
    return FB_OK;
}

size_t fb__isolate_decode(const unsigned char *buf, size_t len, fb_result **out) {
    *out = NULL;
    uint32_t payload;
    fb__iso_rd rd;
    if (!fb__iso_frame(buf, len, 'R', &payload, &rd)) return 0;
    fb_result *r = calloc(1, sizeof *r);
    if (!r) return 0;
    bool null_name, null_error, null_title, null_unit;
    r->name = fb__iso_get_str(&rd, &null_name);
    r->error = fb__iso_get_str(&rd, &null_error);
    r->config.title = fb__iso_get_str(&rd, &null_title);
    r->config.unit = fb__iso_get_str(&rd, &null_unit);
    r->config.batch = fb__iso_get_f64(&rd);
    r->config.time_unit_s = fb__iso_get_f64(&rd);
    fb__iso_get(&rd, r->config.time_unit_label, sizeof r->config.time_unit_label);
    if (r->config.time_unit_label[sizeof r->config.time_unit_label - 1] != '\0') rd.bad = true;
    unsigned char flags = 0;
    fb__iso_get(&rd, &flags, 1);
    if (flags > 3) rd.bad = true;
    r->config.relative = flags & 1;
    r->config.counters = (flags & 2) != 0;
    r->config.complexity_n = fb__iso_get_f64(&rd);
    for (int k = 0; k < FB__K_COUNT; ++k) r->config.num[k] = fb__iso_get_f64(&rd);
    r->callsite = (int)fb__iso_get_u32(&rd);
    r->clock_resolution_s = fb__iso_get_f64(&rd);
    r->clock_overhead_s = fb__iso_get_f64(&rd);
    r->empty_loop_s = fb__iso_get_f64(&rd);
    uint64_t epochs = fb__iso_get_u64(&rd);
    r->has = fb__iso_get_u32(&rd);
    if (null_name || null_title || null_unit || (!r->error && !null_error) ||
        (r->error && (epochs || r->has)) || (r->has & ~((1u << FB_MEASURE_COUNT) - 1)) ||
        epochs > (uint64_t)(rd.end - rd.p) / sizeof(uint64_t))
        rd.bad = true;
    if (!rd.bad && !r->error) {
        r->epochs = (size_t)epochs;
        r->iterations = malloc((r->epochs ? r->epochs : 1) * sizeof *r->iterations);
        if (!r->iterations) rd.bad = true;
        for (size_t i = 0; i < r->epochs && !rd.bad; ++i) r->iterations[i] = fb__iso_get_u64(&rd);
        for (int m = 0; m < FB_MEASURE_COUNT && !rd.bad; ++m) {
            if (!(r->has & FB__BIT(m))) continue;
            r->values[m] = malloc((r->epochs ? r->epochs : 1) * sizeof(double));
            if (!r->values[m]) rd.bad = true;
            for (size_t i = 0; i < r->epochs && !rd.bad; ++i)
                r->values[m][i] = fb__iso_get_f64(&rd);
        }
    }
    /* why the run stopped, the probe, the epochs' flags (the statistics
     * recomputed by the parent use them) */
    r->config.pass = fb__iso_get_u32(&rd);
    uint64_t asked = fb__iso_get_u64(&rd);
    unsigned char f19 = 0;
    fb__iso_get(&rd, &f19, 1);
    uint32_t stopped_by = fb__iso_get_u32(&rd);
    r->rounds = fb__iso_get_u32(&rd);
    r->remeasured = fb__iso_get_u32(&rd);
    r->probe[0] = fb__iso_get_f64(&rd);
    r->probe[1] = fb__iso_get_f64(&rd);
    if (f19 > 7 || stopped_by > FB__STOP_CAP || asked > FB__ISO_MAX_RECORD) rd.bad = true;
    r->epochs_asked = (size_t)asked;
    r->epochs_explicit = f19 & 1;
    r->disturb_known = (f19 & 2) != 0;
    r->slow_core = (f19 & 4) != 0;
    r->stopped_by = (int)stopped_by;
    if (!rd.bad && !r->error) {
        r->epoch_flags = calloc(r->epochs ? r->epochs : 1, 1);
        if (!r->epoch_flags) rd.bad = true;
        for (size_t i = 0; i < r->epochs && !rd.bad; ++i) {
            fb__iso_get(&rd, &r->epoch_flags[i], 1);
            if (r->epoch_flags[i] > 15) rd.bad = true; /* FB__EPOCH_* */
            if (r->epoch_flags[i] & FB__EPOCH_DISTURBED) r->disturbed++;
            if (r->epoch_flags[i] & FB__EPOCH_WAITED) r->waited++;
        }
    }
    /* user counters, checked as fb_counter checks them */
    uint32_t n_uc = fb__iso_get_u32(&rd);
    if (n_uc > FB__UCOUNTER_MAX) rd.bad = true;
    if (n_uc && !rd.bad && !(r->ucounters = calloc(1, sizeof *r->ucounters))) rd.bad = true;
    for (uint32_t i = 0; i < n_uc && !rd.bad; ++i) {
        bool null_uc;
        char *name = fb__iso_get_str(&rd, &null_uc);
        double v = fb__iso_get_f64(&rd);
        uint32_t fl = fb__iso_get_u32(&rd);
        if (!name || fb__ucounter_bad_name(r->ucounters, name) || v != v || fl > 2) {
            rd.bad = true;
        } else {
            fb__ucounter *c = &r->ucounters->c[r->ucounters->n++];
            memcpy(c->name, name, strlen(name) + 1);
            c->value = v;
            c->flags = fl;
        }
        free(name);
    }
    uint32_t has_args = fb__iso_get_u32(&rd);
    if (has_args > FB_MAX_ARGS + 1u) rd.bad = true;
    if (has_args && !rd.bad) {
        r->config.has_arg = true;
        r->config.n_args = has_args - 1u;
        for (size_t i = 0; i < r->config.n_args; ++i)
            r->config.args[i] = (int64_t)fb__iso_get_u64(&rd);
        r->config.arg = r->config.n_args ? r->config.args[0] : 0;
    }
    bool null_family = true;
    r->config.family = fb__iso_get_str(&rd, &null_family);
    if (!null_family && !r->config.family) rd.bad = true;
    r->config.family_id = fb__iso_get_u32(&rd);
    uint32_t model = fb__iso_get_u32(&rd);
    if (model > FB_FIT_MODELS) rd.bad = true;
    r->config.family_model = (int)model;
    uint32_t threads = fb__iso_get_u32(&rd);
    unsigned char has_tm = 0;
    fb__iso_get(&rd, &has_tm, 1);
    if (threads > FB__MAX_THREADS || has_tm > 1 || (has_tm && !threads)) rd.bad = true;
    if (!rd.bad) r->threads = threads;
    if (!rd.bad && has_tm && !(r->thread_median_s = malloc(threads * sizeof(double))))
        rd.bad = true;
    for (uint32_t i = 0; !rd.bad && has_tm && i < threads; ++i)
        r->thread_median_s[i] = fb__iso_get_f64(&rd);
    unsigned char has_vg = 0;
    fb__iso_get(&rd, &has_vg, 1);
    if (has_vg > 1) rd.bad = true;
    if (!rd.bad && has_vg) {
        r->vg = malloc(sizeof *r->vg);
        if (!r->vg)
            rd.bad = true;
        else
            fb__iso_get(&rd, r->vg, sizeof *r->vg);
    }
    bool null_label = true;
    if (!rd.bad) r->label = fb__iso_get_str(&rd, &null_label);
    if (!rd.bad && !r->label && !null_label) rd.bad = true;
    if (rd.bad || rd.p != rd.end) {
        fb__result_free(r);
        return 0;
    }
    *out = r;
    return 5 + (size_t)payload;
}
