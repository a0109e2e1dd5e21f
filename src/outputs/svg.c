/* SVG and HTML primitives for the HTML report: escaping, numbers, scales,
 * axes. No state; every number is written with '.' whatever the locale. */
#include "svg.h"

#include "json.h"
#include "numfmt.h"
#include "text.h" /* UTF-8 */

#include <math.h>
#include <string.h>

static void fb__svg_text_n(FILE *f, const char *s, size_t max_cp) {
    if (!s) return;
    const unsigned char *p = (const unsigned char *)s;
    size_t n = 0;
    while (*p) {
        if (n == max_cp) {
            fputs("\xe2\x80\xa6", f); /* U+2026 HORIZONTAL ELLIPSIS */
            return;
        }
        uint32_t cp;
        p += fb__utf8_next(p, &cp);
        ++n;
        switch (cp) {
        case '&':
            fputs("&amp;", f);
            break;
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        case '\'':
            fputs("&#39;", f);
            break;
        case '\n':
            fputs("\\n", f);
            break;
        case '\r':
            fputs("\\r", f);
            break;
        case '\t':
            fputs("\\t", f);
            break;
        default:
            if (cp < 0x20 || cp == 0x7f)
                fprintf(f, "\\x%02x", (unsigned)cp);
            else if (cp >= 0x80 && cp < 0xa0) /* C1 controls: parse errors in HTML */
                fprintf(f, "\\u%04x", (unsigned)cp);
            else
                fb__utf8_put(f, cp);
        }
    }
}

void fb__svg_text(FILE *f, const char *s) { fb__svg_text_n(f, s, (size_t)-1); }

void fb__svg_text_max(FILE *f, const char *s, size_t max_cp) { fb__svg_text_n(f, s, max_cp); }

/* Replaces a locale's decimal point (possibly several bytes) in raw by '.'. */
static void fb__svg_dot(const char *raw, char *out, size_t len) {
    size_t o = 0;
    bool in_point = false;
    for (const char *p = raw; *p && o + 1 < len; ++p) {
        char c = *p;
        if ((c >= '0' && c <= '9') || c == '-' || c == 'e' || c == '+') {
            out[o++] = c;
            in_point = false;
        } else if (!in_point) {
            out[o++] = '.';
            in_point = true;
        }
    }
    if (len) out[o] = '\0';
}

void fb__svg_num(FILE *f, double v) {
    char raw[64], buf[64];
    if (!isfinite(v)) v = 0;
    double r = round(v * 10) / 10;
    if (r == 0) r = 0; /* no "-0" */
    if (r == floor(r))
        snprintf(raw, sizeof raw, "%.0f", r);
    else
        snprintf(raw, sizeof raw, "%.1f", r);
    fb__svg_dot(raw, buf, sizeof buf);
    fputs(buf, f);
}

void fb__svg_fixed(char *buf, size_t len, double v, int decimals, bool grouped) {
    if (!isfinite(v)) {
        snprintf(buf, len, "%s", isnan(v) ? "-" : (v > 0 ? "inf" : "-inf"));
        return;
    }
    if (fabs(v) >= 1e15) { /* exponent form, as the tables: never 58 digits, never cut */
        fb__fmt_double(buf, len, v, 6);
        return;
    }
    char raw[400], txt[400];
    snprintf(raw, sizeof raw, "%.*f", decimals, fabs(v));
    fb__svg_dot(raw, txt, sizeof txt);
    const char *dot = strchr(txt, '.');
    size_t int_len = dot ? (size_t)(dot - txt) : strlen(txt);
    char out[600];
    size_t o = 0;
    if (v < 0 && strspn(txt, "0.") != strlen(txt)) out[o++] = '-';
    for (size_t i = 0; i < int_len && o + 2 < sizeof out; ++i) {
        out[o++] = txt[i];
        size_t left = int_len - i - 1;
        if (grouped && left && left % 3 == 0) out[o++] = ',';
    }
    out[o] = '\0';
    snprintf(buf, len, "%s%s", out, dot ? dot : "");
}

void fb__svg_si(char *buf, size_t len, double v, const char *unit, int digits) {
    static const char *const prefixes[] = {"p", "n", "\xc2\xb5", "m", "", "k", "M", "G", "T"};
    if (!unit) unit = "";
    if (!isfinite(v)) {
        snprintf(buf, len, "%s", isnan(v) ? "-" : (v > 0 ? "inf" : "-inf"));
        return;
    }
    int k = 4; /* index of "" */
    double a = fabs(v);
    if (a >= 1e15 || (a > 0 && a < 1e-12 && unit[0])) {
        /* past the prefixes: the exponent form in the plain unit ("1e+57 s"),
         * never "1000000...0000 T" */
        char num[48];
        fb__fmt_double(num, sizeof num, v, digits);
        snprintf(buf, len, "%s%s%s", num, unit[0] ? " " : "", unit);
        return;
    }
    if (a > 0) {
        int e3 = (int)floor(log10(a) / 3);
        /* rounding to `digits` may reach the next prefix: 999.96 ns -> 1 µs */
        double scaled = a / pow(10, 3 * e3);
        double mag = pow(10, digits - 1 - floor(log10(scaled)));
        if (round(scaled * mag) / mag >= 1000) ++e3;
        k = 4 + e3;
        /* a count (no unit) has no fraction prefixes: 0.2 instructions, not "200m" */
        if (!unit[0] && k < 4) k = 4;
        if (k < 0) k = 0;
        if (k > 8) k = 8;
    }
    double scaled = v / pow(10, 3 * (k - 4));
    char raw[64], num[64];
    snprintf(raw, sizeof raw, "%.*g", digits, scaled);
    if (strchr(raw, 'e')) snprintf(raw, sizeof raw, "%.*f", digits, scaled);
    fb__svg_dot(raw, num, sizeof num);
    /* pieces appended by hand: truncation is fine, and no format warning */
    const char *parts[4] = {num, unit[0] ? " " : "", prefixes[k], unit};
    size_t o = 0;
    for (int i = 0; i < 4; ++i)
        for (const char *p = parts[i]; *p && o + 1 < len; ++p) buf[o++] = *p;
    if (len) buf[o] = '\0';
}

/* A step of 1, 2 or 5 times a power of ten near span / target. */
static double fb__svg_nice_step(double span, int target) {
    double raw = span / target;
    double p = pow(10, floor(log10(raw)));
    double m = raw / p;
    return (m <= 1.0001 ? 1 : m <= 2.0001 ? 2 : m <= 5.0001 ? 5 : 10) * p;
}

/* The largest (up = false) or smallest (up = true) value 1, 2 or 5 times a
 * power of ten at or beyond v (> 0). */
static double fb__svg_125(double v, bool up) {
    double p = pow(10, floor(log10(v)));
    static const double m[] = {1, 2, 5, 10};
    if (up) {
        for (int i = 0; i < 4; ++i)
            if (m[i] * p >= v * (1 - 1e-12)) return m[i] * p;
        return 10 * p;
    }
    for (int i = 3; i >= 0; --i)
        if (m[i] * p <= v * (1 + 1e-12)) return m[i] * p;
    return p / 2;
}

void fb__svg_scale_init(fb__svg_scale *s, double lo, double hi, double r0, double r1, bool log,
                        bool zero) {
    s->r0 = r0;
    s->r1 = r1;
    s->log = log;
    s->ticks = FB__SVG_STEPS;
    if (!(hi >= lo)) hi = lo;
    if (log) {
        if (!(lo > 0)) lo = hi > 0 ? hi / 10 : 1;
        if (!(hi > 0)) hi = lo * 10;
        if (hi == lo) lo /= 1.5, hi *= 1.5;
        double ratio = hi / lo;
        if (ratio > 20) {
            s->ticks = FB__SVG_DECADES;
            s->d0 = pow(10, floor(log10(lo) + 1e-9));
            s->d1 = pow(10, ceil(log10(hi) - 1e-9));
        } else if (ratio > 3) {
            s->ticks = FB__SVG_125;
            s->d0 = fb__svg_125(lo, false);
            s->d1 = fb__svg_125(hi, true);
        } else {
            double step = fb__svg_nice_step(hi - lo, 4);
            s->d0 = floor(lo / step + 1e-9) * step;
            s->d1 = ceil(hi / step - 1e-9) * step;
            if (!(s->d0 > 0)) s->d0 = lo * 0.9;
        }
        if (s->d1 <= s->d0) s->d1 = s->d0 * 10;
        return;
    }
    if (zero && lo > 0) lo = 0;
    if (zero && hi < 0) hi = 0;
    if (hi == lo) {
        double w = lo == 0 ? 1 : fabs(lo) * 0.1;
        hi += w;
        if (!(zero && lo == 0)) lo -= w;
    }
    double step = fb__svg_nice_step(hi - lo, 5);
    s->d0 = floor(lo / step + 1e-9) * step;
    s->d1 = ceil(hi / step - 1e-9) * step;
    if (s->d1 <= s->d0) s->d1 = s->d0 + step;
}

double fb__svg_at(const fb__svg_scale *s, double v) {
    double t;
    if (s->log)
        t = v > 0 ? (log10(v) - log10(s->d0)) / (log10(s->d1) - log10(s->d0)) : 0;
    else
        t = (v - s->d0) / (s->d1 - s->d0);
    if (!(t >= 0)) t = 0; /* NaN too */
    if (t > 1) t = 1;
    return s->r0 + t * (s->r1 - s->r0);
}

size_t fb__svg_ticks(const fb__svg_scale *s, double *ticks, size_t cap) {
    size_t n = 0;
    if (s->log && s->ticks == FB__SVG_DECADES) {
        int e0 = (int)lround(log10(s->d0)), e1 = (int)lround(log10(s->d1));
        int every = e1 - e0 > 8 ? (e1 - e0 + 7) / 8 : 1;
        for (int e = e0; e <= e1 && n < cap; ++e) {
            double p = pow(10, e);
            if ((e - e0) % every == 0) ticks[n++] = p;
            if (e1 - e0 <= 2 && e < e1) {
                if (n < cap) ticks[n++] = 2 * p;
                if (n < cap) ticks[n++] = 5 * p;
            }
        }
        return n;
    }
    if (s->log && s->ticks == FB__SVG_125) {
        for (double v = s->d0; v <= s->d1 * (1 + 1e-9) && n < cap;) {
            ticks[n++] = v;
            double next = fb__svg_125(v * 1.5, true);
            v = next > v ? next : v * 2;
        }
        return n;
    }
    double step = fb__svg_nice_step(s->d1 - s->d0, s->log ? 4 : 5);
    double first = ceil(s->d0 / step - 1e-9);
    for (double k = first; n < cap; ++k) {
        double v = k * step;
        if (v > s->d1 + step * 1e-9) break;
        if (fabs(v) < step * 1e-9) v = 0;
        ticks[n++] = v;
    }
    return n;
}

static void fb__svg_label(char *buf, size_t len, double v, const char *si_unit,
                          const char *suffix) {
    if (v == 0) {
        snprintf(buf, len, "0"); /* "0", not "0 s" or "0%" */
    } else if (si_unit) {
        fb__svg_si(buf, len, v, si_unit, 3);
    } else {
        char num[64];
        fb__fmt_double(num, sizeof num, v, 4);
        snprintf(buf, len, "%s%s", num, suffix ? suffix : "");
    }
}

void fb__svg_axis_x(FILE *f, const fb__svg_scale *s, double y_top, double y_axis,
                    const char *si_unit, const char *suffix) {
    double ticks[64];
    size_t n = fb__svg_ticks(s, ticks, 64);
    fputs("<g class=\"axis\">", f);
    for (size_t i = 0; i < n; ++i) {
        double x = fb__svg_at(s, ticks[i]);
        char label[64];
        fb__svg_label(label, sizeof label, ticks[i], si_unit, suffix);
        fputs("<line class=\"grid\" x1=\"", f);
        fb__svg_num(f, x);
        fputs("\" x2=\"", f);
        fb__svg_num(f, x);
        fputs("\" y1=\"", f);
        fb__svg_num(f, y_top);
        fputs("\" y2=\"", f);
        fb__svg_num(f, y_axis);
        fputs("\"/><text class=\"tick\" text-anchor=\"middle\" x=\"", f);
        fb__svg_num(f, x);
        fputs("\" y=\"", f);
        fb__svg_num(f, y_axis + 15);
        fputs("\">", f);
        fb__svg_text(f, label);
        fputs("</text>", f);
    }
    fputs("<line class=\"axisline\" x1=\"", f);
    fb__svg_num(f, s->r0);
    fputs("\" x2=\"", f);
    fb__svg_num(f, s->r1);
    fputs("\" y1=\"", f);
    fb__svg_num(f, y_axis);
    fputs("\" y2=\"", f);
    fb__svg_num(f, y_axis);
    fputs("\"/></g>\n", f);
}

void fb__svg_axis_y(FILE *f, const fb__svg_scale *s, double x_left, double x_right,
                    const char *si_unit) {
    double ticks[64];
    size_t n = fb__svg_ticks(s, ticks, 64);
    fputs("<g class=\"axis\">", f);
    for (size_t i = 0; i < n; ++i) {
        double y = fb__svg_at(s, ticks[i]);
        char label[64];
        fb__svg_label(label, sizeof label, ticks[i], si_unit, NULL);
        fputs("<line class=\"grid\" x1=\"", f);
        fb__svg_num(f, x_left);
        fputs("\" x2=\"", f);
        fb__svg_num(f, x_right);
        fputs("\" y1=\"", f);
        fb__svg_num(f, y);
        fputs("\" y2=\"", f);
        fb__svg_num(f, y);
        fputs("\"/><text class=\"tick\" text-anchor=\"end\" x=\"", f);
        fb__svg_num(f, x_left - 5);
        fputs("\" y=\"", f);
        fb__svg_num(f, y + 4);
        fputs("\">", f);
        fb__svg_text(f, label);
        fputs("</text>", f);
    }
    fputs("<line class=\"axisline\" x1=\"", f);
    fb__svg_num(f, x_left);
    fputs("\" x2=\"", f);
    fb__svg_num(f, x_left);
    fputs("\" y1=\"", f);
    fb__svg_num(f, s->r0);
    fputs("\" y2=\"", f);
    fb__svg_num(f, s->r1);
    fputs("\"/></g>\n", f);
}

void fb__svg_attr_num(FILE *f, const char *name, double v) {
    fprintf(f, " %s=\"", name);
    fb__svg_num(f, v);
    fputc('"', f);
}

void fb__svg_line(FILE *f, const char *cls, double x1, double y1, double x2, double y2) {
    fprintf(f, "<line class=\"%s\"", cls);
    fb__svg_attr_num(f, "x1", x1);
    fb__svg_attr_num(f, "y1", y1);
    fb__svg_attr_num(f, "x2", x2);
    fb__svg_attr_num(f, "y2", y2);
    fputs("/>", f);
}
