#include "allocator_tuning.h"

#include <cstdlib>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace ctwin::views {

bool tuneAllocatorForSoftwareGl(std::string_view glRenderer) {
    static bool applied = false;
    if (applied) return true;
    const bool software = glRenderer.find("llvmpipe") != std::string_view::npos ||
                          glRenderer.find("softpipe") != std::string_view::npos ||
                          glRenderer.find("Software Rasterizer") != std::string_view::npos;
    if (!software || std::getenv("CTWIN_NO_MALLOC_TUNING")) return false;
#if defined(__GLIBC__)
    // 32 MiB is glibc's largest mmap threshold on 64-bit (DEFAULT_MMAP_THRESHOLD_MAX).
    applied =
        mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024) == 1 && mallopt(M_TRIM_THRESHOLD, 512 * 1024 * 1024) == 1;
#endif
    return applied;
}

} // namespace ctwin::views
