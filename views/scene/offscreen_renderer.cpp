#include "offscreen_renderer.h"

#include "allocator_tuning.h"

#include <X11/Xlib.h>
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <thread>
#include <vtkImageData.h>
#include <vtkOpenGLRenderWindow.h>
#include <vtkPNGWriter.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkUnsignedCharArray.h>
#include <vtkWindowToImageFilter.h>

namespace ctwin::views {

OffscreenRenderer::OffscreenRenderer(int width, int height)
    : m_width(std::max(1, width)), m_height(std::max(1, height)),
      m_window(vtkSmartPointer<vtkRenderWindow>::New()) {
    m_window->SetOffScreenRendering(1);
    // No multisampling: under a software renderer it multiplies the fragment work.
    m_window->SetMultiSamples(0);
    m_window->SetSize(m_width, m_height);
}

OffscreenRenderer::~OffscreenRenderer() {
    if (m_current) m_window->RemoveRenderer(m_current);
    m_window->Finalize();
    // VTK does not close a display it was given; the window is finalized, so nothing uses it any more.
    m_window = nullptr;
    if (m_display) XCloseDisplay(static_cast<Display*>(m_display));
}

namespace {

/// Opens the X display named by DISPLAY. A loaded Xvfb can refuse a connection for a moment (seen once in
/// CI: one failed XOpenDisplay between successful ones in the same process), so this retries for up to
/// about 3 s with a growing pause before giving up with a message.
Display* openDisplay(std::string* why) {
    const char* name = std::getenv("DISPLAY");
    if (!name || !*name) {
        if (why)
            *why = "no X display (DISPLAY is not set): VTK here renders through GLX; run under Xvfb, e.g. "
                   "xvfb-run -a";
        return nullptr;
    }
    constexpr int kAttempts = 8; // pauses of 25 ms doubling between them: 25 x (2^7 - 1) = 3.2 s in all
    auto pause = std::chrono::milliseconds(25);
    for (int attempt = 1;; ++attempt) {
        if (Display* d = XOpenDisplay(name)) return d;
        if (attempt == kAttempts) break;
        std::this_thread::sleep_for(pause);
        pause *= 2;
    }
    if (why) *why = std::string("cannot open X display '") + name + "': run under Xvfb, e.g. xvfb-run -a";
    return nullptr;
}

} // namespace

bool OffscreenRenderer::displayAvailable(std::string* why) {
    Display* d = openDisplay(why);
    if (!d) return false;
    XCloseDisplay(d);
    return true;
}

void OffscreenRenderer::attach(vtkRenderer* renderer) {
    if (m_current == renderer) return;
    if (m_current) m_window->RemoveRenderer(m_current);
    m_current = renderer;
    if (renderer) m_window->AddRenderer(renderer);
    m_frame = nullptr;
}

bool OffscreenRenderer::render(vtkRenderer* renderer, std::string* error) {
    if (!m_display) {
        m_display = openDisplay(error);
        if (!m_display) return false;
        m_window->SetDisplayId(m_display);
    }
    attach(renderer);
    const bool first = !m_rendered;
    m_window->Render();
    if (first) {
        m_rendered = true;
        tuneAllocatorForSoftwareGl(glRenderer());
    }
    m_frame = nullptr;
    return true;
}

vtkImageData* OffscreenRenderer::frame() {
    if (!m_frame && m_current) {
        auto grab = vtkSmartPointer<vtkWindowToImageFilter>::New();
        grab->SetInput(m_window);
        grab->SetInputBufferTypeToRGB();
        grab->ReadFrontBufferOff();
        grab->ShouldRerenderOff();
        grab->Update();
        m_frame = vtkSmartPointer<vtkImageData>::New();
        m_frame->DeepCopy(grab->GetOutput());
    }
    return m_frame;
}

std::optional<Rgb> OffscreenRenderer::pixel(int x, int y) {
    vtkImageData* img = frame();
    if (!img) return std::nullopt;
    int dims[3];
    img->GetDimensions(dims);
    if (x < 0 || y < 0 || x >= dims[0] || y >= dims[1]) return std::nullopt;
    const auto* p = static_cast<const unsigned char*>(img->GetScalarPointer(x, y, 0));
    return Rgb{p[0], p[1], p[2]};
}

bool OffscreenRenderer::writePng(const std::string& path, std::string* error) {
    vtkImageData* img = frame();
    if (!img) {
        if (error) *error = "nothing rendered yet";
        return false;
    }
    // Check the folder first: VTK's writer would only log an error.
    const auto folder = std::filesystem::absolute(path).parent_path();
    std::error_code ec;
    if (!std::filesystem::is_directory(folder, ec)) {
        if (error) *error = "cannot write PNG '" + path + "': no folder '" + folder.string() + "'";
        return false;
    }
    auto writer = vtkSmartPointer<vtkPNGWriter>::New();
    writer->SetFileName(path.c_str());
    writer->SetInputData(img);
    writer->Write();
    if (writer->GetErrorCode() != 0) {
        if (error) *error = "cannot write PNG '" + path + "'";
        return false;
    }
    return true;
}

std::string OffscreenRenderer::capabilities() const {
    auto* gl = vtkOpenGLRenderWindow::SafeDownCast(m_window);
    const char* caps = gl ? gl->ReportCapabilities() : nullptr;
    return caps ? caps : "";
}

std::string OffscreenRenderer::glRenderer() const {
    std::istringstream in(capabilities());
    std::string line, out;
    while (std::getline(in, line))
        if (line.rfind("OpenGL vendor", 0) == 0 || line.rfind("OpenGL renderer", 0) == 0 ||
            line.rfind("OpenGL version", 0) == 0)
            out += (out.empty() ? "" : "; ") + line;
    return out;
}

vtkRenderWindow* OffscreenRenderer::window() const {
    return m_window;
}

} // namespace ctwin::views
