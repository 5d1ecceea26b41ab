#pragma once
#include <algorithm>
#include <cctype>
#include <iosfwd>
#include <string>

namespace ctwin::app {

/// Exit code of `clustertwin-cli render` when no picture could be made (no X display, GL failure,
/// unwritable file); usage errors are 2 and invalid designs 3 as for the other commands.
inline constexpr int kExitRenderFailed = 4;

/// `clustertwin-cli render FILE --view campus|map --out file.png [--size WxH]`: loads the design (with the
/// default catalog), evaluates it (for thermal margins and link figures), builds the campus or the site
/// map and renders it offscreen at width x height into a PNG.
///
/// `view` is "campus" (racks coloured by power density), "campus:<metric>" with metric power, thermal,
/// type or loop, or "map". Debian's VTK renders through GLX, so this needs an X server: on a headless
/// machine run `xvfb-run -a clustertwin-cli render ...`. Writes messages to `err`; returns 0 on success.
int renderToPng(const std::string& designPath, const std::string& view, const std::string& outPng, int width,
                int height, std::ostream& err);

/// The format `render --out` asks for by its extension (case-insensitive): "png", "gltf", "glb" or "usda";
/// empty for any other.
/// Inline: the lean CLI checks the extension before it loads the render plugin.
inline std::string renderFormat(const std::string& outPath) {
    const auto slash = outPath.find_last_of('/');
    const auto dot = outPath.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
    std::string ext = outPath.substr(dot + 1);
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    return ext == "png" || ext == "gltf" || ext == "glb" || ext == "usda" ? ext : "";
}

/// `clustertwin-cli render FILE --out campus.glb|campus.gltf [--view campus|campus:<metric>]`: the 3D
/// campus as glTF 2.0 (views::writeGltf: .gltf self-contained JSON, .glb binary). Needs no display.
/// Returns 0, kExitUsage for a view glTF cannot hold, kExitInvalidInput for an unreadable design or one
/// with nothing to draw, kExitRenderFailed when the file cannot be written (nothing partial is left).
/// An `outPath` ending in .usda goes to renderToUsd (the CLI and the render plugin reach both through this
/// one entry point).
int renderToGltf(const std::string& designPath, const std::string& view, const std::string& outPath,
                 std::ostream& err);

/// `clustertwin-cli render FILE --out campus.usda`: the campus as OpenUSD ASCII (views::writeCampusUsda:
/// sites, buildings, halls, rows, racks and CDUs with real dimensions, racks and CDUs instancing one asset
/// per catalog type, SimReady AIF-Entity attributes and the engine's figures). Needs no display; `view` must
/// be campus (the default; a colour metric is accepted, the rack colours are power density). An empty design
/// writes a valid stage with an empty /Campus. Returns 0, kExitUsage for another view, kExitInvalidInput for
/// an unreadable design, kExitRenderFailed when the file cannot be written (nothing partial is left).
int renderToUsd(const std::string& designPath, const std::string& view, const std::string& outPath,
                std::ostream& err);

} // namespace ctwin::app
