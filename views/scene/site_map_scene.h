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
