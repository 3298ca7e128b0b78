// Zstandard (Debian's libzstd-dev), for compressing stored results (TapTraceStore).
#include <zstd.h>
