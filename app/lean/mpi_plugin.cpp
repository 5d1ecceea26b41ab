// libclustertwin-mpi.so: the MPI calls behind `clustertwin-cli explore --mpi` (app/lean/mpi_session.h). Only
// this plugin links Open MPI; the engine stays in the CLI. Plain C types cross the boundary.
#include "lean/plugin_abi.h"

// The C API only: Open MPI's and MPICH's deprecated C++ bindings need their own library.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

CTWIN_PLUGIN_EXPORT const char* ctwin_plugin_version() {
    return ctwin::app::kCtwinPluginInterface;
}

CTWIN_PLUGIN_EXPORT void ctwin_mpi_init() {
    MPI_Init(nullptr, nullptr);
}

CTWIN_PLUGIN_EXPORT void ctwin_mpi_finalize() {
    MPI_Finalize();
}

CTWIN_PLUGIN_EXPORT int ctwin_mpi_rank() {
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

CTWIN_PLUGIN_EXPORT int ctwin_mpi_size() {
    int n = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    return n;
}

/// `out` holds size() doubles on rank 0 (ignored elsewhere).
CTWIN_PLUGIN_EXPORT void ctwin_mpi_gather_double(double value, double* out) {
    MPI_Gather(&value, 1, MPI_DOUBLE, out, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
}

/// `out` holds size() ints on rank 0 (ignored elsewhere).
CTWIN_PLUGIN_EXPORT void ctwin_mpi_gather_int(int value, int* out) {
    MPI_Gather(&value, 1, MPI_INT, out, 1, MPI_INT, 0, MPI_COMM_WORLD);
}

/// Rank 0 receives every rank's `count` bytes into `out` at `displs` (counts and displs: size() entries).
CTWIN_PLUGIN_EXPORT void ctwin_mpi_gatherv_bytes(const unsigned char* bytes, int count, unsigned char* out,
                                                 const int* counts, const int* displs) {
    MPI_Gatherv(bytes, count, MPI_BYTE, out, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
}

CTWIN_PLUGIN_EXPORT void ctwin_mpi_abort(int code) {
    MPI_Abort(MPI_COMM_WORLD, code);
}
