#pragma once
#include <functional>
#include <vtkInteractorStyleTrackballCamera.h>

namespace ctwin::views {

/// Camera interaction for the ClusterTwin views. Orbit mode (campus): left drag orbits, middle or
/// shift+left drag pans, right drag or wheel zooms. Planar mode (map): left or middle drag pans, right
/// drag or wheel zooms, no rotation. In both, 'r' resets the view through the reset callback; VTK's other
/// single-key commands (wireframe, stereo, quit, fly-to) are swallowed so a stray key cannot alter a scene.
class ViewInteractorStyle : public vtkInteractorStyleTrackballCamera {
public:
    static ViewInteractorStyle* New();
    vtkTypeMacro(ViewInteractorStyle, vtkInteractorStyleTrackballCamera)

        void setPlanar(bool planar) {
        m_planar = planar;
    }
    bool planar() const { return m_planar; }
    void setResetCallback(std::function<void()> reset) { m_reset = std::move(reset); }

    void OnLeftButtonDown() override;
    void OnChar() override;
    void OnKeyPress() override;

protected:
    ViewInteractorStyle() = default;
    ~ViewInteractorStyle() override = default;

private:
    bool m_planar = false;
    std::function<void()> m_reset;
};

} // namespace ctwin::views
