// How a power feed is made: a path from the utility through a chain of catalog power gear (in order), in a
// building, with its capacity; the selected racks can be put on it as their A or B feed in the same step.
#include "authoring_form.h"
#include "gui/document_editor.h"

#include <QComboBox>

namespace ctwin::app {

namespace {

using ojson = nlohmann::ordered_json;

class PowerFeedAuthoring : public ChildAuthoring {
public:
    PowerFeedAuthoring() : ChildAuthoring(model::EntityKind::Building) {}
    model::EntityKind kind() const override { return model::EntityKind::PowerFeed; }
    QString title() const override { return QObject::tr("Power feed"); }

    void buildForm(AuthoringForm& form, const AuthoringContext& ctx) const override {
        const auto& p = ctx.document.project();
        std::string building = selectedOrFirst(ctx, model::EntityKind::Building);
        int n = 0;
        for (const auto& f : p.powerFeeds)
            n += f.building == building;
        const std::string letter(1, static_cast<char>('A' + n % 26));
        form.setFixed("id", uniqueId(ctx.document,
                                     building + "-feed-" + std::string(1, static_cast<char>('a' + n % 26))));
        std::string buildingName = building;
        for (const auto& b : p.buildings)
            if (b.id == building && !b.name.empty()) buildingName = b.name;
        form.addField("name", buildingName + " feed " + letter);
        form.addField("building", building);
        form.addField("capacity_w", 10e6);
        AuthoringForm::Options chain;
        QStringList standard;
        for (const auto* item : ctx.catalog.byCategory("power")) {
            const QString id = QString::fromStdString(item->id);
            chain.emplace_back(QStringLiteral("%1 (%2)").arg(QString::fromStdString(item->name), id), id);
            // A standby generator is an option, not part of the usual utility path.
            if (item->kind != "generator") standard << id;
        }
        form.addPicks("chain", chain, standard);
        const QStringList racks = selectedRacks(ctx);
        auto* assign = new QComboBox;
        assign->addItem(QObject::tr("No"), QString());
        assign->addItem(
            QObject::tr("As feed A of the %n selected racks", nullptr, static_cast<int>(racks.size())),
            QStringLiteral("feed_a"));
        assign->addItem(
            QObject::tr("As feed B of the %n selected racks", nullptr, static_cast<int>(racks.size())),
            QStringLiteral("feed_b"));
        assign->setEnabled(!racks.isEmpty());
        form.addExtra(QStringLiteral("assign"), QObject::tr("Assign racks"), assign);
    }

    QString validate(const ojson& e, const AuthoringForm&, const AuthoringContext&) const override {
        if (e["chain"].empty()) return QObject::tr("Pick the power gear of the chain (at least one item)");
        if (e["capacity_w"].get<double>() <= 0) return QObject::tr("A feed needs a capacity above 0 MW");
        return {};
    }

    QString create(const ojson& entity, const AuthoringForm& form, AuthoringContext& ctx,
                   QString* newId) const override {
        const std::string field = form.text(QStringLiteral("assign")).toStdString();
        const QStringList racks = field.empty() ? QStringList() : selectedRacks(ctx);
        std::string id;
        const QString error = ctx.editor.run(
            "Add power feed " + entity.value("name", std::string()) +
                (racks.isEmpty() ? std::string() : " to " + std::to_string(racks.size()) + " racks"),
            [&](model::Transaction& t) {
                id = t.add(kind(), entity);
                for (const QString& r : racks)
                    t.setProperty(r.toStdString(), field, id);
            });
        if (error.isEmpty() && newId) *newId = QString::fromStdString(id);
        return error;
    }
};

} // namespace

std::unique_ptr<EntityAuthoring> makePowerFeedAuthoring() {
    return std::make_unique<PowerFeedAuthoring>();
}

} // namespace ctwin::app
