/* SPDX-License-Identifier: MIT */
/* One layout variant of a femtobench-ab plugin (cmake/femtobench-plugin.cmake,
 * docs/ab.md "Code layout"): linked first, it moves every function of the
 * suite and of the code under test by FB_LAYOUT_PAD_TEXT bytes and the
 * static data by FB_LAYOUT_PAD_DATA bytes. Nothing here runs or is
 * referenced: the padding only shifts where the linker puts the rest. */
#ifndef FB_LAYOUT_PAD_TEXT
#define FB_LAYOUT_PAD_TEXT 16
#endif
#ifndef FB_LAYOUT_PAD_DATA
#define FB_LAYOUT_PAD_DATA 16
#endif
#define FB_LAYOUT_STR2(x) #x
#define FB_LAYOUT_STR(x) FB_LAYOUT_STR2(x)
__asm__(".text\n\t.skip " FB_LAYOUT_STR(FB_LAYOUT_PAD_TEXT) "\n"
        "\t.data\n\t.skip " FB_LAYOUT_STR(FB_LAYOUT_PAD_DATA) "\n"
        "\t.bss\n\t.skip " FB_LAYOUT_STR(FB_LAYOUT_PAD_DATA) "\n"
        "\t.text\n");
