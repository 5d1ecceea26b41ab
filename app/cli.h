#pragma once
#include <iosfwd>

namespace ctwin::app {

/// Exit codes of clustertwin-cli.
enum ExitCode { kExitOk = 0, kExitUsage = 2, kExitInvalidInput = 3 };

/// Runs clustertwin-cli with its arguments (argv[0] is the program), writing to out/err.
int runCli(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

} // namespace ctwin::app
