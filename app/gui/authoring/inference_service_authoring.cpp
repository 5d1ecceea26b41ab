// How an inference service is made: a model (catalog preset or typed: parameters, layers, KV heads, head
// dimension), its traffic (tokens per request, per-user speed, sessions) and the GPUs it runs on.
#include "authoring_form.h"
#include "gui/document_editor.h"

namespace ctwin::app {

namespace {

using ojson = nlohmann::ordered_json;

class InferenceServiceAuthoring : public EntityAuthoring {
public:
    model::EntityKind kind() const override { return model::EntityKind::InferenceService; }
    QString title() const override { return QObject::tr("Inference service"); }

    void buildForm(AuthoringForm& form, const AuthoringContext& ctx) const override {
        const auto& p = ctx.document.project();
        form.setFixed("id",
                      uniqueId(ctx.document, "serve-" + std::to_string(p.inferenceServices.size() + 1)));
        // Defaults: Llama 3.1 70B (Meta model card: 80 layers, 8 KV heads, head dim 128). With a preset in
        // `model`, layers, KV heads and head dim go to 0 = the preset's (and its attention layout).
        addWorkloadModel(form, ctx, nextName(ctx.document, kind(), "Inference"),
                         {{"model_params", 70e9},
                          {"active_params", 70e9},
                          {"layers", 80, true},
                          {"kv_heads", 8, true},
                          {"head_dim", 128, true}},
                         "model");
        form.addField("kv_bytes_per_element", 2.0);
        form.addField("weight_bytes_per_param", 1.0);
        form.addField("input_tokens", 2000.0);
        form.addField("output_tokens", 500.0);
        form.addField("target_tokens_per_s_per_user", 50.0);
        form.addField("gpus", unbookedGpus(ctx) > 0 ? unbookedGpus(ctx) : designGpus(ctx));
        form.addField("disaggregated", false);
        form.addField("concurrent_sessions", 0.0);
        form.addField("session_context_tokens", 0.0);
        form.addPicks(
            "kv_offload",
            {{QObject::tr("DRAM"), QStringLiteral("dram")}, {QObject::tr("NVMe"), QStringLiteral("nvme")}},
            {});
        form.addField("precision", "fp8");
        form.addField("tensor_parallel", 0);
        // Token revenue: empty = the preset's market API prices and the licence assumption.
        for (const char* key : {"price_usd_per_m_input_tokens", "price_usd_per_m_cached_input_tokens",
                                "price_usd_per_m_output_tokens", "licence_revenue_share"})
            form.addField(key, nullptr);
        form.addNote(
            QObject::tr("With a model preset, 0 layers, KV heads or head dim use the preset's. Tensor "
                        "parallel 0: the replica size is searched within the scale-up domain. Token "
                        "prices left empty are the preset's market API prices (USD per million "
                        "tokens); a service with neither has no token revenue."));
    }

    QString validate(const ojson& e, const AuthoringForm&, const AuthoringContext&) const override {
        if (const QString why = validateWorkloadModel(e); !why.isEmpty()) return why;
        const bool preset =
            e.contains("model") && e["model"].is_string() && !e["model"].get<std::string>().empty();
        if (!preset &&
            (e["layers"].get<int>() <= 0 || e["kv_heads"].get<int>() <= 0 || e["head_dim"].get<int>() <= 0))
            return QObject::tr(
                "Without a model preset, type the model's layers, KV heads and head dim (above 0)");
        if (e["gpus"].get<double>() <= 0)
            return QObject::tr("The service needs GPUs (place racks first, or type a count)");
        return {};
    }
};

} // namespace

std::unique_ptr<EntityAuthoring> makeInferenceServiceAuthoring() {
    return std::make_unique<InferenceServiceAuthoring>();
}

} // namespace ctwin::app
