#include "site_map_basemap.h"

#include "input_error.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>

namespace ctwin::views {

namespace {

[[noreturn]] void bad(const std::string& path, const std::string& problem) {
    model::InputLocation where;
    where.file = path;
    throw model::InputError(where, problem);
}

class Bytes {
public:
    Bytes(const std::string& data, std::size_t at, const std::string& path)
        : m_d(data), m_at(at), m_path(path) {}
    std::size_t left() const { return m_d.size() - m_at; }
    void need(std::size_t n) const {
        if (left() < n)
            bad(m_path, "truncated basemap (" + std::to_string(m_at) + " of " + std::to_string(m_d.size()) +
                            " bytes read)");
    }
    std::uint8_t u8() {
        need(1);
        return static_cast<std::uint8_t>(m_d[m_at++]);
    }
    std::uint16_t u16() {
        need(2);
        const auto v = static_cast<std::uint16_t>(static_cast<std::uint8_t>(m_d[m_at]) |
                                                  (static_cast<std::uint8_t>(m_d[m_at + 1]) << 8));
        m_at += 2;
        return v;
    }
    std::uint32_t u32() {
        need(4);
        std::uint32_t v = 0;
        for (int i = 0; i < 4; ++i)
            v |= static_cast<std::uint32_t>(static_cast<std::uint8_t>(m_d[m_at + i])) << (8 * i);
        m_at += 4;
        return v;
    }

private:
    const std::string& m_d;
    std::size_t m_at;
    const std::string& m_path;
};

constexpr char kFileName[] = "basemap/gshhg-low.ctmap";

std::mutex g_mutex;
std::string g_path;
bool g_loaded = false;
std::unique_ptr<SiteMapBasemap> g_basemap;
std::string g_problem;

std::string defaultPath() {
    if (const char* env = std::getenv("CTWIN_DATA_DIR"); env && *env) {
        const auto p = std::filesystem::path(env) / kFileName;
        if (std::filesystem::exists(p)) return p.string();
    }
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) return (exe.parent_path().parent_path() / "share/clustertwin" / kFileName).string();
    return kFileName;
}

} // namespace

SiteMapBasemap SiteMapBasemap::load(const std::string& path) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) bad(path, "cannot read the basemap: " + ec.message());
    if (size > kMaxFileBytes) bad(path, "basemap larger than " + std::to_string(kMaxFileBytes) + " bytes");
    std::ifstream in(path, std::ios::binary);
    std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) bad(path, "cannot read the basemap");

    SiteMapBasemap map;
    // Header lines up to the empty one.
    std::size_t at = 0;
    const auto line = [&]() {
        const auto eol = data.find('\n', at);
        if (eol == std::string::npos || eol - at > 4096) bad(path, "not a ClusterTwin basemap (bad header)");
        std::string l = data.substr(at, eol - at);
        at = eol + 1;
        return l;
    };
    if (line() != "CTWIN-BASEMAP 1") bad(path, "not a ClusterTwin basemap (expected CTWIN-BASEMAP 1)");
    for (std::string l = line(); !l.empty(); l = line())
        if (l.rfind("attribution: ", 0) == 0) map.m_attribution = l.substr(13);
    if (map.m_attribution.empty()) bad(path, "basemap without an attribution line");

    Bytes b(data, at, path);
    const std::uint32_t count = b.u32();
    // Each polyline takes at least 1 + 4 + 8 + 4 bytes: a count the file cannot hold is refused up front.
    if (count > b.left() / 17)
        bad(path, "basemap polyline count " + std::to_string(count) + " exceeds the file");
    map.m_lines.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
        Line l;
        const auto kind = b.u8();
        if (kind > 3)
            bad(path, "basemap polyline " + std::to_string(i) + " of unknown kind " + std::to_string(kind));
        l.kind = static_cast<Kind>(kind);
        const std::uint32_t n = b.u32();
        if (n < 2 || n - 1 > (b.left() - 8) / 4)
            bad(path,
                "basemap polyline " + std::to_string(i) + " has a bad point count " + std::to_string(n));
        l.points.reserve(n);
        auto lon = static_cast<std::int32_t>(b.u32()), lat = static_cast<std::int32_t>(b.u32());
        const auto push = [&] {
            if (lon < -1800000 || lon > 1800000 || lat < -900000 || lat > 900000)
                bad(path, "basemap polyline " + std::to_string(i) + " leaves the globe");
            l.points.push_back({lon * 1e-4, lat * 1e-4});
        };
        push();
        for (std::uint32_t k = 1; k < n; ++k) {
            const auto dlon = static_cast<std::int16_t>(b.u16());
            if (dlon == -32768) {
                lon = static_cast<std::int32_t>(b.u32());
                lat = static_cast<std::int32_t>(b.u32());
            } else {
                lon += dlon;
                lat += static_cast<std::int16_t>(b.u16());
            }
            push();
        }
        map.m_lines.push_back(std::move(l));
    }
    return map;
}

const SiteMapBasemap* SiteMapBasemap::shared() {
    const std::lock_guard lock(g_mutex);
    if (!g_loaded) {
        g_loaded = true;
        const std::string path = g_path.empty() ? defaultPath() : g_path;
        try {
            g_basemap = std::make_unique<SiteMapBasemap>(load(path));
            g_problem.clear();
        } catch (const std::exception& e) {
            g_basemap.reset();
            g_problem = e.what();
        }
    }
    return g_basemap.get();
}

std::string SiteMapBasemap::sharedProblem() {
    const std::lock_guard lock(g_mutex);
    return g_problem;
}

void SiteMapBasemap::setSharedPath(const std::string& path) {
    const std::lock_guard lock(g_mutex);
    if (path == g_path && g_loaded) return;
    g_path = path;
    g_loaded = false;
}

} // namespace ctwin::views
