#pragma once
#include "rgb.h"

#include <optional>
#include <string>
#include <vtkSmartPointer.h>

class vtkImageData;
class vtkRenderer;
class vtkRenderWindow;

namespace ctwin::views {

/// Renders a scene's renderer into an offscreen VTK window at a chosen size and reads the frame back
/// (PNG snapshots, the CLI's `render`, GL tests, benchmarks).
///
/// Debian's VTK 9.1 renders through GLX only (no EGL/OSMesa build), so offscreen rendering still needs an
/// X server: on a headless machine run under Xvfb, e.g. `xvfb-run -a clustertwin-cli render ...`.
/// VTK aborts the process when it cannot open a display, so this class opens the X connection itself
/// (retrying briefly: a busy Xvfb can refuse a connection for a moment), hands it to VTK and closes it
/// after the window; render() fails with a message instead of aborting when no display answers.
class OffscreenRenderer {
public:
    OffscreenRenderer(int width, int height);
    ~OffscreenRenderer();
    OffscreenRenderer(const OffscreenRenderer&) = delete;
    OffscreenRenderer& operator=(const OffscreenRenderer&) = delete;

    /// True when an X display can be opened (with the same brief retries as render()); otherwise `why`
    /// says what to do.
    static bool displayAvailable(std::string* why = nullptr);

    /// Puts `renderer` in this window (until another is attached), so that its camera can be fitted to
    /// the window's aspect and display coordinates work before the first render.
    void attach(vtkRenderer* renderer);
    /// Renders `renderer` (attaching it first).
    bool render(vtkRenderer* renderer, std::string* error = nullptr);
    /// The last frame as RGB image data (origin bottom-left, like VTK display coordinates).
    vtkImageData* frame();
    std::optional<Rgb> pixel(int x, int y);
    bool writePng(const std::string& path, std::string* error = nullptr);
    /// GL vendor, renderer and version strings of the context (after a render).
    std::string glRenderer() const;
    std::string capabilities() const;
    vtkRenderWindow* window() const;
    int width() const { return m_width; }
    int height() const { return m_height; }

private:
    int m_width;
    int m_height;
    vtkSmartPointer<vtkRenderWindow> m_window;
    vtkSmartPointer<vtkRenderer> m_current;
    vtkSmartPointer<vtkImageData> m_frame;
    bool m_rendered = false;
    void* m_display = nullptr; // X11 Display*, owned; kept out of the header so that Xlib's macros stay out
};

} // namespace ctwin::views
