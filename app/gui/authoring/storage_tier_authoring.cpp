// How a storage tier is made: a catalog storage type and a capacity, in a building.
#include "authoring_form.h"
#include "gui/document_editor.h"

namespace ctwin::app {

namespace {

using ojson = nlohmann::ordered_json;

class StorageTierAuthoring : public ChildAuthoring {
public:
    StorageTierAuthoring() : ChildAuthoring(model::EntityKind::Building) {}
    model::EntityKind kind() const override { return model::EntityKind::StorageTier; }
    QString title() const override { return QObject::tr("Storage tier"); }

    void buildForm(AuthoringForm& form, const AuthoringContext& ctx) const override {
        const auto& p = ctx.document.project();
        std::string building = selectedOrFirst(ctx, model::EntityKind::Building);
        std::string type;
        for (const auto* item : ctx.catalog.byCategory("storage"))
            if (type.empty() || item->kind == "parallel_fs") type = item->id;
        form.setFixed("id", uniqueId(ctx.document, "storage-" + std::to_string(p.storageTiers.size() + 1)));
        form.addField("name", nextName(ctx.document, kind(), "Storage"));
        form.addField("type", type);
        form.addField("building", building);
        form.addField("capacity_bytes", 1e15);
    }

    QString validate(const ojson& e, const AuthoringForm&, const AuthoringContext&) const override {
        if (e["capacity_bytes"].get<double>() <= 0)
            return QObject::tr("A storage tier needs a capacity above 0 TB");
        return {};
    }
};

} // namespace

std::unique_ptr<EntityAuthoring> makeStorageTierAuthoring() {
    return std::make_unique<StorageTierAuthoring>();
}

} // namespace ctwin::app
