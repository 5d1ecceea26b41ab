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
        addModelPresets(form, ctx, {"model_params", "active_params", "layers", "kv_heads", "head_dim"});
        form.addField("name", nextName(ctx.document, kind(), "Inference"));
        // Defaults: Llama 3.1 70B (Meta model card: 80 layers, 8 KV heads, head dim 128).
        form.addField("model_params", 70e9);
        form.addField("active_params", 70e9);
        form.addField("layers", 80);
        form.addField("kv_heads", 8);
        form.addField("head_dim", 128);
        form.addField("kv_bytes_per_element", 2.0);
        form.addField("weight_bytes_per_param", 1.0);
        form.addField("input_tokens", 2000.0);
        form.addField("output_tokens", 500.0);
        form.addField("target_tokens_per_s_per_user", 50.0);
        form.addField("gpus", designGpus(ctx));
        form.addField("disaggregated", false);
        form.addField("concurrent_sessions", 0.0);
        form.addField("session_context_tokens", 0.0);
        form.addPicks(
            "kv_offload",
            {{QObject::tr("DRAM"), QStringLiteral("dram")}, {QObject::tr("NVMe"), QStringLiteral("nvme")}},
            {});
        form.addField("precision", "fp8");
    }

    QString validate(const ojson& e, const AuthoringForm&, const AuthoringContext&) const override {
        if (e["model_params"].get<double>() <= 0)
            return QObject::tr("The model needs a parameter count above 0");
        if (e["active_params"].is_number() &&
            e["active_params"].get<double>() > e["model_params"].get<double>())
            return QObject::tr("Active parameters cannot exceed the model's parameters");
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
