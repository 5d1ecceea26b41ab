// Build-time tool: turns GSHHG's binned netCDF files (Debian package gmt-gshhg-low: binned_GSHHS_l.nc,
// binned_border_l.nc) into the site map's compact basemap (views/scene/site_map_basemap.h describes the
// format). Usage: gshhg_basemap SHORE.nc BORDER.nc OUT.ctmap
//
// GSHHG 2.3.7, P. Wessel and W. H. F. Smith, "A Global Self-consistent, Hierarchical, High-resolution
// Shoreline Database", J. Geophys. Res. 101(B4), 8741-8743, 1996; LGPL-3.0-or-later (Debian copyright file of
// gmt-gshhg-low). Layout of the binned files as GMT writes and reads them (the variable names and units are
// in the files): the globe in square bins of Bin_size_in_minutes, N_bins_in_360_longitude_range columns from
// 0 deg E eastward and rows from the north pole southward (bin = column + columns * row); each bin lists its
// segments (Id_of_first_segment_in_a_bin, N_segments_in_a_bin), each segment its points
// (Id_of_first_point_in_a_segment and, for shorelines, the point count in bits 9 and up of
// Embedded_npts_levels_exit_entry_for_a_segment with the hierarchy level in bits 6-8; for borders
// N_points_for_a_segment and Hierarchial_level_of_a_segment), and each point is an unsigned 16-bit offset
// from the bin's south-west corner in 1/65535 of the bin size.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <netcdf.h>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

/// Layers of the basemap file (views/scene/site_map_basemap.h, SiteMapBasemap::Kind).
enum Kind : std::uint8_t { Coast = 0, Lake = 1, Country = 2, State = 3 };

class NcFile {
public:
    explicit NcFile(const std::string& path) : m_path(path) {
        if (const int rc = nc_open(path.c_str(), NC_NOWRITE, &m_id))
            throw std::runtime_error(path + ": " + nc_strerror(rc));
    }
    ~NcFile() { nc_close(m_id); }
    NcFile(const NcFile&) = delete;
    NcFile& operator=(const NcFile&) = delete;

    std::vector<int> ints(const char* name) const {
        int var = 0;
        if (const int rc = nc_inq_varid(m_id, name, &var))
            throw std::runtime_error(m_path + ": variable " + name + ": " + nc_strerror(rc));
        std::vector<int> out(length(var));
        if (!out.empty())
            if (const int rc = nc_get_var_int(m_id, var, out.data()))
                throw std::runtime_error(m_path + ": variable " + name + ": " + nc_strerror(rc));
        return out;
    }
    /// A short variable read as the unsigned 16-bit values it stores.
    std::vector<std::uint16_t> ushorts(const char* name) const {
        int var = 0;
        if (const int rc = nc_inq_varid(m_id, name, &var))
            throw std::runtime_error(m_path + ": variable " + name + ": " + nc_strerror(rc));
        std::vector<short> raw(length(var));
        if (!raw.empty())
            if (const int rc = nc_get_var_short(m_id, var, raw.data()))
                throw std::runtime_error(m_path + ": variable " + name + ": " + nc_strerror(rc));
        std::vector<std::uint16_t> out(raw.size());
        for (std::size_t i = 0; i < raw.size(); ++i)
            out[i] = static_cast<std::uint16_t>(raw[i]);
        return out;
    }
    int scalar(const char* name) const {
        const auto v = ints(name);
        if (v.size() != 1) throw std::runtime_error(m_path + ": " + name + " is not a scalar");
        return v[0];
    }

private:
    std::size_t length(int var) const {
        int ndims = 0;
        int dims[NC_MAX_VAR_DIMS];
        nc_inq_varndims(m_id, var, &ndims);
        nc_inq_vardimid(m_id, var, dims);
        std::size_t n = 1;
        for (int d = 0; d < ndims; ++d) {
            std::size_t len = 0;
            nc_inq_dimlen(m_id, dims[d], &len);
            n *= len;
        }
        return n;
    }
    std::string m_path;
    int m_id = -1;
};

struct Polyline {
    Kind kind;
    std::vector<std::int32_t> lon, lat; // 1e-4 degree
};

/// Every segment of a binned file with the layer `kindOf(level)` gives it (a negative kind: left out).
template <typename KindOf>
void readBinned(const NcFile& f, bool shore, KindOf kindOf, std::vector<Polyline>& out) {
    const double binDeg = f.scalar("Bin_size_in_minutes") / 60.0;
    const int columns = f.scalar("N_bins_in_360_longitude_range");
    const auto firstSeg = f.ints("Id_of_first_segment_in_a_bin");
    const auto segCountRaw = f.ints("N_segments_in_a_bin");
    const auto firstPoint = f.ints("Id_of_first_point_in_a_segment");
    std::vector<int> npts, level;
    if (shore) {
        for (const int info : f.ints("Embedded_npts_levels_exit_entry_for_a_segment")) {
            npts.push_back(static_cast<int>(static_cast<unsigned>(info) >> 9));
            level.push_back((info >> 6) & 7);
        }
    } else {
        npts = f.ints("N_points_for_a_segment");
        level = f.ints("Hierarchial_level_of_a_segment");
    }
    const auto dx = f.ushorts("Relative_longitude_from_SW_corner_of_bin");
    const auto dy = f.ushorts("Relative_latitude_from_SW_corner_of_bin");
    if (npts.size() != firstPoint.size() || level.size() != firstPoint.size() || dx.size() != dy.size() ||
        segCountRaw.size() != firstSeg.size())
        throw std::runtime_error("inconsistent array sizes in a binned GSHHG file");
    for (std::size_t bin = 0; bin < firstSeg.size(); ++bin) {
        const double lonSw = static_cast<double>(bin % static_cast<std::size_t>(columns)) * binDeg;
        const double latSw = 90.0 - static_cast<double>(bin / static_cast<std::size_t>(columns) + 1) * binDeg;
        for (int k = 0; k < segCountRaw[bin]; ++k) {
            const auto seg = static_cast<std::size_t>(firstSeg[bin] + k);
            if (seg >= npts.size()) throw std::runtime_error("segment index out of range");
            const int kind = kindOf(level[seg]);
            if (kind < 0 || npts[seg] < 2) continue;
            const auto p0 = static_cast<std::size_t>(firstPoint[seg]);
            const auto n = static_cast<std::size_t>(npts[seg]);
            if (p0 + n > dx.size()) throw std::runtime_error("point index out of range");
            Polyline line{static_cast<Kind>(kind), {}, {}};
            for (std::size_t i = p0; i < p0 + n; ++i) {
                double lon = lonSw + dx[i] / 65535.0 * binDeg;
                const double lat = latSw + dy[i] / 65535.0 * binDeg;
                if (lon > 180.0) lon -= 360.0; // bins east of 180 deg E: west longitudes
                line.lon.push_back(static_cast<std::int32_t>(std::lround(lon * 1e4)));
                line.lat.push_back(static_cast<std::int32_t>(std::lround(lat * 1e4)));
            }
            out.push_back(std::move(line));
        }
    }
}

void put32(std::string& s, std::uint32_t v) {
    for (int i = 0; i < 4; ++i)
        s += static_cast<char>((v >> (8 * i)) & 0xff);
}
void put16(std::string& s, std::uint16_t v) {
    s += static_cast<char>(v & 0xff);
    s += static_cast<char>(v >> 8);
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: gshhg_basemap binned_GSHHS_l.nc binned_border_l.nc out.ctmap\n");
        return 2;
    }
    try {
        std::vector<Polyline> lines;
        std::string version;
        {
            const NcFile shore(argv[1]);
            // Shoreline levels: 1 land/ocean, 2 lake, 3 island in a lake, 4 pond, 5 Antarctic ice front,
            // 6 Antarctic grounding line (GSHHG README). The ice front is Antarctica's visible coast.
            readBinned(
                shore, true,
                [](int level) { return level == 1 || level == 5 ? Coast
                                       : level == 2             ? Lake
                                                                : -1; }, lines);
        }
        {
            const NcFile border(argv[2]);
            // Border levels: 1 national boundaries, 2 internal (US states, Canadian provinces, ...), 3
            // marine.
            readBinned(
                border, false, [](int level) { return level == 1   ? Country
                                                      : level == 2 ? State
                                                                   : -1; },
                lines);
        }
        // Header: a text line naming the format, the attribution the map shows, then a blank line.
        std::string out = "CTWIN-BASEMAP 1\n";
        out +=
            "attribution: Coastlines and borders: GSHHG 2.3.7 (Wessel & Smith 1996), LGPL-3.0-or-later\n\n";
        put32(out, static_cast<std::uint32_t>(lines.size()));
        std::size_t points = 0;
        for (const auto& l : lines) {
            out += static_cast<char>(l.kind);
            put32(out, static_cast<std::uint32_t>(l.lon.size()));
            put32(out, static_cast<std::uint32_t>(l.lon[0]));
            put32(out, static_cast<std::uint32_t>(l.lat[0]));
            for (std::size_t i = 1; i < l.lon.size(); ++i) {
                const std::int32_t dlon = l.lon[i] - l.lon[i - 1], dlat = l.lat[i] - l.lat[i - 1];
                if (dlon > -32768 && dlon <= 32767 && dlat > -32768 && dlat <= 32767) {
                    put16(out, static_cast<std::uint16_t>(static_cast<std::int16_t>(dlon)));
                    put16(out, static_cast<std::uint16_t>(static_cast<std::int16_t>(dlat)));
                } else {
                    // Escape: -32768, then the absolute point.
                    put16(out, 0x8000);
                    put32(out, static_cast<std::uint32_t>(l.lon[i]));
                    put32(out, static_cast<std::uint32_t>(l.lat[i]));
                }
            }
            points += l.lon.size();
        }
        const std::string temp = std::string(argv[3]) + ".tmp";
        {
            std::ofstream f(temp, std::ios::binary | std::ios::trunc);
            f.write(out.data(), static_cast<std::streamsize>(out.size()));
            if (!f.flush()) throw std::runtime_error(temp + ": cannot write");
        }
        if (std::rename(temp.c_str(), argv[3]) != 0)
            throw std::runtime_error(std::string(argv[3]) + ": cannot rename");
        std::printf("gshhg_basemap: %zu polylines, %zu points, %zu bytes -> %s\n", lines.size(), points,
                    out.size(), argv[3]);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gshhg_basemap: %s\n", e.what());
        return 1;
    }
    return 0;
}
