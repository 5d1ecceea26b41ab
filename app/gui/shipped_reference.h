#pragma once
#include <QString>

namespace ctwin::app {

/// True when `path` is one of the reference designs ClusterTwin ships: a file in the data folder's
/// reference/ (referenceDirectory(): the build's or the installed share/clustertwin/reference), or a file
/// named by the index.json beside it (the source tree's data/reference). Such a file is never opened for
/// saving in place: the app opens it as an untitled copy (KiCad/QGIS convention) and refuses to
/// write over it.
bool isShippedReference(const QString& path);

} // namespace ctwin::app
