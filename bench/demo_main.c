#include "femtobench.h"
FB_MAIN()
