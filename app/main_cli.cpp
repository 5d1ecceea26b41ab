#include "cli.h"
#include "terminal_text.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

int main(int argc, char** argv) {
    int code = 0;
    {
        // Names, ids and file names from the user's files reach the terminal with their control characters
        // shown as escapes, never acted on (terminal_text.h); every command's output passes here.
        const ctwin::app::TerminalTextFilter out(std::cout), err(std::cerr);
        code = ctwin::app::runCli(argc, argv, std::cout, std::cerr);
    }
    // Results redirected to a file must not be cut short silently (a full disk):
    // the buffered tail is written here, and a failure is an error naming standard output.
    errno = 0;
    std::cout.flush(); // std::cout writes through stdout's buffer: this is where a full disk shows
    int error = errno;
    bool failed = !std::cout;
    if (std::fflush(stdout) != 0) failed = true, error = errno;
    if (failed || std::ferror(stdout)) {
        std::cerr << "error: standard output: cannot write the results"
                  << " (" << (error ? std::strerror(error) : "a write failed; a full disk?") << ")"
                  << "; what was written is incomplete\n";
        return code == ctwin::app::kExitOk ? ctwin::app::kExitInvalidInput : code;
    }
    return code;
}
