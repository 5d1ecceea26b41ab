// How a power feed is made: a path from the utility through a chain of catalog power gear (in order), in a
// building, with its capacity; the selected racks can be put on it as their A or B feed in the same step.
#include "authoring_form.h"
#include "gui/document_editor.h"

#include <QComboBox>
#include <unordered_set>

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
        form.addField("power_oversubscription_ratio", nullptr);
        const QStringList racks = selectedRacks(ctx);
        auto* assign = new QComboBox;
        assign->addItem(QObject::tr("No"), QString());
        if (!racks.isEmpty()) {
            assign->addItem(
                QObject::tr("As feed A of the %n selected racks", nullptr, static_cast<int>(racks.size())),
                QStringLiteral("feed_a"));
            assign->addItem(
                QObject::tr("As feed B of the %n selected racks", nullptr, static_cast<int>(racks.size())),
                QStringLiteral("feed_b"));
        } else {
            // Rows made before their feeds: offer the building's racks that lack a feed, so that
            // they need not be re-assigned by hand; the side they all lack first is the default.
            const int noA = static_cast<int>(unfedRacks(ctx, building, "feed_a").size());
            const int noB = static_cast<int>(unfedRacks(ctx, building, "feed_b").size());
            if (noA > 0)
                assign->addItem(QObject::tr("As feed A of the %n racks of %1 without one", nullptr, noA)
                                    .arg(QString::fromStdString(buildingName)),
                                QStringLiteral("unfed:feed_a"));
            if (noB > 0)
                assign->addItem(QObject::tr("As feed B of the %n racks of %1 without one", nullptr, noB)
                                    .arg(QString::fromStdString(buildingName)),
                                QStringLiteral("unfed:feed_b"));
            if (assign->count() > 1) assign->setCurrentIndex(1);
        }
        assign->setEnabled(assign->count() > 1);
        form.addExtra(QStringLiteral("assign"), QObject::tr("Assign racks"), assign);
    }

    /// The racks in `building` whose `field` (feed_a or feed_b) is empty.
    static QStringList unfedRacks(const AuthoringContext& ctx, const std::string& building,
                                  const std::string& field) {
        const auto& p = ctx.document.project();
        std::unordered_set<std::string> halls, rows;
        for (const auto& h : p.halls)
            if (h.building == building) halls.insert(h.id);
        for (const auto& r : p.rows)
            if (halls.count(r.hall)) rows.insert(r.id);
        QStringList out;
        for (const auto& r : p.racks)
            if (rows.count(r.row) && (field == "feed_a" ? r.feedA : r.feedB).empty())
                out << QString::fromStdString(r.id);
        return out;
    }

    QString validate(const ojson& e, const AuthoringForm&, const AuthoringContext&) const override {
        if (e["chain"].empty()) return QObject::tr("Pick the power gear of the chain (at least one item)");
        if (e["capacity_w"].get<double>() <= 0) return QObject::tr("A feed needs a capacity above 0 MW");
        return {};
    }

    QString create(const ojson& entity, const AuthoringForm& form, AuthoringContext& ctx,
                   QString* newId) const override {
        std::string field = form.text(QStringLiteral("assign")).toStdString();
        QStringList racks;
        if (field.rfind("unfed:", 0) == 0) {
            field = field.substr(6);
            // The building as typed in the form, which may differ from the default.
            racks = unfedRacks(ctx, entity.value("building", std::string()), field);
        } else if (!field.empty())
            racks = selectedRacks(ctx);
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
