// How a fabric is made: a Clos network (role, switch, planes, tiers, per-tier oversubscription, breakout,
// optics policy, routing, buildings in scope) with a live preview of what it costs before OK: the engine's
// bill of materials (cost::deriveBillOfMaterials) of a copy of the design with the candidate fabric.
#include "authoring_form.h"
#include "bill_of_materials.h"
#include "design_json.h"
#include "display_units.h"
#include "gui/document_editor.h"
#include "input_resolver.h"

#include <QLabel>
#include <QLineEdit>
#include <QTimer>
#include <cmath>

namespace ctwin::app {

namespace {

using ojson = nlohmann::ordered_json;

/// Switches, transceivers and cost of the candidate fabric on a copy of the design; the error findings
/// about it (tier limit, breakout, no optic for a reach) come back in `errors`.
struct Preview {
    cost::FabricBom bom;
    std::vector<std::string> errors;
    std::vector<std::string> warnings;
};

std::optional<Preview> preview(const ojson& entity, const AuthoringContext& ctx, QString* why) {
    try {
        model::Project copy = ctx.document.project();
        copy.fabrics.push_back(model::entityFromJson<model::Fabric>(entity, "new fabric"));
        const cost::InputResolver inputs(copy, ctx.defaults);
        const auto bom = cost::deriveBillOfMaterials(ctx.catalog, inputs);
        Preview out;
        const std::string id = entity.value("id", std::string());
        for (const auto& f : bom.fabrics)
            if (f.fabricId == id) out.bom = f;
        for (const auto& r : bom.rules)
            if (r.entity == id)
                (r.severity == cost::Severity::Error ? out.errors : out.warnings).push_back(r.message);
        return out;
    } catch (const std::exception& e) {
        if (why) *why = QString::fromUtf8(e.what());
        return std::nullopt;
    }
}

class FabricAuthoring : public EntityAuthoring {
public:
    model::EntityKind kind() const override { return model::EntityKind::Fabric; }
    QString title() const override { return QObject::tr("Fabric"); }

    void buildForm(AuthoringForm& form, const AuthoringContext& ctx) const override {
        const auto& p = ctx.document.project();
        form.setFixed("id", uniqueId(ctx.document, "fabric-" + std::to_string(p.fabrics.size() + 1)));
        form.addField("name", nextName(ctx.document, kind(), "Back-end fabric"));
        form.addField("role", "backend");
        AuthoringForm::Options buildings;
        for (const auto& b : p.buildings)
            buildings.emplace_back(QString::fromStdString(b.name.empty() ? b.id : b.name),
                                   QString::fromStdString(b.id));
        form.addPicks("buildings", buildings, {});
        std::string sw;
        for (const auto* item : ctx.catalog.byCategory("switches"))
            if (sw.empty()) sw = item->id;
        form.addField("switch", sw);
        form.addField("port_bit_per_s", 400e9);
        form.addField("planes", 1);
        form.addField("tiers", 2);
        form.addField("oversubscription", "1");
        form.addField("breakout", 1);
        form.addField("rail_optimized", false);
        form.addField("optics_policy", "standard");
        form.addField("routing", "ecmp");
        // The ratios follow the tier count: one per tier boundary, the ones typed kept and a new
        // boundary non-blocking (1), so switching to 3 tiers leaves "1, 1" rather than a refused "1".
        if (auto* tiers = qobject_cast<QLineEdit*>(form.editor("tiers")))
            QObject::connect(tiers, &QLineEdit::textChanged, &form, [&form](const QString& text) {
                bool ok = false;
                const int count = text.trimmed().toInt(&ok);
                if (!ok || count < 1 || count > 3) return; // the tiers field refuses it itself
                QStringList ratios;
                for (const QString& r :
                     form.text("oversubscription").split(QLatin1Char(','), Qt::SkipEmptyParts))
                    ratios << r.trimmed();
                if (ratios.size() == count - 1) return;
                while (ratios.size() > count - 1)
                    ratios.removeLast();
                while (ratios.size() < count - 1)
                    ratios << QStringLiteral("1");
                form.setText("oversubscription", ratios.join(QStringLiteral(", ")));
            });
        form.addNote(QObject::tr(
            "No building ticked: every building of the design is in scope. Oversubscription: "
            "one downlink:uplink ratio per tier boundary, comma-separated (2 tiers: one; it "
            "follows the tiers). Routing: how leaves spread flows over their uplinks (ECMP hash, "
            "adaptive, packet spraying); it sets the collective efficiency of training traffic."));
        QLabel* label = form.addPreview();
        auto* timer = new QTimer(&form);
        timer->setSingleShot(true);
        timer->setInterval(120); // one engine run per pause in typing
        const auto refresh = [&form, label] {
            QString why;
            const auto e = form.candidate();
            if (!e) {
                label->setText(QObject::tr("<i>Preview: complete the fields.</i>"));
                return;
            }
            const auto pv = preview(*e, form.context(), &why);
            if (!pv) {
                label->setText(QObject::tr("<i>Preview: %1</i>").arg(why.toHtmlEscaped()));
                return;
            }
            views::DisplayUnits units;
            const auto& b = pv->bom;
            QString html =
                QObject::tr("<b>Preview</b>: %1 endpoints per plane · <b>%2 switches</b> · "
                            "<b>%3 transceivers</b> · %4 cables · switches %5 + optics %6 = <b>%7</b> · %8")
                    .arg(b.perPlane.endpoints)
                    .arg(b.switches)
                    .arg(b.transceivers)
                    .arg(b.cables)
                    .arg(units.formatMoney(b.switchCost.value()), units.formatMoney(b.opticsCost.value()),
                         units.formatMoney((b.switchCost + b.opticsCost).value()),
                         units.formatPower(b.power.value()));
            for (const auto& m : pv->errors)
                html += QStringLiteral("<br><span style='color:#c0392b'>%1</span>")
                            .arg(QString::fromStdString(m).toHtmlEscaped());
            for (const auto& m : pv->warnings)
                html += QStringLiteral("<br><span style='color:#b9770e'>%1</span>")
                            .arg(QString::fromStdString(m).toHtmlEscaped());
            label->setText(html);
        };
        QObject::connect(timer, &QTimer::timeout, &form, refresh);
        QObject::connect(&form, &AuthoringForm::edited, timer, qOverload<>(&QTimer::start));
        refresh();
    }

    QString validate(const ojson& e, const AuthoringForm&, const AuthoringContext& ctx) const override {
        const int tiers = e["tiers"];
        const auto& over = e["oversubscription"];
        if (!over.empty() && static_cast<int>(over.size()) != tiers - 1)
            return QObject::tr(
                       "%1 tiers have %2 tier boundaries: give %2 oversubscription ratios (you gave %3)")
                .arg(tiers)
                .arg(tiers - 1)
                .arg(over.size());
        // Each tier below the top must keep at least one uplink port: a leaf of radix k splits into
        // d = floor(k·o/(1+o)) down and k - d up (cost::sizeClos).
        if (const auto* sw = ctx.catalog.find(e["switch"].get<std::string>())) {
            const int radix = static_cast<int>(sw->value("ports")) * e["breakout"].get<int>();
            for (int boundary = 0; boundary + 1 < tiers; ++boundary) {
                const double o = over.empty() ? 1.0 : over[static_cast<size_t>(boundary)].get<double>();
                const int down = static_cast<int>(std::floor(radix * o / (1.0 + o)));
                if (radix < 2 || radix - down < 1)
                    return QObject::tr(
                               "A radix-%1 switch cannot build %2 tiers at 1:%3: tier %4 has no uplink port")
                        .arg(radix)
                        .arg(tiers)
                        .arg(o)
                        .arg(boundary + 1);
            }
        }
        QString why;
        const auto pv = preview(e, ctx, &why);
        if (!pv) return why;
        if (!pv->errors.empty()) return QString::fromStdString(pv->errors.front());
        return {};
    }
};

} // namespace

std::unique_ptr<EntityAuthoring> makeFabricAuthoring() {
    return std::make_unique<FabricAuthoring>();
}

} // namespace ctwin::app
