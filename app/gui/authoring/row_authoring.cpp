// How a row is made: a line of racks in a hall, by default one rack depth plus a 1.2 m aisle past the last
// row and clear of the hall's CDUs; optionally filled at once with racks of one type up to the far wall
// (the row and its racks are one undo entry).
#include "authoring_form.h"
#include "gui/cdu_layout.h"
#include "gui/document_editor.h"

#include <QComboBox>
#include <QUndoStack>
#include <algorithm>
#include <cmath>

namespace ctwin::app {

namespace {

using ojson = nlohmann::ordered_json;
constexpr double kAisleM = 1.2; // hot/cold aisle width between rows (ASHRAE TC 9.9 practice: 1.2 m)

class RowAuthoring : public ChildAuthoring {
public:
    RowAuthoring() : ChildAuthoring(model::EntityKind::DataHall) {}
    model::EntityKind kind() const override { return model::EntityKind::Row; }
    QString title() const override { return QObject::tr("Row"); }

    void buildForm(AuthoringForm& form, const AuthoringContext& ctx) const override {
        const auto& p = ctx.document.project();
        std::string hall = selectedOrFirst(ctx, model::EntityKind::DataHall);
        double x = 0.6, y = kAisleM;
        int n = 0;
        std::string lastType;
        for (const auto& l : p.coolingLoops)
            if (l.hall == hall)
                for (const auto& c : l.cdus)
                    x = std::max(x, c.xM + catalogValue(ctx.catalog, l.cduType, "width_m", 1.2) + 0.6);
        for (const auto& r : p.rows)
            if (r.hall == hall) {
                ++n;
                double depth = 1.2;
                for (const auto& rack : p.racks)
                    if (rack.row == r.id)
                        depth = catalogValue(ctx.catalog, rack.rackType, "depth_m", 1.2),
                        lastType = rack.rackType;
                y = std::max(y, r.y.value() + depth + kAisleM);
            }
        x = std::ceil(x / 0.6 - 1e-9) * 0.6;
        form.setFixed("id",
                      uniqueId(ctx.document, hall + "-R" + (n + 1 < 10 ? "0" : "") + std::to_string(n + 1)));
        form.addField("name", "Row " + std::to_string(n + 1));
        form.addField("hall", hall);
        form.addField("x_m", x);
        form.addField("y_m", y);
        form.addField("rotation_deg", 0.0);
        auto* type = new QComboBox;
        type->addItem(QObject::tr("(empty row)"), QString());
        // The row's network rack: at its start, holding the leaves that end-of-row and
        // middle-of-row fabrics put in the row.
        auto* network = new QComboBox;
        network->addItem(QObject::tr("(none)"), QString());
        for (const auto* item : ctx.catalog.byCategory("racks")) {
            const QString label = QStringLiteral("%1 (%2)").arg(QString::fromStdString(item->name),
                                                                QString::fromStdString(item->id));
            (item->kind == "network" ? network : type)->addItem(label, QString::fromStdString(item->id));
        }
        type->setCurrentIndex(std::max(0, type->findData(QString::fromStdString(lastType))));
        network->setCurrentIndex(network->count() > 1 ? 1 : 0);
        form.addExtra(QStringLiteral("fill_rack_type"), QObject::tr("Fill with racks"), type);
        form.addExtra(QStringLiteral("network_rack_type"), QObject::tr("Network rack"), network);
        form.addNote(QObject::tr(
            "With a rack type, the row is filled up to the far wall or the next obstacle; "
            "racks take the building's first two feeds and, when liquid-cooled, the hall's loop. A network "
            "rack stands at the row's start and holds the leaves of end- and middle-of-row fabrics."));
    }

    QString validate(const ojson& e, const AuthoringForm&, const AuthoringContext& ctx) const override {
        for (const auto& h : ctx.document.project().halls)
            if (h.id == e["hall"].get<std::string>() &&
                (e["x_m"].get<double>() > h.width.value() || e["y_m"].get<double>() > h.depth.value()))
                return QObject::tr("The row starts outside %1 (%2 x %3 m)")
                    .arg(QString::fromStdString(h.name))
                    .arg(h.width.value())
                    .arg(h.depth.value());
        return {};
    }

    QString create(const ojson& entity, const AuthoringForm& form, AuthoringContext& ctx,
                   QString* newId) const override {
        const QString rackType = form.text(QStringLiteral("fill_rack_type"));
        if (rackType.isEmpty()) return EntityAuthoring::create(entity, form, ctx, newId);
        const QString label = QObject::tr("Add %1 filled with %2 racks")
                                  .arg(QString::fromStdString(entity.value("name", std::string())), rackType);
        // The row and its racks in one transaction: one validation, one change event, one evaluation and
        // one undo entry; a row without room for a rack is refused whole (the empty row was not asked for).
        std::string id;
        const QString error = ctx.editor.run(label.toStdString(), [&](model::Transaction& t) {
            id = t.add(kind(), entity);
            if (const QString network = form.text(QStringLiteral("network_rack_type")); !network.isEmpty())
                ctx.editor.fillRow(t, id, network.toStdString(), 1);
            ctx.editor.fillRow(t, id, rackType.toStdString());
        });
        if (!error.isEmpty()) return error;
        if (newId) *newId = QString::fromStdString(id);
        return {};
    }
};

} // namespace

std::unique_ptr<EntityAuthoring> makeRowAuthoring() {
    return std::make_unique<RowAuthoring>();
}

} // namespace ctwin::app
