#pragma once
#include <cstdint>
#include <vector>

namespace ctwin::app {

/// The MPI calls behind `clustertwin-cli explore --mpi` (explore_command.cpp). Open MPI is linked into
/// libclustertwin-mpi.so (app/lean/mpi_plugin.cpp), not into the CLI: a plain command loads none of its
/// libraries. Constructing a session loads the plugin (RTLD_GLOBAL: Open MPI's own components resolve
/// symbols of libmpi) and calls MPI_Init; the destructor calls MPI_Finalize. Throws PluginError when the
/// plugin is missing or from another build. Collectives gather to rank 0; on other ranks they return
/// empty vectors.
class MpiSession {
public:
    MpiSession();
    ~MpiSession();
    MpiSession(const MpiSession&) = delete;
    MpiSession& operator=(const MpiSession&) = delete;

    int rank() const;
    int size() const;
    /// MPI_Gather of one double per rank.
    std::vector<double> gather(double value) const;
    /// MPI_Gather of one int per rank.
    std::vector<int> gather(int value) const;
    /// MPI_Gatherv of each rank's bytes; `counts` (rank 0: the byte count of every rank) and the result
    /// concatenate them in rank order.
    std::vector<std::uint8_t> gatherBytes(const std::vector<std::uint8_t>& bytes,
                                          const std::vector<int>& counts) const;
    /// MPI_Abort(MPI_COMM_WORLD, code).
    void abort(int code) const;
};

} // namespace ctwin::app
