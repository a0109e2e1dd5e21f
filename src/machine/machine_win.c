/* The machine on Windows: the power plan's check (the one stability check
 * Windows can answer without administrator rights: no governor, no turbo or
 * SMT switch a program can read), and the facts for the files' context:
 * CPU name, core count, clock rate, host and executable names. Every fact
 * has a fallback; nothing here fails. */
#include "machine.h"
#include "sysinfo.h"

#if FB_HAVE_WINDOWS

#include <stdio.h>
#include <string.h>
#include <windows.h>

/* powrprof.dll's PowerGetActiveScheme, loaded at run time: no link-time
 * dependency for the user's program, and "unknown" where it is missing. */
typedef DWORD(WINAPI *fb__win_get_scheme)(HKEY, GUID **);

/* The active power plan's GUID as text into buf ("" when unknown). */
static void fb__win_power_plan(char *buf, size_t len) {
    buf[0] = '\0';
    HMODULE dll = LoadLibraryA("powrprof.dll");
    if (!dll) return;
    FARPROC sym = GetProcAddress(dll, "PowerGetActiveScheme");
    fb__win_get_scheme get = NULL;
    if (sym) memcpy(&get, &sym, sizeof get); /* function pointer to function pointer */
    GUID *g = NULL;
    if (get && get(NULL, &g) == ERROR_SUCCESS && g) {
        snprintf(buf, len, "%08lx-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x",
                 (unsigned long)g->Data1, g->Data2, g->Data3, g->Data4[0], g->Data4[1], g->Data4[2],
                 g->Data4[3], g->Data4[4], g->Data4[5], g->Data4[6], g->Data4[7]);
        LocalFree(g);
    }
    FreeLibrary(dll);
}

void fb__env_check(const char *root, int callsite, fb__env_report *out) {
    (void)root;
    memset(out, 0, sizeof *out);
    char plan[64];
    fb__win_power_plan(plan, sizeof plan);
    fb__env_check_power_plan(plan, out);
    fb__env_check_build(callsite, out);
}

/* A value of the first CPU's registry key (its name, its rated MHz). */
static bool fb__win_cpu_value(const char *name, DWORD type, void *buf, DWORD len) {
    DWORD flags = type == REG_SZ ? RRF_RT_REG_SZ : RRF_RT_REG_DWORD;
    return RegGetValueA(HKEY_LOCAL_MACHINE, "HARDWARE\\DESCRIPTION\\System\\CentralProcessor\\0",
                        name, flags, NULL, buf, &len) == ERROR_SUCCESS;
}

void fb__sysinfo_platform(fb__sysinfo *out) {
    DWORD n = (DWORD)sizeof out->host_name;
    if (!GetComputerNameA(out->host_name, &n)) out->host_name[0] = '\0';
    DWORD w = GetModuleFileNameA(NULL, out->executable, (DWORD)sizeof out->executable);
    out->executable[w < sizeof out->executable ? w : 0] = '\0';
    char cpu[sizeof out->cpu_model];
    if (fb__win_cpu_value("ProcessorNameString", REG_SZ, cpu, (DWORD)sizeof cpu)) {
        const char *p = cpu;
        while (*p == ' ') ++p; /* some CPUs pad the name with leading blanks */
        snprintf(out->cpu_model, sizeof out->cpu_model, "%s", p);
    }
    DWORD mhz = 0;
    if (fb__win_cpu_value("~MHz", REG_DWORD, &mhz, (DWORD)sizeof mhz)) out->mhz_per_cpu = mhz;
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    out->num_cpus = (int)si.dwNumberOfProcessors;
    out->cpu_scaling = -1; /* the power plan's check says more (fb__env_check) */
}

#endif /* FB_HAVE_WINDOWS */
