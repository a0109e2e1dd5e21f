/* Every internal header, in dependency order. Only the tests include this;
 * each file in src/ includes just the module headers it uses. tools/
 * amalgamate concatenates the headers in the order listed here. */
#ifndef FB_INTERNAL_H
#define FB_INTERNAL_H

#include "base.h"
#include "os.h"
#include "text.h"
#include "numfmt.h"
#include "clock.h"
#include "perf.h"
#include "settings.h"
#include "result.h"
#include "valgrind.h"
#include "stats.h"
#include "sysfile.h"
#include "machine.h"
#include "sysinfo.h"
#include "epoch_hook.h"
#include "process.h"
#include "json.h"
#include "outfile.h"
#include "report.h"
#include "disturb.h"
#include "probe.h"
#include "rounds.h"
#include "passes.h"
#include "report_passes.h"
#include "report_gbench.h"
#include "svg.h"
#include "report_html.h"
#include "bench.h"
#include "compare.h"
#include "json_read.h"
#include "baseline.h"
#include "change.h"
#include "setup.h"
#include "registry.h"
#include "cli_check.h"
#include "filter.h"
#include "isolate.h"

#endif
