/* A fake /sys and /proc for tests: files written into a temporary directory
 * tree that the machine checks read in place of the real root. POSIX only
 * (the tests that include it are built where FB_HAVE_SYSFS or POSIX holds). */
#ifndef FB_TEST_FAKE_SYSFS_H
#define FB_TEST_FAKE_SYSFS_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Writes root/rel (a leading '/' in rel is dropped) with content, creating
 * the directories on the way; a file that cannot be written ends the test. */
static inline void fake_sysfs_put(const char *root, const char *rel, const char *content) {
    char path[4096];
    while (*rel == '/') ++rel;
    snprintf(path, sizeof path, "%s/%s", root, rel);
    for (char *p = path + strlen(root) + 1; *p; ++p)
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0755);
            *p = '/';
        }
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        exit(1);
    }
    fputs(content, f);
    fclose(f);
}

/* Removes path and everything under it (rm -rf): a directory is made
 * writable and searchable first, links are removed, never followed. */
static inline void fake_sysfs_remove(const char *path) {
    struct stat st;
    if (lstat(path, &st) != 0) return;
    if (!S_ISDIR(st.st_mode)) {
        unlink(path);
        return;
    }
    chmod(path, 0755);
    DIR *d = opendir(path);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char sub[4096];
        int n = snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        if (n > 0 && (size_t)n < sizeof sub) fake_sysfs_remove(sub);
    }
    if (d) closedir(d);
    rmdir(path);
}

#endif
