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
        // Defaults: Llama 3.1 405B (dense, 126 layers; Llama Team, "The Llama 3 Herd of Models", 2024, Table 3).
        addWorkloadModel(form, ctx, nextName(ctx.document, kind(), "Training"),
                         {{"model_params", 405e9},
                          {"active_params", 405e9},
                          {"layers", 126},
                          // Mixture of experts: the expert all-to-all needs them.
                          {"hidden_size", 16384},
                          {"experts", nullptr},
                          {"active_experts", nullptr}});
        form.addField("tokens", 15e12);
        form.addField("precision", "bf16");
        form.addField("mfu", nullptr);
        // The GPUs no job or service has booked yet; all of them when everything is booked (the booking rule
        // then says so).
        const double unbooked = unbookedGpus(ctx);
        const double gpus = unbooked > 0 ? unbooked : designGpus(ctx);
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
        form.addField("in_memory_restore", false);
        // Batch and pipeline schedule (empty: the design's global batch and sequence length assumptions).
        form.addField("global_batch_tokens", nullptr);
        form.addField("sequence_length", nullptr);
        form.addField("microbatch_sequences", 1);
        form.addField("virtual_stages", 1);
        form.addChoice(
            "recomputation",
            {{QObject::tr("Selective (attention core; the MFU convention)"), QStringLiteral("selective")},
             {QObject::tr("Full (every layer's forward again, +1/3 FLOPs)"), QStringLiteral("full")},
             {QObject::tr("None"), QStringLiteral("none")}},
            QStringLiteral("selective"));
        form.addChoice("wan_sync",
                       {{QObject::tr("Per model chunk (Megatron-Core overlap)"), QStringLiteral("per_chunk")},
                        {QObject::tr("Per pipeline stage"), QStringLiteral("per_stage")},
                        {QObject::tr("After the last microbatch"), QStringLiteral("last_microbatch")}},
                       QStringLiteral("per_chunk"));
        // Failure rates: a node-rate preset of the catalog, or one typed rate (empty: the catalog classes).
        AuthoringForm::Options rates;
        for (const auto* item : ctx.catalog.byCategory("failures"))
            if (item->kind == "node_rate")
                rates.emplace_back(QString::fromStdString(item->name), QString::fromStdString(item->id));
        form.addChoice("failure_rate_preset", rates, QString(), /*optional=*/true);
        form.addField("node_failure_rate_per_day", nullptr);
        form.addField("node_failure_rate_gpus", nullptr);
        form.addNote(
            QObject::tr("No site ticked: the job runs on the whole design. An empty MFU, global batch or "
                        "sequence length uses the design's assumption; no failure preset and no node rate "
                        "use the catalog's failure classes (per-class rates: the inspector)."));
    }

    QString validate(const ojson& e, const AuthoringForm&, const AuthoringContext&) const override {
        if (const QString why = validateWorkloadModel(e); !why.isEmpty()) return why;
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
