/* SVG and HTML primitives for the HTML report (src/outputs/report_html.c): text
 * escaping, locale-independent numbers, SI-prefixed labels, linear and log
 * scales with ticks, a horizontal axis. Everything writes to a FILE *. */
#ifndef FB_SVG_H
#define FB_SVG_H

#include "base.h"

#include <stdio.h>

/* s as HTML text, safe both as element content and inside a quoted
 * attribute value: & < > " ' become references, ill-formed UTF-8 becomes
 * U+FFFD, control characters (C0, DEL, C1) are written visibly as \n, \t,
 * \xNN or \u00NN, like the markdown table does. NULL writes nothing.
 * fb__svg_text_max stops after max_cp code points and appends an ellipsis
 * when it cut anything. */
FB__PRIVATE void fb__svg_text(FILE *f, const char *s);
FB__PRIVATE void fb__svg_text_max(FILE *f, const char *s, size_t max_cp);

/* A coordinate with at most one decimal, '.' whatever the locale. */
FB__PRIVATE void fb__svg_num(FILE *f, double v);
/* "%.*f" with '.' whatever the locale, thousands grouped with ',' when
 * grouped is true; "-" for NaN, "inf"/"-inf" for infinities. */
FB__PRIVATE void fb__svg_fixed(char *buf, size_t len, double v, int decimals, bool grouped);
/* v with an SI prefix (p n µ m k M G T) and digits significant digits,
 * trailing zeros cut: fb__svg_si(.., 1.5e-6, "s", 3) -> "1.5 µs". unit may
 * be "" ("32k"). NaN -> "-". */
FB__PRIVATE void fb__svg_si(char *buf, size_t len, double v, const char *unit, int digits);

/* A map from data values to pixels. Linear scales map [d0, d1] to
 * [r0, r1]; log scales map log10 of the value. */
typedef struct fb__svg_scale {
    double d0, d1; /* domain (both > 0 for a log scale) */
    double r0, r1; /* range, pixels */
    bool log;
    int ticks; /* how ticks are placed: FB__SVG_STEPS, FB__SVG_125 or FB__SVG_DECADES */
} fb__svg_scale;
enum { FB__SVG_STEPS = 0, FB__SVG_125 = 1, FB__SVG_DECADES = 2 };

/* A scale over data in [lo, hi] with round ends. Log scales: data spanning
 * more than 20x extend to powers of ten (ticks at each decade), more than 3x
 * to values 1, 2 or 5 times a power of ten (ticks there), less to multiples
 * of a 1-2-5 step (ticks at those steps, like a linear axis). Linear scales
 * extend to multiples of a 1-2-5 step, starting at 0 when zero is true. A degenerate
 * range (lo == hi) is widened around the value. lo and hi must be finite,
 * and > 0 for a log scale. */
FB__PRIVATE void fb__svg_scale_init(fb__svg_scale *s, double lo, double hi, double r0, double r1,
                                    bool log, bool zero);
/* Pixel position of v (clamped to the range for values outside the domain
 * and for v <= 0 on a log scale). */
FB__PRIVATE double fb__svg_at(const fb__svg_scale *s, double v);
/* Tick values inside the domain, ascending, as the scale's `ticks` says;
 * decades get 2 and 5 between them when there are at most two, and are
 * thinned when there are more than eight. Returns how many (<= cap). */
FB__PRIVATE size_t fb__svg_ticks(const fb__svg_scale *s, double *ticks, size_t cap);

/* A horizontal axis for scale s: a grid line from y_top to y_axis at each
 * tick, the axis line at y_axis and the tick labels below it (with the SI
 * prefix and si_unit; si_unit NULL: plain numbers with suffix). */
FB__PRIVATE void fb__svg_axis_x(FILE *f, const fb__svg_scale *s, double y_top, double y_axis,
                                const char *si_unit, const char *suffix);
/* The same on the left for a vertical (log-log chart) scale, labels at x. */
FB__PRIVATE void fb__svg_axis_y(FILE *f, const fb__svg_scale *s, double x_left, double x_right,
                                const char *si_unit);

/* An attribute name="v" (v as fb__svg_num writes it), and a <line> of class
 * cls from (x1, y1) to (x2, y2): shared by every chart of the report. */
FB__PRIVATE void fb__svg_attr_num(FILE *f, const char *name, double v);
FB__PRIVATE void fb__svg_line(FILE *f, const char *cls, double x1, double y1, double x2, double y2);

#endif
