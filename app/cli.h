#pragma once
#include <iosfwd>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace ctwin::app {

/// A command line a command cannot run: runCli prints it with the command's synopsis (exit 2).
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Parsed arguments: positionals, flags (--json) and repeated options (--set K=V).
struct Args {
    std::vector<std::string> positional;
    std::map<std::string, std::vector<std::string>> options;
    bool flag(const std::string& f) const { return options.count(f) > 0; }
};

/// The one option parser of the commands run through the table in cli.cpp: `flags` take no value, `valued`
/// take one (`--key value` or `--key=value`, never an empty value or the next option); anything else that
/// starts with `--` is a UsageError.
Args parseArgs(const std::vector<std::string>& argv, const std::vector<std::string>& flags,
               const std::vector<std::string>& valued);

/// Exit codes of clustertwin-cli.
enum ExitCode { kExitOk = 0, kExitUsage = 2, kExitInvalidInput = 3 };

/// Runs clustertwin-cli with its arguments (argv[0] is the program), writing to out/err.
int runCli(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

} // namespace ctwin::app
