#pragma once
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

} // namespace ctwin::app
