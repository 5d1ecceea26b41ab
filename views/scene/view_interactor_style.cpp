#include "view_interactor_style.h"

#include <vtkCallbackCommand.h>
#include <vtkObjectFactory.h>
#include <vtkRenderWindowInteractor.h>

namespace ctwin::views {

vtkStandardNewMacro(ViewInteractorStyle);

void ViewInteractorStyle::OnLeftButtonDown() {
    if (!m_planar) {
        vtkInteractorStyleTrackballCamera::OnLeftButtonDown();
        return;
    }
    const int* pos = Interactor->GetEventPosition();
    FindPokedRenderer(pos[0], pos[1]);
    if (!CurrentRenderer) return;
    GrabFocus(EventCallbackCommand);
    StartPan();
}

void ViewInteractorStyle::OnChar() {
    switch (Interactor->GetKeyCode()) {
    case 'r':
    case 'R':
        if (m_reset)
            m_reset();
        else
            vtkInteractorStyleTrackballCamera::OnChar();
        break;
    default:
        break; // no wireframe/stereo/exit/pick keys
    }
}

void ViewInteractorStyle::OnKeyPress() {}

} // namespace ctwin::views
