#pragma once
#include "scene_source.h"
#include "site_map_data.h"

#include <array>
#include <memory>
#include <string>
#include <vector>

class vtkRenderer;
class vtkTextActor;

namespace ctwin::views {

/// The site map as VTK props in one vtkRenderer (no Qt), seen from above with a parallel projection:
/// graticule with degree labels, site markers and names, scale-across links as arcs labelled with km,
/// one-way ms and Tbps (over-budget links in the warning colour), and a notice for what could not be shown.
class SiteMapScene {
public:
    SiteMapScene();
    ~SiteMapScene();
    SiteMapScene(const SiteMapScene&) = delete;
    SiteMapScene& operator=(const SiteMapScene&) = delete;

    vtkRenderer* renderer() const;
    void showProject(const SceneSource& source);
    void showData(SiteMapData data);
    const SiteMapData& data() const { return m_data; }
    void resetCamera();
    /// Places the link labels again for the current view size and zoom (after a resize).
    void relayoutLabels() { placeLinkLabels(); }

    /// Map coordinates (km) under a VTK display point (device pixels, origin bottom-left) of the window the
    /// renderer is shown in, and back; the camera looks straight down with a parallel projection.
    Vec2 worldAt(double displayX, double displayY) const;
    std::array<double, 2> displayOf(Vec2 km) const;
    /// Map km per display pixel at the current zoom (hit tolerances).
    double kmPerPixel() const;
    /// A dashed line from a site to the cursor while a link is dragged on the map; hidden by clear.
    void showLinkPreview(Vec2 from, Vec2 to);
    void clearLinkPreview();
    bool linkPreviewVisible() const;

    /// A text or marker on the map as drawn: its display rectangle (device pixels, origin bottom-left; x0,
    /// y0, x1, y1) at the current camera, and what it is ("site", "name", "link", "caption", "graticule").
    struct DrawnRect {
        std::string what;
        std::string text;
        std::array<double, 4> rect{};
    };
    /// Site markers, site names, link labels, graticule labels and the caption, where they are drawn now
    /// (text extents from the font renderer); what the overlap tests check.
    std::vector<DrawnRect> drawnRects() const;

    /// Test hooks.
    std::size_t textActorCount() const;
    bool noticeVisible() const;
    std::string noticeText() const;

private:
    struct Vtk;
    void rebuildActors();
    /// Places each link's label beside its arc where it covers no site marker, site name or other link
    /// label at the fitted view: along the arc near its middle, pushed off it along the arc's normal as
    /// far as needed. Offsets are display pixels from a point of the arc, so the label stays beside its
    /// arc at any zoom.
    void placeLinkLabels();
    /// A label's text extent in display pixels (font renderer at 72 dpi, as VTK draws it), plus padding.
    static Vec2 textSizePx(vtkTextActor* actor, double padding);
    /// The view height the map is fitted to: the renderer's, else 800 px before it is first shown.
    static double fittedHeightPx(vtkRenderer* ren);

    std::unique_ptr<Vtk> m_vtk;
    SiteMapData m_data;
};

} // namespace ctwin::views
