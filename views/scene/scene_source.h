#pragma once

namespace ctwin::model {
struct Project;
class Catalog;
} // namespace ctwin::model
namespace ctwin::cost {
struct Results;
}

namespace ctwin::views {

/// What a scene is built from: the design, the catalog it references and, when available, the engine's
/// results (thermal margins, link figures). The scenes copy what they need; nothing here is retained.
struct SceneSource {
    const model::Project& project;
    const model::Catalog& catalog;
    /// Null before the first evaluation: metrics that need results show "no data" with a notice.
    const cost::Results* results = nullptr;
};

} // namespace ctwin::views
