#pragma once
#include <QString>

namespace ctwin::views {

/// The id the project tree gives its top item, the design itself (name, description, sources). Not an
/// entity id: entity ids never start with '#' (model ids are plain words; see data/FORMAT.md §3).
inline const QString kDesignRootId = QStringLiteral("#design");

} // namespace ctwin::views
