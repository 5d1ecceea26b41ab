// Orbit timing harness for the 3D campus view (issue 15 item 5; SPEC.md §7: a 14,000-rack campus orbits at
// >= 30 frames/s under a software renderer at full detail, and the scene builds in under 300 ms).
//
// Builds the 14,180-rack campus (ten copies of the neocloud reference, as bench_campus), renders one frame,
// then N orbit frames (2 degrees of azimuth each) offscreen at full detail, every frame finished with
// glFinish. It reports, besides wall-clock frames per second, the CPU time per frame of the main thread
// (VTK, the GL driver's vertex stage: llvmpipe runs vertex shading and triangle setup on the calling thread)
// and of the whole process (plus the rasterizer threads), so that a figure measured on a loaded machine can
// still be read: on an idle machine a frame cannot take less wall time than the main thread's CPU time,
// nor less than the process's CPU time divided by the cores.
//
//   xvfb-run -a -s "-screen 0 1920x1080x24" build/bench/campus_orbit [--frames N] [--size WxH]
//       [--hide racks,tubes,text,other] [--lod] [--png PATH] [--dolly F]
//
// --hide makes a class of props invisible, to see what each costs: racks (the rack meshes), tubes (cooling
// pipes), text (every 2D actor: labels, legend, notice), other (grounds, floors, shells, CDUs), background
// (the gradient: a plain clear instead); labels or legend split text into the world-anchored labels and
// the rest.
// --png writes the first frame; --dolly moves the camera F times closer first (close-ups).
// Like every benchmark here, it reports and never asserts.
#include "../test_support.h"
#include "evaluate.h"
#include "scene/campus_scene.h"
#include "scene/design_replicator.h"
#include "scene/offscreen_renderer.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <set>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <vector>
#include <vtkActor.h>
#include <vtkActor2D.h>
#include <vtkActor2DCollection.h>
#include <vtkActorCollection.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkCoordinate.h>
#include <vtkGlyph3DMapper.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>

using namespace ctwin;

namespace {

double threadCpuMs() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

double processCpuMs() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    const auto ms = [](const timeval& v) {
        return static_cast<double>(v.tv_sec) * 1e3 + static_cast<double>(v.tv_usec) / 1e3;
    };
    return ms(u.ru_utime) + ms(u.ru_stime);
}

double nowMs() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

/// Triangles a polygon mesh sends down the pipeline (a polygon of n corners is n - 2 triangles).
long long trianglesOf(vtkPolyData* pd) {
    if (!pd) return 0;
    long long n = 0;
    auto* polys = pd->GetPolys();
    const auto count = polys->GetNumberOfCells();
    for (vtkIdType c = 0; c < count; ++c)
        n += polys->GetCellSize(c) - 2;
    auto* strips = pd->GetStrips();
    for (vtkIdType c = 0; c < strips->GetNumberOfCells(); ++c)
        n += strips->GetCellSize(c) - 2;
    return n;
}

struct Counts {
    long long triangles = 0, lines = 0, points = 0;
    int actors3d = 0, actors2d = 0;
};

enum class Kind { Racks, Tubes, Text, Other };

Kind kindOf(const views::CampusScene& scene, vtkActor* a) {
    auto* m = vtkPolyDataMapper::SafeDownCast(a->GetMapper());
    auto* in = m ? vtkPolyData::SafeDownCast(m->GetInputDataObject(0, 0)) : nullptr;
    if (in && in == scene.rackBatch()) return Kind::Racks;
    if (in && in == scene.tubeGeometry()) return Kind::Tubes;
    return Kind::Other;
}

Counts count(views::CampusScene& scene) {
    Counts c;
    vtkRenderer* ren = scene.renderer();
    auto* actors = ren->GetActors();
    actors->InitTraversal();
    while (vtkActor* a = actors->GetNextActor()) {
        if (!a->GetVisibility()) continue;
        ++c.actors3d;
        if (auto* g = vtkGlyph3DMapper::SafeDownCast(a->GetMapper())) {
            auto* src = vtkPolyData::SafeDownCast(g->GetInputDataObject(1, 0));
            auto* in = vtkPolyData::SafeDownCast(g->GetInputDataObject(0, 0));
            g->Update();
            if (!src) src = g->GetSource();
            if (src && in) c.triangles += trianglesOf(src) * in->GetNumberOfPoints();
            continue;
        }
        auto* m = vtkPolyDataMapper::SafeDownCast(a->GetMapper());
        if (!m) continue;
        m->Update();
        auto* pd = m->GetInput();
        if (!pd) continue;
        c.triangles += trianglesOf(pd);
        c.lines += pd->GetLines()->GetNumberOfCells();
        c.points += pd->GetNumberOfPoints();
    }
    auto* a2 = ren->GetActors2D();
    a2->InitTraversal();
    while (vtkActor2D* a = a2->GetNextActor2D())
        if (a->GetVisibility()) ++c.actors2d;
    return c;
}

void hide(views::CampusScene& scene, const std::set<std::string>& what) {
    vtkRenderer* ren = scene.renderer();
    auto* actors = ren->GetActors();
    actors->InitTraversal();
    while (vtkActor* a = actors->GetNextActor()) {
        const Kind k = kindOf(scene, a);
        if ((k == Kind::Racks && what.count("racks")) || (k == Kind::Tubes && what.count("tubes")) ||
            (k == Kind::Other && what.count("other")))
            a->VisibilityOff();
    }
    if (what.count("background")) ren->GradientBackgroundOff();
    if (what.count("labels") || what.count("legend")) {
        // labels: the text actors anchored at world points; legend: every other 2D actor.
        std::vector<vtkActor2D*> drop;
        auto* a2 = ren->GetActors2D();
        a2->InitTraversal();
        while (vtkActor2D* a = a2->GetNextActor2D()) {
            const bool label = a->GetPositionCoordinate()->GetCoordinateSystem() == VTK_WORLD;
            if (what.count(label ? "labels" : "legend")) drop.push_back(a);
        }
        for (auto* a : drop)
            ren->RemoveViewProp(a);
    }
    if (what.count("text")) {
        // The scene shows labels again before each frame (those in front of the camera): drop the 2D
        // actors from the renderer instead of hiding them.
        std::vector<vtkActor2D*> all;
        auto* a2 = ren->GetActors2D();
        a2->InitTraversal();
        while (vtkActor2D* a = a2->GetNextActor2D())
            all.push_back(a);
        for (auto* a : all)
            ren->RemoveViewProp(a);
    }
}

} // namespace

int main(int argc, char** argv) {
    int frames = 90, width = 1280, height = 800;
    bool lod = false;
    double dolly = 1.0;
    std::set<std::string> hidden;
    std::string png;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (a == "--frames") {
            frames = std::atoi(next().c_str());
        } else if (a == "--size") {
            const std::string s = next();
            std::sscanf(s.c_str(), "%dx%d", &width, &height);
        } else if (a == "--hide") {
            std::stringstream ss(next());
            for (std::string item; std::getline(ss, item, ',');)
                hidden.insert(item);
        } else if (a == "--lod") {
            lod = true;
        } else if (a == "--dolly") {
            dolly = std::atof(next().c_str());
        } else if (a == "--png") {
            png = next();
        } else {
            std::fprintf(stderr,
                         "usage: campus_orbit [--frames N] [--size WxH] [--hide racks,tubes,text,other] "
                         "[--lod] [--png PATH] [--dolly F]\n");
            return 2;
        }
    }
    std::string why;
    if (!views::OffscreenRenderer::displayAvailable(&why)) {
        std::fprintf(stderr, "campus_orbit: %s\n", why.c_str());
        return 1;
    }
    const model::Project campus = views::replicateCampus(
        model::loadProjectJson(test_support::kData + "/reference/neocloud-100k-gb200.json",
                               &test_support::catalog()),
        10);
    const cost::Results results = cost::evaluate(campus, test_support::catalog(), test_support::defaults());

    views::CampusScene scene;
    views::OffscreenRenderer r(width, height);
    r.attach(scene.renderer());
    double t0 = nowMs();
    scene.showProject({campus, test_support::catalog(), &results}, views::ColorMetric::ThermalMargin);
    const double buildMs = nowMs() - t0;
    scene.setInteractiveLod(lod);
    hide(scene, hidden);
    if (dolly > 0.0 && dolly != 1.0) {
        scene.renderer()->GetActiveCamera()->Dolly(dolly);
        scene.renderer()->ResetCameraClippingRange();
    }
    t0 = nowMs();
    r.render(scene.renderer());
    r.window()->WaitForCompletion();
    const double firstMs = nowMs() - t0;
    if (!png.empty()) r.writePng(png);

    vtkCamera* cam = scene.renderer()->GetActiveCamera();
    // Two warm-up frames (first orbit step compiles nothing new, but lets the driver settle).
    for (int i = 0; i < 2; ++i) {
        cam->Azimuth(2.0);
        scene.renderer()->ResetCameraClippingRange();
        r.window()->Render();
        r.window()->WaitForCompletion();
    }
    const double w0 = nowMs(), m0 = threadCpuMs(), p0 = processCpuMs();
    for (int i = 0; i < frames; ++i) {
        cam->Azimuth(2.0);
        scene.renderer()->ResetCameraClippingRange();
        r.window()->Render();
        r.window()->WaitForCompletion();
    }
    const double wall = nowMs() - w0, main = threadCpuMs() - m0, proc = processCpuMs() - p0;
    const Counts c = count(scene);
    std::printf("gl: %s\n", r.glRenderer().c_str());
    std::printf("racks placed %zu, size %dx%d, %s, hidden: %s\n", scene.data().placedRackCount(), width,
                height, lod ? "interactive LOD" : "full detail", hidden.empty() ? "none" : "some");
    std::printf("scene build %.1f ms, first frame %.1f ms\n", buildMs, firstMs);
    std::printf("frames %d: wall %.1f ms/frame (%.1f fps); CPU main thread %.1f ms/frame, process %.1f "
                "ms/frame\n",
                frames, wall / frames, 1000.0 * frames / wall, main / frames, proc / frames);
    std::printf("visible: %d 3D actors, %d 2D actors, %lld triangles, %lld line cells, %lld points\n",
                c.actors3d, c.actors2d, c.triangles, c.lines, c.points);
    std::printf("props rendered last frame: %d\n", scene.renderer()->GetNumberOfPropsRendered());
    r.attach(nullptr);
    return 0;
}
