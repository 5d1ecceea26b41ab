#pragma once
#include "catalog.h"
#include "document.h"
#include "entity_kind.h"

#include <QString>
#include <QStringList>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

class QUndoStack;

namespace ctwin::app {

class AuthoringForm;
class DocumentEditor;

/// What an authoring module may read and use: the open document, its editor (every creation is one
/// DocumentEditor::run, so one undo entry), the undo stack (for creations that reuse several editor
/// operations as one macro) and what the user has selected.
struct AuthoringContext {
    const model::Document& document;
    DocumentEditor& editor;
    QUndoStack& undo;
    const model::Catalog& catalog;
    const model::AssumptionSet& defaults;
    QStringList selection;
};

/// How one entity kind is made in the desktop app: the fields of its creation form and their defaults,
/// checks that need several fields, and the command that adds it. One module per kind, all listed in
/// authoringRegistry(), which drives the Insert menu, the toolbar and the context menus.
class EntityAuthoring {
public:
    virtual ~EntityAuthoring() = default;
    virtual model::EntityKind kind() const = 0;
    /// "Cooling loop": menu text, dialog title ("New cooling loop") and undo label.
    virtual QString title() const = 0;
    /// The kind whose context menu offers "Add <title>" (a hall offers rows and loops); none for top level.
    virtual std::optional<model::EntityKind> parentKind() const { return std::nullopt; }
    /// Empty when the kind can be added to this design now, else why not ("add a building first").
    virtual QString unavailableReason(const AuthoringContext&) const { return {}; }
    /// Adds the fields, with defaults taken from the design and the selection.
    virtual void buildForm(AuthoringForm& form, const AuthoringContext& ctx) const = 0;
    /// Checks that involve several fields or the design (a hall inside its building, a link between two
    /// different places); empty when acceptable. Field bounds are checked by the form before this.
    virtual QString validate(const nlohmann::ordered_json&, const AuthoringForm&,
                             const AuthoringContext&) const {
        return {};
    }
    /// Adds the entity (and what comes with it) as one undoable command. Returns the reason on refusal,
    /// with the design unchanged; `newId` receives the new entity's id.
    virtual QString create(const nlohmann::ordered_json& entity, const AuthoringForm& form,
                           AuthoringContext& ctx, QString* newId) const;
};

/// Every authoring module, in Insert-menu order (containers first, then infrastructure, then workloads).
const std::vector<std::unique_ptr<EntityAuthoring>>& authoringRegistry();
const EntityAuthoring* authoringFor(model::EntityKind kind);

// Helpers shared by the modules.
/// `base` when free, else base-2, base-3, ...
std::string uniqueId(const model::Document& doc, const std::string& base);
/// "<title> <n>" with n one past the count of entities of the kind ("Hall 3").
std::string nextName(const model::Document& doc, model::EntityKind kind, const std::string& title);
/// The selected entity of a kind, or the one a selected entity lies in (a rack's hall), else empty.
std::string selectedOf(const AuthoringContext& ctx, model::EntityKind kind);
/// selectedOf, else the first entity of the kind in the design (the default parent of a new entity), else
/// empty.
std::string selectedOrFirst(const AuthoringContext& ctx, model::EntityKind kind);
/// Selected rack ids.
QStringList selectedRacks(const AuthoringContext& ctx);
/// GPUs in the design's racks that are not spares (catalog `gpus` of each rack type).
double designGpus(const AuthoringContext& ctx);
/// A "Model" drop-down of the catalog's `models` items (kind `llm`); picking one fills those of `fields`
/// (model_params, active_params, layers, kv_heads, head_dim) the form has. Absent when the catalog has none.
void addModelPresets(AuthoringForm& form, const AuthoringContext& ctx,
                     const std::vector<std::string>& fields);

// The modules (one file each), listed by authoringRegistry().
std::unique_ptr<EntityAuthoring> makeSiteAuthoring();
std::unique_ptr<EntityAuthoring> makeBuildingAuthoring();
std::unique_ptr<EntityAuthoring> makeDataHallAuthoring();
std::unique_ptr<EntityAuthoring> makeRowAuthoring();
std::unique_ptr<EntityAuthoring> makePowerFeedAuthoring();
std::unique_ptr<EntityAuthoring> makeCoolingLoopAuthoring();
std::unique_ptr<EntityAuthoring> makeFabricAuthoring();
std::unique_ptr<EntityAuthoring> makeStorageTierAuthoring();
std::unique_ptr<EntityAuthoring> makeScaleAcrossLinkAuthoring();
std::unique_ptr<EntityAuthoring> makeTrainingJobAuthoring();
std::unique_ptr<EntityAuthoring> makeInferenceServiceAuthoring();

} // namespace ctwin::app
