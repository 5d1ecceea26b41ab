// Model presets for the workload forms, read from the catalog category `models` (items of kind `llm` with
// sourced values model_params, active_params, layers, hidden_size, kv_heads, head_dim).
#include "authoring_form.h"

#include <QComboBox>
#include <QLocale>

namespace ctwin::app {

double designGpus(const AuthoringContext& ctx) {
    double gpus = 0.0;
    for (const auto& r : ctx.document.project().racks)
        if (!r.spare)
            if (const auto* item = ctx.catalog.find(r.rackType))
                if (const auto* v = item->find("gpus")) gpus += v->base;
    return gpus;
}

void addModelPresets(AuthoringForm& form, const AuthoringContext& ctx,
                     const std::vector<std::string>& fields) {
    const auto models = ctx.catalog.byCategory("models");
    if (models.empty()) return;
    auto* combo = new QComboBox;
    combo->addItem(QObject::tr("(type the model's figures)"), QString());
    for (const auto* m : models)
        if (m->kind == "llm") combo->addItem(QString::fromStdString(m->name), QString::fromStdString(m->id));
    form.addExtra(QStringLiteral("model_preset"), QObject::tr("Model"), combo);
    const model::Catalog* catalog = &ctx.catalog;
    QObject::connect(combo, &QComboBox::currentIndexChanged, &form, [&form, combo, catalog, fields](int i) {
        const auto* item = catalog->find(combo->itemData(i).toString().toStdString());
        if (!item) return;
        for (const auto& f : fields)
            if (const auto* v = item->find(f)) {
                // The form shows parameters in billions (B params).
                const double shown = (f == "model_params" || f == "active_params") ? v->base / 1e9 : v->base;
                form.setText(QString::fromStdString(f), QLocale::c().toString(shown, 'g', 10));
            }
        form.setText(QStringLiteral("name"), QString::fromStdString(item->name));
    });
}

} // namespace ctwin::app
