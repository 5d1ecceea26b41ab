// The model part of the workload forms (training job, inference service): model presets read from the
// catalog category `models` (items of kind `llm` with sourced values model_params, active_params, layers,
// hidden_size, kv_heads, head_dim), the model's figures, and the checks both forms share.
#include "authoring_form.h"

#include <QComboBox>
#include <QLocale>
#include <algorithm>

namespace ctwin::app {

double designGpus(const AuthoringContext& ctx) {
    double gpus = 0.0;
    for (const auto& r : ctx.document.project().racks)
        if (!r.spare)
            if (const auto* item = ctx.catalog.find(r.rackType))
                if (const auto* v = item->find("gpus")) gpus += v->base;
    return gpus;
}

double unbookedGpus(const AuthoringContext& ctx) {
    const auto& p = ctx.document.project();
    double booked = 0;
    for (const auto& j : p.trainingJobs)
        booked += std::max(0.0, j.gpus);
    for (const auto& s : p.inferenceServices)
        booked += std::max(0.0, s.gpus);
    return std::max(0.0, designGpus(ctx) - booked);
}

void addWorkloadModel(AuthoringForm& form, const AuthoringContext& ctx, const std::string& name,
                      const std::vector<ModelFigure>& fields, const std::string& modelField) {
    AuthoringForm::Options presets;
    for (const auto* m : ctx.catalog.byCategory("models"))
        if (m->kind == "llm")
            presets.emplace_back(QString::fromStdString(m->name), QString::fromStdString(m->id));
    QComboBox* combo = nullptr;
    if (!presets.empty() && !modelField.empty()) {
        // The entity's own preset field: "(none)" first, the presets after.
        form.addChoice(modelField, presets, QString(), /*optional=*/true);
        combo = qobject_cast<QComboBox*>(form.editor(QString::fromStdString(modelField)));
        combo->setItemText(0, QObject::tr("(none: type the model's figures)"));
    } else if (!presets.empty()) {
        combo = new QComboBox;
        combo->addItem(QObject::tr("(type the model's figures)"), QString());
        for (const auto& [text, id] : presets)
            combo->addItem(text, id);
        form.addExtra(QStringLiteral("model_preset"), QObject::tr("Model"), combo);
    }
    form.addField("name", name);
    for (const auto& f : fields)
        form.addField(f.key, f.initial);
    if (!combo) return;
    const model::Catalog* catalog = &ctx.catalog;
    const bool stored = !modelField.empty();
    QObject::connect(
        combo, &QComboBox::currentIndexChanged, &form, [&form, combo, catalog, fields, stored](int i) {
            const auto* item = catalog->find(combo->itemData(i).toString().toStdString());
            if (!item) return;
            for (const auto& f : fields) {
                const QString key = QString::fromStdString(f.key);
                if (stored && f.fromPreset) {
                    form.setText(key, QStringLiteral("0")); // 0 = the stored preset's
                } else if (const auto* v = item->find(f.key)) {
                    // The forms show parameters in billions (B params).
                    const bool params = f.key == "model_params" || f.key == "active_params";
                    form.setText(key, QLocale::c().toString(params ? v->base / 1e9 : v->base, 'g', 10));
                } else if (f.key == "experts" || f.key == "active_experts") {
                    form.setText(key, QString()); // a dense preset: no experts
                }
            }
            form.setText(QStringLiteral("name"), QString::fromStdString(item->name));
        });
}

QString validateWorkloadModel(const nlohmann::ordered_json& e) {
    if (e["model_params"].get<double>() <= 0) return QObject::tr("The model needs a parameter count above 0");
    if (e["active_params"].is_number() && e["active_params"].get<double>() > e["model_params"].get<double>())
        return QObject::tr("Active parameters cannot exceed the model's parameters");
    return {};
}

} // namespace ctwin::app
