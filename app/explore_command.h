#pragma once
#include <iosfwd>
#include <string>
#include <vector>

namespace ctwin::app {

/// Synopsis and help of `clustertwin-cli explore` (cli.cpp lists them with the other commands).
extern const char* const kExploreSynopsis;
extern const char* const kExploreHelp;

/// True when this build can run `explore --mpi` (CMake found MPI; option CTWIN_WITH_MPI).
bool exploreHasMpi();

/// `clustertwin-cli explore SPEC`: evaluates the design space of an exploration spec (data/FORMAT.md §7)
/// on threads, or across MPI ranks with --mpi under mpirun, and prints the Pareto set (text, --json or
/// --csv). Returns kExitOk, kExitUsage (bad options, --mpi without MPI or a launcher) or kExitInvalidInput
/// (a bad spec, nothing feasible).
int runExploreCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace ctwin::app
