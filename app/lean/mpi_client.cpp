// The CLI's side of `explore --mpi`: MpiSession (mpi_session.h) calls libclustertwin-mpi.so, loaded on the
// first session. The plugin's side is mpi_plugin.cpp.
#include "lean/mpi_session.h"
#include "lean/plugin_loader.h"

#include <string>

namespace ctwin::app {

namespace {
template <class Fn> Fn mpi(const char* symbol) {
    return pluginFunction<Fn>("mpi", symbol, PluginScope::Global);
}
} // namespace

MpiSession::MpiSession() {
    mpi<void (*)()>("ctwin_mpi_init")();
}

MpiSession::~MpiSession() {
    mpi<void (*)()>("ctwin_mpi_finalize")();
}

int MpiSession::rank() const {
    return mpi<int (*)()>("ctwin_mpi_rank")();
}

int MpiSession::size() const {
    return mpi<int (*)()>("ctwin_mpi_size")();
}

std::vector<double> MpiSession::gather(double value) const {
    std::vector<double> all(static_cast<size_t>(rank() == 0 ? size() : 0));
    mpi<void (*)(double, double*)>("ctwin_mpi_gather_double")(value, all.data());
    return all;
}

std::vector<int> MpiSession::gather(int value) const {
    std::vector<int> all(static_cast<size_t>(rank() == 0 ? size() : 0));
    mpi<void (*)(int, int*)>("ctwin_mpi_gather_int")(value, all.data());
    return all;
}

std::vector<std::uint8_t> MpiSession::gatherBytes(const std::vector<std::uint8_t>& bytes,
                                                  const std::vector<int>& counts) const {
    std::vector<int> displs(counts.size());
    size_t total = 0;
    for (size_t r = 0; r < counts.size(); ++r) {
        displs[r] = static_cast<int>(total);
        total += static_cast<size_t>(counts[r]);
    }
    std::vector<std::uint8_t> all(total);
    using Fn = void (*)(const unsigned char*, int, unsigned char*, const int*, const int*);
    mpi<Fn>("ctwin_mpi_gatherv_bytes")(bytes.data(), static_cast<int>(bytes.size()), all.data(),
                                       counts.data(), displs.data());
    return all;
}

void MpiSession::abort(int code) const {
    mpi<void (*)(int)>("ctwin_mpi_abort")(code);
}

} // namespace ctwin::app
