// A numeric field without an entry in data/field_ranges.json must not compile (issue 14 item 2). ctest
// compiles this file twice: field_range_compile_ok (CTWIN_EXPECT_OK) looks up a field the file has and must
// compile; field_range_compile_fail looks up one it lacks and must fail (fieldRange is consteval).
#include "field_traits.h"

using namespace ctwin::model;

#ifdef CTWIN_EXPECT_OK
constexpr Bounds kRange = fieldRange(EntityKind::Site, "lat_deg");
#else
constexpr Bounds kRange = fieldRange(EntityKind::Site, "altitude_m"); // no such entry
#endif

int main() {
    return kRange.max > kRange.min ? 0 : 1;
}
