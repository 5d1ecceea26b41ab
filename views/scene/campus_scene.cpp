#include "campus_scene.h"

#include "box_geometry.h"
#include "campus_scene_builder.h"
#include "change_set.h"
#include "rack_mesh.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <tuple>
#include <unordered_map>
#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkColorTransferFunction.h>
#include <vtkCommand.h>
#include <vtkCubeSource.h>
#include <vtkFloatArray.h>
#include <vtkGlyph3DMapper.h>
#include <vtkLegendBoxActor.h>
#include <vtkOutlineSource.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkScalarBarActor.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkTubeFilter.h>
#include <vtkUnsignedCharArray.h>

namespace ctwin::views {

namespace {

constexpr double kDegToRad = std::numbers::pi / 180.0;

/// One instanced glyph set: points with orientation (and optional scale) and RGB per instance.
struct GlyphSet {
    vtkSmartPointer<vtkPolyData> input;
    vtkSmartPointer<vtkPoints> points;
    vtkSmartPointer<vtkFloatArray> orientation;
    vtkSmartPointer<vtkFloatArray> scale;
    vtkSmartPointer<vtkUnsignedCharArray> rgb;
    vtkSmartPointer<vtkCubeSource> source;
    vtkSmartPointer<vtkGlyph3DMapper> mapper;
    vtkSmartPointer<vtkActor> actor;

    /// A box glyph of the given size standing on z = 0 (scaled: a unit box scaled per instance).
    static GlyphSet make(double w, double d, double h, bool scaled) {
        GlyphSet g;
        g.input = vtkSmartPointer<vtkPolyData>::New();
        g.points = vtkSmartPointer<vtkPoints>::New();
        g.points->SetDataTypeToFloat();
        g.input->SetPoints(g.points);
        g.orientation = vtkSmartPointer<vtkFloatArray>::New();
        g.orientation->SetName("orientation");
        g.orientation->SetNumberOfComponents(3);
        g.input->GetPointData()->AddArray(g.orientation);
        g.rgb = makeRgbArray();
        g.input->GetPointData()->SetScalars(g.rgb);
        g.source = vtkSmartPointer<vtkCubeSource>::New();
        g.source->SetXLength(w), g.source->SetYLength(d), g.source->SetZLength(h);
        g.source->SetCenter(0.0, 0.0, h / 2.0);
        g.mapper = vtkSmartPointer<vtkGlyph3DMapper>::New();
        g.mapper->SetInputData(g.input);
        g.mapper->SetSourceConnection(g.source->GetOutputPort());
        g.mapper->SetOrientationArray("orientation");
        g.mapper->SetOrientationModeToRotation();
        if (scaled) {
            g.scale = vtkSmartPointer<vtkFloatArray>::New();
            g.scale->SetName("scale");
            g.scale->SetNumberOfComponents(3);
            g.input->GetPointData()->AddArray(g.scale);
            g.mapper->SetScaleArray("scale");
            g.mapper->SetScaleModeToScaleByVectorComponents();
            g.mapper->ScalingOn();
        } else {
            g.mapper->ScalingOff();
        }
        useDirectColors(g.mapper);
        g.actor = vtkSmartPointer<vtkActor>::New();
        g.actor->SetMapper(g.mapper);
        g.actor->GetProperty()->SetAmbient(0.3);
        g.actor->GetProperty()->SetDiffuse(0.7);
        g.actor->GetProperty()->SetSpecular(0.0);
        // Boxes are closed and seen from outside: skip their back faces (half the fragments).
        g.actor->GetProperty()->BackfaceCullingOn();
        return g;
    }

    void resize(vtkIdType n) {
        points->SetNumberOfPoints(n);
        orientation->SetNumberOfTuples(n);
        rgb->SetNumberOfTuples(n);
        if (scale) scale->SetNumberOfTuples(n);
    }
    void set(vtkIdType i, const Vec3& p, double rotDeg, Rgb c) {
        points->SetPoint(i, p[0], p[1], p[2]);
        orientation->SetTuple3(i, 0.0, 0.0, rotDeg);
        const unsigned char v[3] = {c.r, c.g, c.b};
        rgb->SetTypedTuple(i, v);
    }
    void modified() {
        points->Modified();
        orientation->Modified();
        rgb->Modified();
        if (scale) scale->Modified();
        input->Modified();
    }
};

bool sameLegend(const Legend& a, const Legend& b) {
    if (a.title != b.title || a.categorical != b.categorical || a.stops.size() != b.stops.size() ||
        a.categories.size() != b.categories.size())
        return false;
    for (std::size_t i = 0; i < a.stops.size(); ++i)
        if (a.stops[i].value != b.stops[i].value || !(a.stops[i].color == b.stops[i].color)) return false;
    for (std::size_t i = 0; i < a.categories.size(); ++i)
        if (a.categories[i].label != b.categories[i].label ||
            !(a.categories[i].color == b.categories[i].color))
            return false;
    return true;
}

} // namespace

struct CampusScene::Vtk {
    vtkSmartPointer<vtkRenderer> renderer = vtkSmartPointer<vtkRenderer>::New();
    /// The racks' runs, one RackMesh per hall (in order of the halls' first rack), all drawn by one
    /// RackBatch, and where each rack is: rackSlot[i] = {mesh, slot} of CampusSceneData::racks[i]
    /// (unplaced racks: kNoMesh).
    std::vector<RackMesh> rackMeshes;
    RackBatch rackBatch;
    std::vector<std::pair<std::size_t, std::size_t>> rackSlot;
    /// Hall index (RackInstance::hall) -> mesh.
    std::unordered_map<std::size_t, std::size_t> meshOfHall;
    GlyphSet cdus = GlyphSet::make(1.0, 1.0, 1.0, true);
    GlyphSet lod = GlyphSet::make(1.0, 1.0, 1.0, true);
    std::size_t lodBoxes = 0;
    vtkSmartPointer<vtkPolyData> tubePaths = vtkSmartPointer<vtkPolyData>::New();
    vtkSmartPointer<vtkTubeFilter> tubeFilter = vtkSmartPointer<vtkTubeFilter>::New();
    vtkSmartPointer<vtkActor> tubes, tubeLines, grounds, walls, edges, halls, hallEdges;
    std::vector<vtkSmartPointer<vtkTextActor>> labels;
    unsigned long renderObserver = 0;
    vtkSmartPointer<vtkScalarBarActor> scalarBar = vtkSmartPointer<vtkScalarBarActor>::New();
    vtkSmartPointer<vtkLegendBoxActor> legendBox = vtkSmartPointer<vtkLegendBoxActor>::New();
    vtkSmartPointer<vtkTextActor> legendTitle = vtkSmartPointer<vtkTextActor>::New();
    vtkSmartPointer<vtkPolyData> swatch = vtkSmartPointer<vtkPolyData>::New();
    vtkSmartPointer<vtkTextActor> notice = vtkSmartPointer<vtkTextActor>::New();
    vtkSmartPointer<vtkOutlineSource> highlightBox = vtkSmartPointer<vtkOutlineSource>::New();
    vtkSmartPointer<vtkActor> highlight = vtkSmartPointer<vtkActor>::New();
};

CampusScene::CampusScene() : m_vtk(std::make_unique<Vtk>()) {
    auto& v = *m_vtk;
    v.renderObserver =
        v.renderer->AddObserver(vtkCommand::StartEvent, this, &CampusScene::hideLabelsBehindCamera);
    v.renderer->GradientBackgroundOn();
    v.renderer->SetBackground(0.11, 0.13, 0.17);
    v.renderer->SetBackground2(0.33, 0.39, 0.47);

    v.tubeFilter->SetInputData(v.tubePaths);
    v.tubeFilter->SetRadius(0.12);
    v.tubeFilter->SetNumberOfSides(6);
    v.tubeFilter->CappingOn(); // closed ends: the tubes cull their back faces
    auto tubeMapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    tubeMapper->SetInputConnection(v.tubeFilter->GetOutputPort());
    useDirectColors(tubeMapper);
    v.tubes = vtkSmartPointer<vtkActor>::New();
    v.tubes->SetMapper(tubeMapper);
    v.tubes->GetProperty()->BackfaceCullingOn();
    auto lineMapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    lineMapper->SetInputData(v.tubePaths);
    useDirectColors(lineMapper);
    v.tubeLines = vtkSmartPointer<vtkActor>::New();
    v.tubeLines->SetMapper(lineMapper);
    v.tubeLines->GetProperty()->LightingOff();

    v.cdus.actor->GetProperty()->SetColor(0.36, 0.42, 0.50);
    v.cdus.mapper->ScalarVisibilityOff();

    // Continuous metrics: a scalar bar at the right edge.
    v.scalarBar->SetOrientationToVertical();
    // Clear of the right edge: the labels precede the bar and the title is centred over it, so a bar at
    // the very edge had its title and widest labels cut.
    v.scalarBar->SetPosition(0.84, 0.10);
    v.scalarBar->SetWidth(0.12);
    v.scalarBar->SetHeight(0.62);
    v.scalarBar->SetVerticalTitleSeparation(6);
    v.scalarBar->SetBarRatio(0.3);
    v.scalarBar->SetNumberOfLabels(5);
    v.scalarBar->SetLabelFormat("%.0f");
    v.scalarBar->SetTextPositionToPrecedeScalarBar();
    v.scalarBar->UnconstrainedFontSizeOn();
    for (vtkTextProperty* tp : {v.scalarBar->GetTitleTextProperty(), v.scalarBar->GetLabelTextProperty()}) {
        tp->SetFontSize(13);
        tp->ItalicOff();
        tp->ShadowOff();
        tp->SetColor(0.95, 0.95, 0.95);
    }
    v.scalarBar->GetTitleTextProperty()->BoldOn();
    v.scalarBar->GetLabelTextProperty()->BoldOff();

    // Categorical metrics: colour swatches with names, under a title, at the top right.
    auto sq = vtkSmartPointer<vtkPoints>::New();
    for (const auto& [x, y] : {std::pair{0.0, 0.0}, {1.0, 0.0}, {1.0, 1.0}, {0.0, 1.0}})
        sq->InsertNextPoint(x, y, 0.0);
    auto sqCells = vtkSmartPointer<vtkCellArray>::New();
    const vtkIdType quad[4] = {0, 1, 2, 3};
    sqCells->InsertNextCell(4, quad);
    v.swatch->SetPoints(sq);
    v.swatch->SetPolys(sqCells);
    v.legendBox->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
    v.legendBox->GetPosition2Coordinate()->SetCoordinateSystemToNormalizedViewport();
    v.legendBox->SetPosition(0.80, 0.40);
    v.legendBox->SetPosition2(0.19, 0.50);
    v.legendBox->UseBackgroundOn();
    v.legendBox->SetBackgroundColor(0.08, 0.09, 0.12);
    v.legendBox->SetBackgroundOpacity(0.6);
    v.legendBox->BorderOff();
    v.legendBox->GetEntryTextProperty()->SetColor(0.95, 0.95, 0.95);
    v.legendBox->GetEntryTextProperty()->ShadowOff();
    v.legendTitle->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
    v.legendTitle->SetPosition(0.84, 0.89);
    v.legendTitle->GetTextProperty()->SetFontSize(13);
    v.legendTitle->GetTextProperty()->BoldOn();
    v.legendTitle->GetTextProperty()->SetColor(0.95, 0.95, 0.95);

    v.notice->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
    v.notice->SetPosition(0.01, 0.98);
    auto* np = v.notice->GetTextProperty();
    np->SetFontSize(14);
    np->SetColor(1.0, 0.84, 0.35);
    np->SetBackgroundColor(0.05, 0.05, 0.05);
    np->SetBackgroundOpacity(0.7);
    np->SetVerticalJustificationToTop();
    np->SetJustificationToLeft();
    v.notice->VisibilityOff();

    auto hm = vtkSmartPointer<vtkPolyDataMapper>::New();
    hm->SetInputConnection(v.highlightBox->GetOutputPort());
    v.highlight->SetMapper(hm);
    v.highlight->GetProperty()->SetColor(1.0, 0.92, 0.1);
    v.highlight->GetProperty()->SetLineWidth(3.0);
    v.highlight->GetProperty()->LightingOff();
    v.highlight->VisibilityOff();
}

CampusScene::~CampusScene() {
    m_vtk->renderer->RemoveObserver(m_vtk->renderObserver);
}

void CampusScene::hideLabelsBehindCamera() {
    vtkCamera* cam = m_vtk->renderer->GetActiveCamera();
    double pos[3], dop[3];
    cam->GetPosition(pos);
    cam->GetDirectionOfProjection(dop);
    const double nearPlane = cam->GetClippingRange()[0];
    for (std::size_t i = 0; i < m_vtk->labels.size() && i < m_data.labels.size(); ++i) {
        const auto& p = m_data.labels[i].position;
        const double depth = (p[0] - pos[0]) * dop[0] + (p[1] - pos[1]) * dop[1] + (p[2] - pos[2]) * dop[2];
        m_vtk->labels[i]->SetVisibility(depth > nearPlane);
    }
}

vtkRenderer* CampusScene::renderer() const {
    return m_vtk->renderer;
}

void CampusScene::showProject(const SceneSource& source, ColorMetric metric) {
    m_builder = std::make_unique<CampusSceneBuilder>(source.project, source.catalog);
    std::vector<bool> dimmed = std::move(m_data.dimmedHalls);
    m_data = m_builder->build(source, metric);
    // The date cursor's greyed halls outlive a rebuild (the owner sets them again when the halls change).
    if (!dimmed.empty()) {
        m_data.dimmedHalls = std::move(dimmed);
        m_builder->recolour(m_data, nullptr);
    }
    rebuildActors();
}

void CampusScene::showData(CampusSceneData data) {
    m_builder.reset();
    m_data = std::move(data);
    rebuildActors();
}

void CampusScene::rebuildActors() {
    auto& v = *m_vtk;
    v.renderer->RemoveAllViewProps();

    // Grounds and floors are flat and face up: unlit (a cheaper shader over most of the screen's pixels).
    v.grounds = actorFor(boxFaces(m_data.grounds, false), Rgb::fromHex(0x454f48));
    v.grounds->GetProperty()->LightingOff();
    v.halls = actorFor(boxFaces(m_data.halls, false), Rgb::fromHex(0xa9b1ba));
    v.halls->GetProperty()->LightingOff();
    v.hallEdges = actorFor(boxEdges(m_data.halls, false), Rgb::fromHex(0x5d6875));
    v.hallEdges->GetProperty()->LightingOff();
    // Building shells are opaque walls drawn with their front faces culled: the walls facing the viewer
    // vanish and the far walls show from inside, so the racks stay visible without translucency (which
    // costs a software renderer an order-independent transparency pass).
    v.walls = actorFor(boxFaces(m_data.buildings, true), Rgb::fromHex(0x8e9aa8));
    v.walls->GetProperty()->FrontfaceCullingOn();
    v.edges = actorFor(boxEdges(m_data.buildings, true), Rgb::fromHex(0xe9eff6));
    v.edges->GetProperty()->LightingOff();
    for (auto* a : {v.grounds.Get(), v.halls.Get(), v.hallEdges.Get(), v.walls.Get(), v.edges.Get()})
        v.renderer->AddActor(a);

    rebuildRackMeshes();

    v.cdus.resize(static_cast<vtkIdType>(m_data.cdus.size()));
    for (std::size_t i = 0; i < m_data.cdus.size(); ++i) {
        const auto& c = m_data.cdus[i];
        v.cdus.set(static_cast<vtkIdType>(i), c.base, 0.0, Rgb{});
        v.cdus.scale->SetTuple3(static_cast<vtkIdType>(i), c.width, c.depth, c.height);
    }
    v.cdus.modified();
    v.renderer->AddActor(v.cdus.actor);

    refreshTubes();
    v.renderer->AddActor(v.tubes);
    v.renderer->AddActor(v.tubeLines);
    v.renderer->AddActor(v.lod.actor);

    // Labels are 2D text anchored at a world point (one cached texture each; 40 billboard text actors
    // cost a software renderer more than 14,000 racks). Those behind the camera are hidden per frame.
    v.labels.clear();
    for (const auto& l : m_data.labels) {
        auto a = vtkSmartPointer<vtkTextActor>::New();
        a->SetInput(l.text.c_str());
        a->GetPositionCoordinate()->SetCoordinateSystemToWorld();
        a->GetPositionCoordinate()->SetValue(l.position[0], l.position[1], l.position[2]);
        auto* tp = a->GetTextProperty();
        tp->SetFontSize(14);
        tp->SetColor(1.0, 1.0, 1.0);
        tp->SetBackgroundColor(0.08, 0.09, 0.12);
        tp->SetBackgroundOpacity(0.6);
        tp->SetJustificationToCentered();
        tp->SetVerticalJustificationToBottom();
        v.labels.push_back(a);
        v.renderer->AddActor2D(a);
    }

    refreshLegend();
    v.renderer->AddActor2D(v.scalarBar);
    v.renderer->AddActor2D(v.legendBox);
    v.renderer->AddActor2D(v.legendTitle);
    refreshNotice();
    v.renderer->AddActor2D(v.notice);
    refreshHighlight();
    v.renderer->AddActor(v.highlight);

    m_lodDirty = true;
    applyLodVisibility();
    resetCamera();
}

void CampusScene::rebuildRackMeshes() {
    auto& v = *m_vtk;
    v.rackMeshes.clear();
    v.meshOfHall.clear();
    v.rackSlot.assign(m_data.racks.size(), {kNoMesh, 0});
    std::vector<std::vector<std::size_t>> members;
    for (std::size_t i = 0; i < m_data.racks.size(); ++i) {
        const auto& r = m_data.racks[i];
        if (!r.placed) continue;
        const auto [it, added] = v.meshOfHall.emplace(r.hall, members.size());
        if (added) members.emplace_back();
        members[it->second].push_back(i);
    }
    v.rackMeshes.resize(members.size());
    for (std::size_t m = 0; m < members.size(); ++m)
        buildRackMesh(m, members[m]);
    v.rackBatch.assemble(v.rackMeshes, m_data.racks);
    v.rackBatch.actor()->SetVisibility(!m_lod && !v.rackMeshes.empty());
    if (!v.renderer->HasViewProp(v.rackBatch.actor())) v.renderer->AddActor(v.rackBatch.actor());
}

void CampusScene::buildRackMesh(std::size_t mesh, const std::vector<std::size_t>& members) {
    auto& v = *m_vtk;
    v.rackMeshes[mesh].build(m_data.racks, members, RackBatch::kMaxRun);
    const auto& order = v.rackMeshes[mesh].racks();
    for (std::size_t k = 0; k < order.size(); ++k)
        v.rackSlot[order[k]] = {mesh, k};
}

void CampusScene::refreshRackColours() {
    auto& v = *m_vtk;
    for (std::size_t m = 0; m < v.rackMeshes.size(); ++m)
        for (std::size_t k = 0; k < v.rackMeshes[m].racks().size(); ++k)
            v.rackBatch.setColor(m, k, m_data.racks[v.rackMeshes[m].racks()[k]].color);
    v.rackBatch.modified();
}

void CampusScene::refreshTubes() {
    auto& v = *m_vtk;
    auto pts = vtkSmartPointer<vtkPoints>::New();
    auto lines = vtkSmartPointer<vtkCellArray>::New();
    auto rgb = makeRgbArray();
    for (const auto& t : m_data.tubes) {
        lines->InsertNextCell(static_cast<int>(t.points.size()));
        for (const auto& p : t.points) {
            lines->InsertCellPoint(pts->InsertNextPoint(p[0], p[1], p[2]));
            const unsigned char c[3] = {t.color.r, t.color.g, t.color.b};
            rgb->InsertNextTypedTuple(c);
        }
    }
    v.tubePaths->Initialize();
    v.tubePaths->SetPoints(pts);
    v.tubePaths->SetLines(lines);
    v.tubePaths->GetPointData()->SetScalars(rgb);
    v.tubePaths->Modified();
}

void CampusScene::refreshLegend() {
    auto& v = *m_vtk;
    const auto& legend = m_data.legend;
    // Titles wrap at about 16 characters so they stay inside the legend's column.
    std::string title;
    {
        std::size_t lineLength = 0, start = 0;
        const std::string& t = legend.title;
        while (start < t.size()) {
            const std::size_t end = std::min(t.find(' ', start), t.size());
            const std::size_t word = end - start;
            if (lineLength > 0 && lineLength + 1 + word > 16)
                title += '\n', lineLength = 0;
            else if (lineLength > 0)
                title += ' ', ++lineLength;
            title += t.substr(start, word);
            lineLength += word;
            start = end + 1;
        }
    }
    v.scalarBar->SetVisibility(false);
    v.legendBox->SetVisibility(false);
    v.legendTitle->SetVisibility(false);
    if (!legend.categories.empty()) {
        const int n = static_cast<int>(legend.categories.size());
        v.legendBox->SetNumberOfEntries(n);
        for (int i = 0; i < n; ++i) {
            const auto& c = legend.categories[static_cast<std::size_t>(i)];
            double rgb[3] = {c.color.r / 255.0, c.color.g / 255.0, c.color.b / 255.0};
            v.legendBox->SetEntry(i, v.swatch.Get(), c.label.c_str(), rgb);
        }
        // The legend box scales its text to fill the box: about 2.4 % of the height per entry.
        const double h = std::min(0.75, 0.024 * n + 0.01);
        v.legendBox->SetPosition(0.84, 0.88 - h);
        v.legendBox->SetPosition2(0.15, h);
        v.legendBox->SetVisibility(true);
        v.legendTitle->SetInput(title.c_str());
        v.legendTitle->SetVisibility(true);
    } else if (!legend.stops.empty() && m_data.placedRackCount() > 0) {
        auto ctf = vtkSmartPointer<vtkColorTransferFunction>::New();
        for (const auto& s : legend.stops)
            ctf->AddRGBPoint(s.value, s.color.r / 255.0, s.color.g / 255.0, s.color.b / 255.0);
        v.scalarBar->SetLookupTable(ctf);
        // The unit on a line of its own: a one-line title is wider than the bar and was cut at the edge.
        std::string twoLines = title;
        if (const auto paren = twoLines.find(" ("); paren != std::string::npos) twoLines[paren] = '\n';
        v.scalarBar->SetTitle(twoLines.c_str());
        v.scalarBar->SetVisibility(true);
    }
}

void CampusScene::refreshNotice() {
    std::string text;
    constexpr std::size_t kMaxLines = 5;
    for (std::size_t i = 0; i < m_data.notices.size() && i < kMaxLines; ++i)
        text += (i ? "\n" : "") + m_data.notices[i];
    if (m_data.notices.size() > kMaxLines)
        text += "\n(and " + std::to_string(m_data.notices.size() - kMaxLines) + " more)";
    m_vtk->notice->SetInput(text.c_str());
    m_vtk->notice->SetVisibility(!text.empty());
}

void CampusScene::refreshHighlight() {
    auto& v = *m_vtk;
    const RackInstance* r = m_highlighted.empty() ? nullptr : m_data.findRack(m_highlighted);
    if (!r || !r->placed) {
        v.highlight->VisibilityOff();
        return;
    }
    const double w = r->width / 2 + 0.08, d = r->depth / 2 + 0.08;
    v.highlightBox->SetBounds(-w, w, -d, d, -0.02, r->height + 0.1);
    v.highlight->SetPosition(r->base[0], r->base[1], r->base[2]);
    v.highlight->SetOrientation(0.0, 0.0, r->rotationDeg);
    v.highlight->VisibilityOn();
}

void CampusScene::setHighlightedRack(const std::string& id) {
    m_highlighted = id;
    refreshHighlight();
}

void CampusScene::refreshColours() {
    refreshRackColours();
    refreshTubes();
    refreshLegend();
    refreshNotice();
    m_lodDirty = true;
    if (m_lod) rebuildLod();
}

CampusScene::Update CampusScene::showResults(const cost::Results* results) {
    if (!m_builder) return Update::None;
    std::vector<Rgb> before;
    before.reserve(m_data.racks.size());
    for (const auto& r : m_data.racks)
        before.push_back(r.color);
    std::vector<Rgb> tubesBefore;
    for (const auto& t : m_data.tubes)
        tubesBefore.push_back(t.color);
    const Legend legendBefore = m_data.legend;
    const auto noticesBefore = m_data.notices;
    CampusSceneBuilder::setResults(m_data, results);
    m_builder->recolour(m_data, nullptr);
    bool changed = !sameLegend(legendBefore, m_data.legend) || noticesBefore != m_data.notices;
    for (std::size_t i = 0; i < m_data.racks.size() && !changed; ++i)
        changed = !(before[i] == m_data.racks[i].color);
    for (std::size_t i = 0; i < m_data.tubes.size() && !changed; ++i)
        changed = !(tubesBefore[i] == m_data.tubes[i].color);
    if (!changed) return Update::None;
    refreshColours();
    return Update::Recoloured;
}

void CampusScene::setDimmedHalls(const std::vector<bool>& halls) {
    if (halls == m_data.dimmedHalls) return;
    m_data.dimmedHalls = halls;
    if (!m_builder) return;
    m_builder->recolour(m_data, nullptr);
    refreshColours();
}

void CampusScene::setColorMetric(ColorMetric metric) {
    m_data.metric = metric;
    if (!m_builder) return;
    m_builder->recolour(m_data, nullptr);
    refreshColours();
}

CampusScene::Update CampusScene::applyChanges(const model::ChangeSet& changes, const SceneSource& source) {
    if (!m_builder) {
        showProject(source, m_data.metric);
        return Update::Rebuilt;
    }
    using K = model::EntityKind;
    bool layout = changes.structural();
    std::vector<std::string> rackIds;
    bool racksMoved = false;
    for (const auto& e : changes.entities) {
        switch (e.kind) {
        case K::Site:
        case K::Building:
        case K::DataHall:
        case K::Row:
        case K::CoolingLoop:
            layout = true;
            break;
        case K::RackPlacement:
            rackIds.push_back(e.id);
            for (const auto& p : e.properties)
                racksMoved = racksMoved || p == "x_m" || p == "y_m" || p == "rotation_deg" || p == "row" ||
                             p == "cooling_loop";
            if (e.properties.empty()) racksMoved = true;
            break;
        case K::PowerFeed: // not drawn in 3D
        case K::Fabric:
        case K::StorageTier:
        case K::ScaleAcrossLink:
        case K::TrainingJob:
        case K::InferenceService:
            break;
        }
    }
    if (layout) {
        showProject(source, m_data.metric);
        return Update::Rebuilt;
    }
    if (rackIds.empty()) return showResults(source.results);

    std::vector<std::size_t> touched;
    for (const auto& id : rackIds) {
        if (!m_builder->updateRack(m_data, source.project, id)) {
            showProject(source, m_data.metric);
            return Update::Rebuilt;
        }
        touched.push_back(m_data.rackIndex.at(id));
    }
    CampusSceneBuilder::setResults(m_data, source.results);
    const bool all = m_builder->recolour(m_data, &touched);
    // Moved racks: the runs of the halls they left and joined are rebuilt, then the batch is put together
    // again from every hall's runs; a hall without runs yet rebuilds them all. Recoloured racks: their
    // texels.
    auto& v = *m_vtk;
    std::vector<bool> rebuild(v.rackMeshes.size(), false);
    bool recoloured = false;
    bool everyMesh = false;
    for (std::size_t i : touched) {
        const auto& r = m_data.racks[i];
        const auto slot = v.rackSlot[i];
        const auto hall = v.meshOfHall.find(r.hall);
        if (!r.placed || slot.first == kNoMesh || hall == v.meshOfHall.end()) {
            everyMesh = true;
        } else if (racksMoved) {
            rebuild[slot.first] = rebuild[hall->second] = true;
        } else {
            v.rackBatch.setColor(slot.first, slot.second, r.color);
            recoloured = true;
        }
    }
    if (everyMesh) {
        rebuildRackMeshes();
    } else {
        bool rebuilt = false;
        for (std::size_t m = 0; m < rebuild.size(); ++m) {
            if (!rebuild[m]) continue;
            std::vector<std::size_t> members;
            for (std::size_t i = 0; i < m_data.racks.size(); ++i)
                if (m_data.racks[i].placed && v.meshOfHall.at(m_data.racks[i].hall) == m)
                    members.push_back(i);
            buildRackMesh(m, members);
            rebuilt = true;
        }
        if (rebuilt) v.rackBatch.assemble(v.rackMeshes, m_data.racks);
        if (all) refreshRackColours();
        if (recoloured && !all && !rebuilt) v.rackBatch.modified();
    }
    if (all) refreshLegend();
    if (racksMoved) {
        m_builder->rebuildTubes(m_data);
        refreshTubes();
    }
    // Heat moved between loops changes every rack's margin on those loops.
    if (m_data.metric == ColorMetric::ThermalMargin) {
        m_builder->recolour(m_data, nullptr);
        refreshColours();
    }
    refreshHighlight();
    m_lodDirty = true;
    if (m_lod) rebuildLod();
    return Update::Incremental;
}

std::optional<std::string> CampusScene::pickRack(double displayX, double displayY) const {
    vtkRenderer* ren = m_vtk->renderer;
    if (!ren->GetRenderWindow() || !std::isfinite(displayX) || !std::isfinite(displayY)) return std::nullopt;
    double p0[4], p1[4];
    ren->SetDisplayPoint(displayX, displayY, 0.0);
    ren->DisplayToWorld();
    ren->GetWorldPoint(p0);
    ren->SetDisplayPoint(displayX, displayY, 1.0);
    ren->DisplayToWorld();
    ren->GetWorldPoint(p1);
    if (p0[3] == 0.0 || p1[3] == 0.0) return std::nullopt;
    for (int i = 0; i < 3; ++i)
        p0[i] /= p0[3], p1[i] /= p1[3];
    const double dir[3] = {p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]};

    // Slab test against each rack's box in its own frame (Kay and Kajiya, "Ray tracing complex scenes",
    // SIGGRAPH 1986); the nearest hit wins.
    double bestT = std::numeric_limits<double>::infinity();
    const RackInstance* best = nullptr;
    for (const auto& r : m_data.racks) {
        if (!r.placed) continue;
        const double a = -r.rotationDeg * kDegToRad, ca = std::cos(a), sa = std::sin(a);
        const double ox = p0[0] - r.base[0], oy = p0[1] - r.base[1], oz = p0[2] - r.base[2];
        const double o[3] = {ox * ca - oy * sa, ox * sa + oy * ca, oz};
        const double d[3] = {dir[0] * ca - dir[1] * sa, dir[0] * sa + dir[1] * ca, dir[2]};
        const double lo[3] = {-r.width / 2, -r.depth / 2, 0.0}, hi[3] = {r.width / 2, r.depth / 2, r.height};
        double t0 = 0.0, t1 = bestT;
        bool hit = true;
        for (int k = 0; k < 3 && hit; ++k) {
            if (std::abs(d[k]) < 1e-12) {
                hit = o[k] >= lo[k] && o[k] <= hi[k];
                continue;
            }
            double ta = (lo[k] - o[k]) / d[k], tb = (hi[k] - o[k]) / d[k];
            if (ta > tb) std::swap(ta, tb);
            t0 = std::max(t0, ta), t1 = std::min(t1, tb);
            hit = t0 <= t1;
        }
        if (hit && t0 < bestT) bestT = t0, best = &r;
    }
    if (!best) return std::nullopt;
    return best->id;
}

std::optional<std::array<double, 3>> CampusScene::rackDisplayPoint(const std::string& id,
                                                                   bool topFace) const {
    const RackInstance* r = m_data.findRack(id);
    vtkRenderer* ren = m_vtk->renderer;
    if (!r || !r->placed || !ren->GetRenderWindow()) return std::nullopt;
    ren->SetWorldPoint(r->base[0], r->base[1], r->base[2] + (topFace ? r->height : r->height / 2), 1.0);
    ren->WorldToDisplay();
    double p[3];
    ren->GetDisplayPoint(p);
    return std::array<double, 3>{p[0], p[1], p[2]};
}

void CampusScene::rebuildLod() {
    // Runs of adjacent racks: same row, glyph set, colour and orientation, on one line, gaps < 1/4 width.
    using Key = std::tuple<std::string, std::size_t, std::uint32_t, long, long long>;
    std::map<Key, std::vector<std::pair<double, std::size_t>>> lines;
    for (std::size_t i = 0; i < m_data.racks.size(); ++i) {
        const auto& r = m_data.racks[i];
        if (!r.placed) continue;
        const double a = r.rotationDeg * kDegToRad;
        const double s = r.base[0] * std::cos(a) + r.base[1] * std::sin(a);
        const double across = -r.base[0] * std::sin(a) + r.base[1] * std::cos(a);
        const std::uint32_t colour =
            (std::uint32_t{r.color.r} << 16) | (std::uint32_t{r.color.g} << 8) | r.color.b;
        const Key key{r.rowId, r.group, colour, std::lround(std::fmod(r.rotationDeg + 360.0, 180.0)),
                      std::llround(across * 20.0)};
        lines[key].push_back({s, i});
    }
    struct Box {
        Vec3 centre;
        double length, depth, height, rot;
        Rgb color;
    };
    std::vector<Box> boxes;
    for (auto& [key, racks] : lines) {
        std::sort(racks.begin(), racks.end());
        std::size_t start = 0;
        for (std::size_t k = 1; k <= racks.size(); ++k) {
            const auto& prev = m_data.racks[racks[k - 1].second];
            if (k < racks.size() && racks[k].first - racks[k - 1].first <= prev.width * 1.25) continue;
            const auto& a = m_data.racks[racks[start].second];
            const auto& b = m_data.racks[racks[k - 1].second];
            boxes.push_back({{(a.base[0] + b.base[0]) / 2, (a.base[1] + b.base[1]) / 2, a.base[2]},
                             racks[k - 1].first - racks[start].first + a.width,
                             a.depth,
                             a.height,
                             a.rotationDeg,
                             a.color});
            start = k;
        }
    }
    auto& lod = m_vtk->lod;
    lod.resize(static_cast<vtkIdType>(boxes.size()));
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        const auto& b = boxes[i];
        lod.set(static_cast<vtkIdType>(i), b.centre, b.rot, b.color);
        lod.scale->SetTuple3(static_cast<vtkIdType>(i), b.length, b.depth, b.height);
    }
    lod.modified();
    m_vtk->lodBoxes = boxes.size();
    m_lodDirty = false;
}

std::size_t CampusScene::lodBoxCount() const {
    return m_vtk->lodBoxes;
}

void CampusScene::applyLodVisibility() {
    auto& v = *m_vtk;
    if (m_lod && m_lodDirty) rebuildLod();
    v.rackBatch.actor()->SetVisibility(!m_lod && !v.rackMeshes.empty());
    v.cdus.actor->SetVisibility(!m_lod);
    v.tubes->SetVisibility(!m_lod);
    v.tubeLines->SetVisibility(m_lod);
    v.lod.actor->SetVisibility(m_lod);
}

void CampusScene::setInteractiveLod(bool on) {
    if (on == m_lod) return;
    m_lod = on;
    applyLodVisibility();
}

void CampusScene::resetCamera() {
    vtkRenderer* ren = m_vtk->renderer;
    auto b = m_data.bounds;
    const double c[3] = {(b[0] + b[1]) / 2, (b[2] + b[3]) / 2, (b[4] + b[5]) / 2};
    // From the south, a little east, 40 degrees above the horizon: plan x runs left to right as on the
    // floor plan, and the plan's "down" comes towards the viewer.
    const double dir[3] = {0.28, -0.72, 0.64};
    vtkCamera* cam = ren->GetActiveCamera();
    cam->SetFocalPoint(c);
    cam->SetPosition(c[0] + dir[0], c[1] + dir[1], c[2] + dir[2]);
    cam->SetViewUp(0.0, 0.0, 1.0);
    cam->SetViewAngle(30.0);
    ren->ResetCamera(b.data());
    // ResetCamera fits the bounding sphere; a flat campus fills the view better closer. The image centre
    // moves left of the legend column.
    cam->Dolly(1.45);
    cam->SetWindowCenter(0.06, 0.0);
    ren->ResetCameraClippingRange(b.data());
}

std::size_t CampusScene::rackMeshCount() const {
    return m_vtk->rackMeshes.size();
}

vtkPolyData* CampusScene::rackBatch() const {
    return m_vtk->rackBatch.polyData();
}

vtkImageData* CampusScene::rackColours() const {
    return m_vtk->rackBatch.colours();
}

std::size_t CampusScene::rackRunCount() const {
    return m_vtk->rackBatch.runCount();
}

std::optional<std::array<int, 2>> CampusScene::rackTexel(const std::string& id) const {
    const auto slot = rackMeshSlot(id);
    if (!slot) return std::nullopt;
    return m_vtk->rackBatch.texelOf(slot->first, slot->second);
}

std::optional<std::pair<std::size_t, std::size_t>> CampusScene::rackMeshSlot(const std::string& id) const {
    const auto it = m_data.rackIndex.find(id);
    if (it == m_data.rackIndex.end() || it->second >= m_vtk->rackSlot.size() ||
        m_vtk->rackSlot[it->second].first == kNoMesh)
        return std::nullopt;
    return m_vtk->rackSlot[it->second];
}

std::optional<std::string> CampusScene::rackOfCell(const vtkProp* prop, vtkIdType cell,
                                                   const double world[3]) const {
    const auto& v = *m_vtk;
    if (prop != v.rackBatch.actor()) return std::nullopt;
    const auto slot = v.rackBatch.slotAt(cell, world);
    if (!slot) return std::nullopt;
    return m_data.racks[v.rackMeshes[slot->first].racks()[slot->second]].id;
}

std::optional<std::pair<vtkIdType, vtkIdType>> CampusScene::rackCells(const std::string& id) const {
    const auto slot = rackMeshSlot(id);
    if (!slot) return std::nullopt;
    return m_vtk->rackBatch.runCells(slot->first, slot->second);
}

vtkPolyData* CampusScene::tubeGeometry() const {
    m_vtk->tubeFilter->Update();
    return m_vtk->tubeFilter->GetOutput();
}

std::size_t CampusScene::labelActorCount() const {
    return m_vtk->labels.size();
}
bool CampusScene::noticeVisible() const {
    return m_vtk->notice->GetVisibility() != 0;
}
std::string CampusScene::noticeText() const {
    const char* t = m_vtk->notice->GetInput();
    return t ? t : "";
}

vtkSmartPointer<vtkRenderer> CampusScene::exportRenderer() const {
    auto ren = vtkSmartPointer<vtkRenderer>::New();
    ren->AddActor(actorFor(boxFaces(m_data.grounds, false), Rgb::fromHex(0x48534c)));
    ren->AddActor(actorFor(boxFaces(m_data.halls, false), Rgb::fromHex(0xb8c0c8)));
    ren->AddActor(actorFor(boxEdges(m_data.buildings, true), Rgb::fromHex(0xe9eff6)));

    const auto mesh = [] {
        auto pd = vtkSmartPointer<vtkPolyData>::New();
        pd->SetPoints(vtkSmartPointer<vtkPoints>::New());
        pd->SetPolys(vtkSmartPointer<vtkCellArray>::New());
        pd->GetPointData()->SetScalars(makeRgbArray());
        return pd;
    };
    const auto meshActor = [](vtkPolyData* pd) {
        auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
        mapper->SetInputData(pd);
        useDirectColors(mapper);
        auto actor = vtkSmartPointer<vtkActor>::New();
        actor->SetMapper(mapper);
        return actor;
    };
    auto racks = mesh();
    auto* rgb = vtkUnsignedCharArray::SafeDownCast(racks->GetPointData()->GetScalars());
    for (const auto& r : m_data.racks)
        if (r.placed)
            appendBox(racks->GetPoints(), racks->GetPolys(), rgb, r.base, r.width, r.depth, r.height,
                      r.rotationDeg, r.color);
    if (racks->GetNumberOfCells() > 0) ren->AddActor(meshActor(racks));
    auto cdus = mesh();
    rgb = vtkUnsignedCharArray::SafeDownCast(cdus->GetPointData()->GetScalars());
    for (const auto& c : m_data.cdus)
        appendBox(cdus->GetPoints(), cdus->GetPolys(), rgb, c.base, c.width, c.depth, c.height, 0.0,
                  Rgb::fromHex(0x5c6b80));
    if (cdus->GetNumberOfCells() > 0) ren->AddActor(meshActor(cdus));
    if (!m_data.tubes.empty()) {
        m_vtk->tubeFilter->Update();
        auto tubes = vtkSmartPointer<vtkPolyData>::New();
        tubes->DeepCopy(m_vtk->tubeFilter->GetOutput());
        ren->AddActor(meshActor(tubes));
    }
    ren->SetActiveCamera(m_vtk->renderer->GetActiveCamera());
    return ren;
}

} // namespace ctwin::views
