#pragma once
#include <string_view>

namespace ctwin::views {

/// Keeps freed memory in the heap when the GL renderer is Mesa's software rasterizer (llvmpipe,
/// softpipe), which allocates and frees its vertex and binning buffers every frame: with glibc's default
/// thresholds those large blocks are mmapped and unmapped each frame and the page faults cost more than
/// the drawing (measured: 14,000 instanced racks at 84 ms per frame before, 24 ms after). Raises
/// M_MMAP_THRESHOLD to 32 MiB and M_TRIM_THRESHOLD to 512 MiB (glibc mallopt(3)); the price is that up to
/// that much freed memory stays with the process. Applied once; does nothing for hardware renderers or
/// when CTWIN_NO_MALLOC_TUNING is set. Returns true when the tuning is in effect.
bool tuneAllocatorForSoftwareGl(std::string_view glRenderer);

} // namespace ctwin::views
