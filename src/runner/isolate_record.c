/* Crash isolation's records (src/runner/isolate.c runs the child and reads the
 * pipe): the records a child writes, and the one at the front of what the
 * parent read. A result's record is src/runner/isolate_result.c's; the
 * bytes, src/runner/isolate_wire.c's. Native byte order: both ends are the
 * same program on the same machine.
 *
 * The result record: 'R', a u32 payload length, then the payload (its
 * fields in src/runner/isolate_result.c).
 *
 * The comparison record: 'C', a u32 payload length, then the title and the
 * error (strings as in the result record), size, rounds, preempted, iterations (u64), the
 * confidence (f64), fastest and runner-up (u64), the lead and its interval
 * (f64), per alternative its ratio, low, high (f64) and tied (u64), the
 * size x rounds log ratios (f64), and each alternative's result as a result
 * record.
 *
 * Before each of them the child writes 'O' and one byte, the stream its
 * benchmark's fb_set_output chose for its rows: 0 the suite's, 1 none
 * (NULL), 2 stdout, 3 stderr (another FILE is the child's own: the suite's
 * then). The parent prints that record's rows there, so fb_set_output(b,
 * NULL) silences that benchmark alone, as in one process.
 *
 * The amended record is 'U' and a result record: the result sent last
 * again, with the counters the benchmark gave after its run (Google
 * Benchmark's habit); the parent moves them to the result it holds.
 *
 * The end record is 'D' and one byte, 1 when the run was interrupted. */
#include "isolate_record.h"

#include "compare_stats.h"
#include "stats.h"

#include <stdlib.h>
#include <string.h>

int fb__isolate_encode_comparison(const fb_comparison *c, unsigned char **buf, size_t *len,
                                  size_t *cap) {
    fb__iso_buf b = {*buf, *len, *cap, false};
    size_t start = b.len;
    fb__iso_put(&b, "C", 1);
    fb__iso_put_u32(&b, 0); /* payload length, filled below */
    fb__iso_put_str(&b, c->title);
    fb__iso_put_str(&b, c->error);
    fb__iso_put_u64(&b, (uint64_t)c->size);
    fb__iso_put_u64(&b, (uint64_t)c->rounds);
    fb__iso_put_u64(&b, (uint64_t)c->preempted);
    fb__iso_put_u64(&b, c->iterations);
    fb__iso_put_f64(&b, c->confidence);
    fb__iso_put_u64(&b, (uint64_t)c->fastest);
    fb__iso_put_u64(&b, (uint64_t)c->runner_up);
    fb__iso_put_f64(&b, c->lead);
    fb__iso_put_f64(&b, c->lead_low);
    fb__iso_put_f64(&b, c->lead_high);
    for (size_t i = 0; i < c->size; ++i) {
        fb__iso_put_f64(&b, c->ratio[i]);
        fb__iso_put_f64(&b, c->low[i]);
        fb__iso_put_f64(&b, c->high[i]);
        fb__iso_put_u64(&b, (uint64_t)c->tied[i]);
    }
    for (size_t i = 0; i < c->size * c->rounds; ++i) fb__iso_put_f64(&b, c->log_ratio[i]);
    int rc = FB_OK;
    for (size_t i = 0; i < c->size && !b.oom && rc == FB_OK; ++i)
        rc = fb__isolate_encode(c->results[i], &b.p, &b.len, &b.cap);
    *buf = b.p;
    *cap = b.cap;
    if (b.oom || rc != FB_OK) return FB_ENOMEM;
    uint32_t payload = (uint32_t)(b.len - start - 5);
    memcpy(b.p + start + 1, &payload, sizeof payload);
    *len = b.len;
    return FB_OK;
}

size_t fb__isolate_decode_comparison(const unsigned char *buf, size_t len, fb_comparison **out) {
    *out = NULL;
    uint32_t payload;
    fb__iso_rd rd;
    if (!fb__iso_frame(buf, len, 'C', &payload, &rd)) return 0;
    bool null_title, null_error;
    char *title = fb__iso_get_str(&rd, &null_title);
    char *error = fb__iso_get_str(&rd, &null_error);
    uint64_t size = fb__iso_get_u64(&rd), rounds = fb__iso_get_u64(&rd);
    /* every alternative holds at least a result record, every round a
     * log ratio per alternative: sizes the payload cannot hold are refused
     * before anything is allocated */
    size_t left = (size_t)(rd.end - rd.p);
    if (rd.bad || null_title || (!error && !null_error) || size < 1 || size > left / 5 ||
        rounds > left / sizeof(double) / size) {
        free(title);
        free(error);
        return 0;
    }
    fb_comparison *c = fb__comparison_alloc(title, (size_t)size, (size_t)rounds);
    free(title);
    if (!c) {
        free(error);
        return 0;
    }
    c->error = error;
    c->preempted = (size_t)fb__iso_get_u64(&rd);
    c->iterations = fb__iso_get_u64(&rd);
    c->confidence = fb__iso_get_f64(&rd);
    uint64_t fastest = fb__iso_get_u64(&rd), runner_up = fb__iso_get_u64(&rd);
    if (fastest >= size || runner_up >= size || c->preempted > c->rounds) rd.bad = true;
    c->fastest = (size_t)fastest;
    c->runner_up = (size_t)runner_up;
    c->lead = fb__iso_get_f64(&rd);
    c->lead_low = fb__iso_get_f64(&rd);
    c->lead_high = fb__iso_get_f64(&rd);
    for (size_t i = 0; i < c->size; ++i) {
        c->ratio[i] = fb__iso_get_f64(&rd);
        c->low[i] = fb__iso_get_f64(&rd);
        c->high[i] = fb__iso_get_f64(&rd);
        c->tied[i] = (size_t)fb__iso_get_u64(&rd);
    }
    for (size_t i = 0; i < c->size * c->rounds; ++i) c->log_ratio[i] = fb__iso_get_f64(&rd);
    for (size_t i = 0; i < c->size && !rd.bad; ++i) {
        size_t k = fb__isolate_decode(rd.p, (size_t)(rd.end - rd.p), &c->results[i]);
        if (!k) {
            rd.bad = true;
            break;
        }
        rd.p += k;
        fb__stats_compute(c->results[i]);
    }
    if (rd.bad || rd.p != rd.end) {
        fb__comparison_free(c);
        return 0;
    }
    *out = c;
    return 5 + (size_t)payload;
}

void fb__iso_next(const unsigned char *buf, size_t len, fb__iso_rec *rec) {
    memset(rec, 0, sizeof *rec);
    if (!len) return;
    unsigned char kind = buf[0];
    if (kind == 'O' || kind == 'D') { /* a tag and one byte */
        if (len < 2) return;
        *rec = (fb__iso_rec){kind, buf[1], 2, NULL, NULL};
        return;
    }
    if (kind == 'U') { /* 'U' and a result record */
        if (len < 2) return;
        if (buf[1] != 'R') {
            rec->kind = FB__ISO_BAD;
            return;
        }
        fb__iso_next(buf + 1, len - 1, rec);
        if (rec->kind == 'R') {
            rec->kind = 'U';
            rec->used += 1;
        }
        return;
    }
    if (kind != 'R' && kind != 'C') {
        rec->kind = FB__ISO_BAD;
        return;
    }
    if (len < 5) return;
    uint32_t payload;
    memcpy(&payload, buf + 1, sizeof payload);
    if (payload > FB__ISO_MAX_RECORD) {
        rec->kind = FB__ISO_BAD;
        return;
    }
    if (len - 5 < payload) return; /* incomplete */
    size_t k = kind == 'R' ? fb__isolate_decode(buf, len, &rec->result)
                           : fb__isolate_decode_comparison(buf, len, &rec->comparison);
    rec->kind = k ? kind : FB__ISO_BAD;
    rec->used = k;
}
