#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ctwin::views {

/// The site map's basemap: coastlines, lakes, country and state borders as longitude/latitude polylines,
/// read from the compact file the build makes from GSHHG (tools/basemap/gshhg_basemap.cpp, Debian package
/// gmt-gshhg-low) into share/clustertwin/basemap/gshhg-low.ctmap.
///
/// File format (little-endian): a text header "CTWIN-BASEMAP 1\n", "attribution: <text>\n", an empty line;
/// then uint32 polyline count and per polyline: uint8 kind (Kind), uint32 point count n (>= 2), int32 lon and
/// lat of the first point in 1e-4 degrees, then n - 1 steps of int16 dlon, dlat (1e-4 degrees), where a dlon
/// of -32768 is followed by the absolute int32 lon and lat instead. Reading is bounded: every count is
/// checked against the bytes left, and a file over kMaxFileBytes is refused.
class SiteMapBasemap {
public:
    enum class Kind : std::uint8_t { Coast = 0, Lake = 1, Country = 2, State = 3 };
    struct Line {
        Kind kind = Kind::Coast;
        /// Longitude, latitude (degrees).
        std::vector<std::array<double, 2>> points;
    };

    static constexpr std::size_t kMaxFileBytes = 64u << 20;

    /// Reads a basemap file; throws model::InputError naming the file and what is wrong.
    static SiteMapBasemap load(const std::string& path);

    /// The basemap the site map draws, loaded once: from setSharedPath()'s file, else
    /// $CTWIN_DATA_DIR/basemap/gshhg-low.ctmap, else
    /// <executable>/../share/clustertwin/basemap/gshhg-low.ctmap (the build tree and the installed package
    /// alike, as app::dataDirectory() finds the catalog). Null when the file is missing or unreadable;
    /// sharedProblem() says why.
    static const SiteMapBasemap* shared();
    static std::string sharedProblem();
    /// Where shared() reads from (the app and the CLI pass their data directory's file); takes effect for the
    /// next shared() call.
    static void setSharedPath(const std::string& path);

    const std::string& attribution() const { return m_attribution; }
    const std::vector<Line>& lines() const { return m_lines; }

private:
    std::string m_attribution;
    std::vector<Line> m_lines;
};

} // namespace ctwin::views
