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
    /// What is in view when nothing is selected (the hall at the floor plan's centre): the default parent
    /// after the selection.
    QString current = {};
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

/// A kind made inside another (a feed in a building, a row in a hall): offered as "Add <title>" in the
/// parent's context menu, and unavailable ("Add a building first.") while the design has no parent.
class ChildAuthoring : public EntityAuthoring {
public:
    explicit ChildAuthoring(model::EntityKind parent) : m_parent(parent) {}
    std::optional<model::EntityKind> parentKind() const override { return m_parent; }
    QString unavailableReason(const AuthoringContext& ctx) const override;

private:
    model::EntityKind m_parent;
};

/// Every authoring module, in Insert-menu order (containers first, then infrastructure, then workloads).
const std::vector<std::unique_ptr<EntityAuthoring>>& authoringRegistry();
const EntityAuthoring* authoringFor(model::EntityKind kind);

// Helpers shared by the modules.
/// `base` when free, else base-2, base-3, ...
std::string uniqueId(const model::Document& doc, const std::string& base);
/// "<title> <n>" with n one past the count of entities of the kind ("Hall 3").
std::string nextName(const model::Document& doc, model::EntityKind kind, const std::string& title);
/// The selected entity of a kind, the one a selected entity lies in (a rack's hall), else the first one
/// inside a selected container (a selected site's first building, a selected building's first hall); empty
/// when none.
std::string selectedOf(const AuthoringContext& ctx, model::EntityKind kind);
/// selectedOf, else the one of `ctx.current` (the hall in view), else the first entity of the kind in the
/// design (the default parent of a new entity), else empty.
std::string selectedOrFirst(const AuthoringContext& ctx, model::EntityKind kind);
/// Selected rack ids.
QStringList selectedRacks(const AuthoringContext& ctx);
/// GPUs in the design's racks that are not spares (catalog `gpus` of each rack type).
double designGpus(const AuthoringContext& ctx);
/// GPUs no training job or inference service claims yet: a new form's default.
double unbookedGpus(const AuthoringContext& ctx);
/// The model of a workload form: a drop-down of the catalog's `models` presets (kind `llm`), then the name
/// and the model's figures `fields` with their defaults. Picking a preset fills those fields from it (and
/// `name`). With `modelField` (the inference service's `model`), the drop-down is that field and the preset
/// is stored: the figures it supplies itself (`fromPreset`) are set to 0 = "the preset's", so that its
/// attention layout (MLA, sliding window) applies. Without presets in the catalog the figures are typed.
struct ModelFigure {
    std::string key;
    nlohmann::ordered_json initial;
    bool fromPreset = false;
};
void addWorkloadModel(AuthoringForm& form, const AuthoringContext& ctx, const std::string& name,
                      const std::vector<ModelFigure>& fields, const std::string& modelField = {});
/// Checks of a workload's model shared by the forms: parameters above 0, active parameters not above them.
QString validateWorkloadModel(const nlohmann::ordered_json& e);

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
