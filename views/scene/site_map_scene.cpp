#include "site_map_scene.h"

#include "site_map_builder.h"

#include <algorithm>
#include <cstdio>
#include <vector>
#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkGlyph3DMapper.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRegularPolygonSource.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkTextRenderer.h>
#include <vtkUnsignedCharArray.h>

namespace ctwin::views {

namespace {

/// 2D text anchored at a map point (cached texture; cheap for a software renderer).
vtkSmartPointer<vtkTextActor> text3d(const std::string& s, double x, double y, double z, int size,
                                     const double rgb[3], double bgOpacity) {
    auto a = vtkSmartPointer<vtkTextActor>::New();
    a->SetInput(s.c_str());
    a->GetPositionCoordinate()->SetCoordinateSystemToWorld();
    a->GetPositionCoordinate()->SetValue(x, y, z);
    auto* tp = a->GetTextProperty();
    tp->SetFontSize(size);
    tp->SetColor(rgb[0], rgb[1], rgb[2]);
    tp->SetJustificationToCentered();
    tp->SetVerticalJustificationToCentered();
    if (bgOpacity > 0) {
        tp->SetBackgroundColor(0.05, 0.07, 0.1);
        tp->SetBackgroundOpacity(bgOpacity);
    }
    return a;
}

} // namespace

struct SiteMapScene::Vtk {
    vtkSmartPointer<vtkRenderer> renderer = vtkSmartPointer<vtkRenderer>::New();
    std::vector<vtkSmartPointer<vtkProp>> texts;
    /// Labels by what they name (placement and the overlap hooks).
    std::vector<vtkSmartPointer<vtkTextActor>> siteNames, linkLabels, graticuleLabels;
    vtkSmartPointer<vtkTextActor> notice = vtkSmartPointer<vtkTextActor>::New();
    vtkSmartPointer<vtkTextActor> caption = vtkSmartPointer<vtkTextActor>::New();
    /// The link being dragged on the map (two points, one line).
    vtkSmartPointer<vtkPoints> previewPoints = vtkSmartPointer<vtkPoints>::New();
    vtkSmartPointer<vtkActor> preview = vtkSmartPointer<vtkActor>::New();
};

SiteMapScene::SiteMapScene() : m_vtk(std::make_unique<Vtk>()) {
    auto& v = *m_vtk;
    v.renderer->GradientBackgroundOn();
    v.renderer->SetBackground(0.05, 0.08, 0.13);
    v.renderer->SetBackground2(0.12, 0.18, 0.27);
    v.renderer->GetActiveCamera()->ParallelProjectionOn();
    for (vtkTextActor* t : {v.notice.Get(), v.caption.Get()}) {
        t->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
        t->GetTextProperty()->SetFontSize(13);
    }
    v.notice->SetPosition(0.01, 0.98);
    v.notice->GetTextProperty()->SetVerticalJustificationToTop();
    v.notice->GetTextProperty()->SetColor(1.0, 0.84, 0.35);
    v.notice->GetTextProperty()->SetBackgroundColor(0.05, 0.05, 0.05);
    v.notice->GetTextProperty()->SetBackgroundOpacity(0.7);
    v.caption->SetPosition(0.01, 0.015);
    v.caption->GetTextProperty()->SetColor(0.75, 0.8, 0.88);
    v.previewPoints->SetNumberOfPoints(2);
    v.previewPoints->SetPoint(0, 0.0, 0.0, 4.0);
    v.previewPoints->SetPoint(1, 0.0, 0.0, 4.0);
    auto line = vtkSmartPointer<vtkCellArray>::New();
    line->InsertNextCell(2);
    line->InsertCellPoint(0);
    line->InsertCellPoint(1);
    auto pd = vtkSmartPointer<vtkPolyData>::New();
    pd->SetPoints(v.previewPoints);
    pd->SetLines(line);
    auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    mapper->SetInputData(pd);
    v.preview->SetMapper(mapper);
    v.preview->GetProperty()->SetColor(1.0, 0.78, 0.3); // the site markers' colour
    v.preview->GetProperty()->SetLineWidth(2.5);
    v.preview->GetProperty()->SetLineStipplePattern(0xf0f0);
    v.preview->GetProperty()->LightingOff();
    v.preview->SetVisibility(false);
}

SiteMapScene::~SiteMapScene() = default;

vtkRenderer* SiteMapScene::renderer() const {
    return m_vtk->renderer;
}

void SiteMapScene::showProject(const SceneSource& source) {
    showData(SiteMapBuilder::build(source));
}

void SiteMapScene::showData(SiteMapData data) {
    m_data = std::move(data);
    rebuildActors();
}

namespace {
/// Height of the band at the bottom of the view kept for the caption (display pixels).
constexpr double kCaptionBandPx = 48.0; // two caption lines

/// Adds one unlit line actor for a set of polylines at height z (nothing when there are none).
void addLines(vtkRenderer* renderer, const std::vector<std::vector<Vec2>>& polylines, double z,
              const double rgb[3], double opacity, double width) {
    if (polylines.empty()) return;
    auto pts = vtkSmartPointer<vtkPoints>::New();
    auto lines = vtkSmartPointer<vtkCellArray>::New();
    for (const auto& line : polylines) {
        lines->InsertNextCell(static_cast<int>(line.size()));
        for (const auto& p : line)
            lines->InsertCellPoint(pts->InsertNextPoint(p[0], p[1], z));
    }
    auto pd = vtkSmartPointer<vtkPolyData>::New();
    pd->SetPoints(pts);
    pd->SetLines(lines);
    auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    mapper->SetInputData(pd);
    auto actor = vtkSmartPointer<vtkActor>::New();
    actor->SetMapper(mapper);
    actor->GetProperty()->SetColor(rgb[0], rgb[1], rgb[2]);
    actor->GetProperty()->SetOpacity(opacity);
    actor->GetProperty()->SetLineWidth(static_cast<float>(width));
    actor->GetProperty()->LightingOff();
    renderer->AddActor(actor);
}

/// Adds the basemap: state borders faint, then country borders, then coastlines.
void addBasemap(vtkRenderer* renderer, const SiteMapData& data) {
    const double state[3] = {0.78, 0.66, 0.52}, country[3] = {0.93, 0.76, 0.55},
                 coast[3] = {0.55, 0.80, 0.86};
    addLines(renderer, data.stateBorders, -0.3, state, 0.45, 1.0);
    addLines(renderer, data.countryBorders, -0.2, country, 0.8, 1.4);
    addLines(renderer, data.coastlines, -0.1, coast, 0.95, 1.6);
}

/// Adds the links' arcs as one actor with per-point colours (links with fewer than two points skipped).
void addLinkLines(vtkRenderer* renderer, const std::vector<MapLink>& links) {
    auto pts = vtkSmartPointer<vtkPoints>::New();
    auto lines = vtkSmartPointer<vtkCellArray>::New();
    auto rgb = vtkSmartPointer<vtkUnsignedCharArray>::New();
    rgb->SetName("rgb");
    rgb->SetNumberOfComponents(3);
    for (const auto& l : links) {
        if (l.path.size() < 2) continue;
        lines->InsertNextCell(static_cast<int>(l.path.size()));
        for (const auto& p : l.path) {
            lines->InsertCellPoint(pts->InsertNextPoint(p[0], p[1], 1.0));
            const unsigned char c[3] = {l.color.r, l.color.g, l.color.b};
            rgb->InsertNextTypedTuple(c);
        }
    }
    auto pd = vtkSmartPointer<vtkPolyData>::New();
    pd->SetPoints(pts);
    pd->SetLines(lines);
    pd->GetPointData()->SetScalars(rgb);
    auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    mapper->SetInputData(pd);
    mapper->SetColorModeToDirectScalars();
    auto actor = vtkSmartPointer<vtkActor>::New();
    actor->SetMapper(mapper);
    actor->GetProperty()->SetLineWidth(3.0);
    actor->GetProperty()->LightingOff();
    renderer->AddActor(actor);
}

/// Adds the site markers: one disc glyph of the marker radius per site.
void addSiteDiscs(vtkRenderer* renderer, const std::vector<MapSite>& sites, double markerRadiusKm) {
    auto pts = vtkSmartPointer<vtkPoints>::New();
    for (const auto& s : sites)
        pts->InsertNextPoint(s.position[0], s.position[1], 2.0);
    auto pd = vtkSmartPointer<vtkPolyData>::New();
    pd->SetPoints(pts);
    auto disc = vtkSmartPointer<vtkRegularPolygonSource>::New();
    disc->SetNumberOfSides(32);
    disc->SetRadius(markerRadiusKm);
    auto mapper = vtkSmartPointer<vtkGlyph3DMapper>::New();
    mapper->SetInputData(pd);
    mapper->SetSourceConnection(disc->GetOutputPort());
    mapper->ScalingOff();
    mapper->ScalarVisibilityOff();
    auto actor = vtkSmartPointer<vtkActor>::New();
    actor->SetMapper(mapper);
    actor->GetProperty()->SetColor(1.0, 0.78, 0.3);
    actor->GetProperty()->LightingOff();
    renderer->AddActor(actor);
}

/// The notices joined one per line (empty when there are none).
std::string joinedNotices(const SiteMapData& data) {
    std::string notice;
    for (std::size_t i = 0; i < data.notices.size(); ++i)
        notice += (i ? "\n" : "") + data.notices[i];
    return notice;
}

/// The two-line caption: projection, graticule and link legend, then the basemap's attribution.
std::string captionFor(const SiteMapData& data) {
    char caption[200];
    std::snprintf(caption, sizeof caption,
                  "Equirectangular projection, standard parallel %.1f\xc2\xb0, graticule %.0f\xc2\xb0. "
                  "Links: route km, "
                  "one-way latency at 4.9 us/km, capacity.",
                  data.standardParallelDeg, data.graticuleStepDeg);
    // Second line: where the coastlines and borders come from (GSHHG's LGPL asks for attribution), or why
    // there are none.
    std::string text = caption;
    text += "\n" + (data.basemapAttribution.empty() ? "No basemap: " + data.basemapProblem
                                                 : data.basemapAttribution);
    return text;
}
} // namespace

void SiteMapScene::rebuildActors() {
    auto& v = *m_vtk;
    v.renderer->RemoveAllViewProps();
    v.texts.clear();
    v.siteNames.clear();
    v.linkLabels.clear();
    v.graticuleLabels.clear();

    // Basemap (GSHHG): state borders faint, then country borders, then coastlines, under everything else.
    addBasemap(v.renderer, m_data);

    // Graticule.
    const double graticule[3] = {0.45, 0.55, 0.68};
    addLines(v.renderer, m_data.graticule, 0.0, graticule, 0.45, 1.0);
    const double grey[3] = {0.62, 0.70, 0.80};
    for (const auto& l : m_data.graticuleLabels) {
        auto t = text3d(l.text, l.position[0], l.position[1], 0.5, 11, grey, 0.0);
        v.texts.push_back(t);
        v.graticuleLabels.push_back(t);
        v.renderer->AddActor2D(t);
    }

    // Links: polylines coloured per link.
    addLinkLines(v.renderer, m_data.links);
    for (const auto& l : m_data.links) {
        const double rgb[3] = {l.color.r / 255.0, l.color.g / 255.0, l.color.b / 255.0};
        auto t = text3d(l.label, l.labelPosition[0], l.labelPosition[1], 3.0, 13, rgb, 0.75);
        v.texts.push_back(t);
        v.linkLabels.push_back(t);
        v.renderer->AddActor2D(t);
    }

    // Sites: discs and names.
    addSiteDiscs(v.renderer, m_data.sites, m_data.markerRadiusKm);
    const double white[3] = {1.0, 1.0, 1.0};
    for (const auto& s : m_data.sites) {
        auto t =
            text3d(s.name, s.position[0], s.position[1] + 3.5 * m_data.markerRadiusKm, 3.0, 14, white, 0.6);
        v.texts.push_back(t);
        v.siteNames.push_back(t);
        v.renderer->AddActor2D(t);
    }

    const std::string notice = joinedNotices(m_data);
    v.notice->SetInput(notice.c_str());
    v.notice->SetVisibility(!notice.empty());
    v.renderer->AddActor2D(v.notice);
    const std::string caption = captionFor(m_data);
    v.caption->SetInput(caption.c_str());
    v.renderer->AddActor2D(v.caption);
    v.renderer->AddActor(v.preview);
    resetCamera();
}

namespace {

/// The top-down parallel view of a renderer: the viewport's centre is the camera's focal point and its
/// height spans twice the parallel scale, so one display pixel is `kmPerPixel` km in x and y.
struct PlanarView {
    double cx = 0, cy = 0;  ///< viewport centre, display pixels
    double fx = 0, fy = 0;  ///< focal point, km
    double kmPerPixel = 1.0;
};

PlanarView planarView(vtkRenderer* ren) {
    const bool shown = ren->GetRenderWindow() != nullptr;
    const int* size = shown ? ren->GetSize() : nullptr;
    const int* origin = shown ? ren->GetOrigin() : nullptr;
    const double w = size && size[0] > 0 ? size[0] : 1.0, h = size && size[1] > 0 ? size[1] : 1.0;
    vtkCamera* cam = ren->GetActiveCamera();
    double f[3];
    cam->GetFocalPoint(f);
    return {(origin ? origin[0] : 0.0) + w / 2.0, (origin ? origin[1] : 0.0) + h / 2.0, f[0], f[1],
            2.0 * cam->GetParallelScale() / h};
}

} // namespace

Vec2 SiteMapScene::worldAt(double displayX, double displayY) const {
    const PlanarView v = planarView(m_vtk->renderer);
    return {v.fx + (displayX - v.cx) * v.kmPerPixel, v.fy + (displayY - v.cy) * v.kmPerPixel};
}

std::array<double, 2> SiteMapScene::displayOf(Vec2 km) const {
    const PlanarView v = planarView(m_vtk->renderer);
    return {v.cx + (km[0] - v.fx) / v.kmPerPixel, v.cy + (km[1] - v.fy) / v.kmPerPixel};
}

double SiteMapScene::kmPerPixel() const {
    return planarView(m_vtk->renderer).kmPerPixel;
}

void SiteMapScene::showLinkPreview(Vec2 from, Vec2 to) {
    auto& v = *m_vtk;
    v.previewPoints->SetPoint(0, from[0], from[1], 4.0);
    v.previewPoints->SetPoint(1, to[0], to[1], 4.0);
    v.previewPoints->Modified();
    v.preview->SetVisibility(true);
}

void SiteMapScene::clearLinkPreview() {
    m_vtk->preview->SetVisibility(false);
}

bool SiteMapScene::linkPreviewVisible() const {
    return m_vtk->preview->GetVisibility() != 0;
}

void SiteMapScene::resetCamera() {
    vtkRenderer* ren = m_vtk->renderer;
    const auto& b = m_data.bounds;
    const double cx = (b[0] + b[1]) / 2, cy = (b[2] + b[3]) / 2;
    vtkCamera* cam = ren->GetActiveCamera();
    cam->ParallelProjectionOn();
    cam->SetFocalPoint(cx, cy, 0.0);
    cam->SetPosition(cx, cy, 1000.0);
    cam->SetViewUp(0.0, 1.0, 0.0);
    // Fit the map: parallel scale is half the view height; respect the viewport's aspect when known.
    double aspect = 1.6;
    if (ren->GetRenderWindow()) {
        const int* size = ren->GetSize();
        if (size[0] > 0 && size[1] > 0) aspect = static_cast<double>(size[0]) / size[1];
    }
    const double halfH = (b[3] - b[2]) / 2, halfW = (b[1] - b[0]) / 2;
    const double scale = std::max(halfH, halfW / aspect) * 1.05;
    // The caption takes the bottom kCaptionBandPx of the view: widen the view downwards by that band so
    // the map's bottom edge and its longitude labels stay above it.
    const double kmPerPx = 2.0 * scale / fittedHeightPx(ren);
    const double band = kCaptionBandPx * kmPerPx;
    cam->SetFocalPoint(cx, cy - band / 2, 0.0);
    cam->SetPosition(cx, cy - band / 2, 1000.0);
    cam->SetParallelScale(scale + band / 2);
    ren->ResetCameraClippingRange(b[0], b[1], b[2] - band, b[3], -10.0, 10.0);
    placeLinkLabels();
}

void SiteMapScene::placeLinkLabels() {
    auto& v = *m_vtk;
    if (v.linkLabels.size() != m_data.links.size()) return;
    vtkRenderer* ren = v.renderer;
    vtkCamera* cam = ren->GetActiveCamera();
    double f[3];
    cam->GetFocalPoint(f);
    const double kmPerPx = 2.0 * cam->GetParallelScale() / fittedHeightPx(ren);
    // Fitted-view pixels relative to the focal point; boxes are x0, y0, x1, y1.
    const auto px = [&](const Vec2& km) { return Vec2{(km[0] - f[0]) / kmPerPx, (km[1] - f[1]) / kmPerPx}; };
    using Box = std::array<double, 4>;
    const auto boxAt = [](const Vec2& c, const Vec2& size) {
        return Box{c[0] - size[0] / 2, c[1] - size[1] / 2, c[0] + size[0] / 2, c[1] + size[1] / 2};
    };
    const auto overlaps = [](const Box& a, const Box& b) {
        return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
    };
    std::vector<Box> taken;
    const double r = m_data.markerRadiusKm / kmPerPx + 2.0;
    for (std::size_t i = 0; i < m_data.sites.size(); ++i) {
        const Vec2 c = px(m_data.sites[i].position);
        taken.push_back({c[0] - r, c[1] - r, c[0] + r, c[1] + r});
        if (i < v.siteNames.size())
            taken.push_back(boxAt(
                px({m_data.sites[i].position[0], m_data.sites[i].position[1] + 3.5 * m_data.markerRadiusKm}),
                textSizePx(v.siteNames[i], 4.0)));
    }
    for (std::size_t i = 0; i < m_data.links.size(); ++i) {
        const MapLink& link = m_data.links[i];
        vtkTextActor* label = v.linkLabels[i];
        if (link.path.size() < 2) continue; // both ends on one site: labelled under the site
        const Vec2 size = textSizePx(label, 4.0);
        // Candidates: points along the arc from its middle outwards, each pushed off the arc along the
        // normal by 0, 1, 2 ... half-heights of the label plus a gap, on either side.
        const std::size_t n = link.path.size() - 1;
        bool placed = false;
        Vec2 anchor = link.path[n / 2], offset{0, 0};
        for (const double t : {0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8}) {
            const std::size_t k = std::clamp<std::size_t>(static_cast<std::size_t>(t * n + 0.5), 1, n);
            const Vec2 a = px(link.path[k - 1]), b = px(link.path[k]);
            const double dx = b[0] - a[0], dy = b[1] - a[1], len = std::hypot(dx, dy);
            const Vec2 normal = len > 0 ? Vec2{-dy / len, dx / len} : Vec2{0.0, 1.0};
            const Vec2 at = px(link.path[k]);
            // How far the box's edge reaches along the normal from its centre.
            const double reach = std::abs(normal[0]) * size[0] / 2 + std::abs(normal[1]) * size[1] / 2;
            for (const double push : {0.0, 1.0, -1.0, 2.0, -2.0, 3.0, -3.0, 4.0, -4.0}) {
                const double d = push == 0.0 ? 0.0 : push * (reach + 6.0);
                const Vec2 c{at[0] + normal[0] * d, at[1] + normal[1] * d};
                const Box box = boxAt(c, size);
                if (std::none_of(taken.begin(), taken.end(),
                                 [&](const Box& o) { return overlaps(o, box); })) {
                    anchor = link.path[k];
                    offset = {normal[0] * d, normal[1] * d};
                    taken.push_back(box);
                    placed = true;
                    break;
                }
            }
            if (placed) break;
        }
        // Anchored on the arc, offset in display pixels: beside its arc at any zoom.
        vtkCoordinate* pos = label->GetPositionCoordinate();
        auto ref = vtkSmartPointer<vtkCoordinate>::New();
        ref->SetCoordinateSystemToWorld();
        ref->SetValue(anchor[0], anchor[1], 3.0);
        pos->SetCoordinateSystemToDisplay();
        pos->SetReferenceCoordinate(ref);
        pos->SetValue(offset[0], offset[1], 0.0);
    }
}

Vec2 SiteMapScene::textSizePx(vtkTextActor* actor, double padding) {
    int bbox[4] = {0, 0, 0, 0};
    const char* text = actor->GetInput();
    if (text && *text)
        vtkTextRenderer::GetInstance()->GetBoundingBox(actor->GetTextProperty(), std::string(text), bbox, 72);
    return {bbox[1] - bbox[0] + 2 * padding, bbox[3] - bbox[2] + 2 * padding};
}

double SiteMapScene::fittedHeightPx(vtkRenderer* ren) {
    // Before the map is first shown it has no size: lay out for a typical map pane.
    if (ren->GetRenderWindow()) {
        const int* size = ren->GetSize();
        if (size[0] > 0 && size[1] > 1) return size[1];
    }
    return 800.0;
}

std::vector<SiteMapScene::DrawnRect> SiteMapScene::drawnRects() const {
    auto& v = *m_vtk;
    vtkRenderer* ren = v.renderer;
    std::vector<DrawnRect> out;
    const auto textRect = [&](const char* what, vtkTextActor* a) {
        double* d = a->GetPositionCoordinate()->GetComputedDoubleDisplayValue(ren);
        const Vec2 size = textSizePx(a, 0.0);
        const char* t = a->GetInput();
        // Centred labels are centred on their position; the caption starts at its own.
        const bool centred = a->GetTextProperty()->GetJustification() == VTK_TEXT_CENTERED;
        const double x0 = centred ? d[0] - size[0] / 2 : d[0];
        const double y0 = centred ? d[1] - size[1] / 2 : d[1];
        out.push_back({what, t ? t : "", {x0, y0, x0 + size[0], y0 + size[1]}});
    };
    for (const auto& a : v.siteNames)
        textRect("name", a);
    for (const auto& a : v.linkLabels)
        textRect("link", a);
    for (const auto& a : v.graticuleLabels)
        textRect("graticule", a);
    textRect("caption", v.caption);
    for (const auto& s : m_data.sites) {
        const auto c = displayOf(s.position);
        const double r = m_data.markerRadiusKm / kmPerPixel();
        out.push_back({"site", s.name, {c[0] - r, c[1] - r, c[0] + r, c[1] + r}});
    }
    return out;
}

std::size_t SiteMapScene::textActorCount() const {
    return m_vtk->texts.size();
}
bool SiteMapScene::noticeVisible() const {
    return m_vtk->notice->GetVisibility() != 0;
}
std::string SiteMapScene::noticeText() const {
    const char* t = m_vtk->notice->GetInput();
    return t ? t : "";
}

} // namespace ctwin::views
