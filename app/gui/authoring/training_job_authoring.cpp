// How a training job is made: a model (from the catalog's model presets or typed), a token budget,
// precision, the GPUs it runs on (by default every GPU of the design) and its parallelism.
#include "authoring_form.h"
#include "gui/document_editor.h"

#include <cmath>

namespace ctwin::app {

namespace {

using ojson = nlohmann::ordered_json;

class TrainingJobAuthoring : public EntityAuthoring {
public:
    model::EntityKind kind() const override { return model::EntityKind::TrainingJob; }
    QString title() const override { return QObject::tr("Training job"); }

    void buildForm(AuthoringForm& form, const AuthoringContext& ctx) const override {
        const auto& p = ctx.document.project();
        form.setFixed("id", uniqueId(ctx.document, "train-" + std::to_string(p.trainingJobs.size() + 1)));
        addModelPresets(form, ctx, {"model_params", "active_params"});
        form.addField("name", nextName(ctx.document, kind(), "Training"));
        form.addField("model_params", 405e9);
        form.addField("active_params", 405e9);
        form.addField("tokens", 15e12);
        form.addField("precision", "bf16");
        form.addField("mfu", nullptr);
        const double gpus = designGpus(ctx);
        form.addField("gpus", gpus);
        form.addField("tp", 8);
        form.addField("pp", 1);
        form.addField("dp", std::max(1.0, std::floor(gpus / 8.0)));
        form.addField("ep", 1);
        form.addField("checkpoint_bytes_per_param", 16.0);
        form.addField("storage_tier", p.storageTiers.empty() ? std::string() : p.storageTiers.front().id);
        AuthoringForm::Options sites;
        for (const auto& s : p.sites)
            sites.emplace_back(QString::fromStdString(s.name.empty() ? s.id : s.name),
                               QString::fromStdString(s.id));
        form.addPicks("sites", sites, {});
        form.addField("restart_scope", "whole_job");
        form.addField("async_checkpoint", false);
        form.addNote(
            QObject::tr("No site ticked: the job runs on the whole design. MFU 0 uses the design's MFU "
                        "assumption."));
    }

    QString validate(const ojson& e, const AuthoringForm&, const AuthoringContext&) const override {
        if (e["model_params"].get<double>() <= 0)
            return QObject::tr("The model needs a parameter count above 0");
        if (e["active_params"].is_number() &&
            e["active_params"].get<double>() > e["model_params"].get<double>())
            return QObject::tr("Active parameters cannot exceed the model's parameters");
        if (e["tokens"].get<double>() <= 0) return QObject::tr("The job needs a token budget above 0");
        if (e["gpus"].get<double>() <= 0)
            return QObject::tr("The job needs GPUs (place racks first, or type a count)");
        return {};
    }
};

} // namespace

std::unique_ptr<EntityAuthoring> makeTrainingJobAuthoring() {
    return std::make_unique<TrainingJobAuthoring>();
}

} // namespace ctwin::app
