#pragma once
#include "scene_source.h"
#include "site_map_data.h"

#include <memory>
#include <string>

class vtkRenderer;

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

    /// Test hooks.
    std::size_t textActorCount() const;
    bool noticeVisible() const;
    std::string noticeText() const;

private:
    struct Vtk;
    void rebuildActors();

    std::unique_ptr<Vtk> m_vtk;
    SiteMapData m_data;
};

} // namespace ctwin::views
