/* One result of a femtobench JSON file read into a baseline's record
 * (src/outputs/baseline_record.c), for the file's reader
 * (src/outputs/baseline_read.c). */
#ifndef FB_BASELINE_RECORD_H
#define FB_BASELINE_RECORD_H

#include "base.h"
#include "baseline.h"
#include "json_read.h"

#include <stddef.h>
#include <stdint.h>

/* A document being read, and where its first error goes. */
typedef struct fb__bl_reader {
    const fb__jr_doc *d;
    char *err;
    size_t len;
} fb__bl_reader;

/* The reason into rd->err; returns -1. */
FB__PRIVATE int fb__bl_record_fail(fb__bl_reader *rd, const char *fmt, ...) FB__PRINTF(2, 3);
/* The build bits of a "library_build" or "callsite_build" object (known 1,
 * optimized 2, ndebug 4; 0 when obj is none or not an object):
 * fb__bl_build_type's input. */
FB__PRIVATE int fb__bl_record_build_bits(const fb__jr_doc *d, uint32_t obj);
/* Reads results[index] (value ri) into rec, checked: 0, or -1 with the
 * reason in rd->err. Sets *counters when it carries a counter, and *code
 * (when still < 0) to its benchmark code's build bits. */
FB__PRIVATE int fb__bl_record_read(fb__bl_reader *rd, uint32_t ri, size_t index, fb__bl_record *rec,
                                   int *counters, int *code);

#endif
