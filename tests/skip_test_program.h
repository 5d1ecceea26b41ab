#pragma once
// A test program that cannot run here at all (no X display for VTK's GLX, no OpenGL context) must not be
// reported as passed. QSKIP in initTestCase makes Qt Test exit 0, which ctest counts as a pass; this exits
// with kSkipExitCode instead, which tests/CMakeLists.txt declares as every test's SKIP_RETURN_CODE, so ctest
// lists the program under "did not run" with the reason printed here (issue 31, "tests that can fail").
#include <cstdio>
#include <cstdlib>

namespace ctwin::test_support {

inline constexpr int kSkipExitCode = 77; // the Automake convention ctest's SKIP_RETURN_CODE is set to

/// Prints why in Qt Test's own SKIP format and ends the program at once (std::_Exit: no QApplication
/// teardown halfway through initTestCase).
[[noreturn]] inline void skipTestProgram(const char* why) {
    std::printf("SKIP   : the whole program: %s\n", why);
    std::fflush(stdout);
    std::_Exit(kSkipExitCode);
}

} // namespace ctwin::test_support
