#include "evaluate_stages.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace ctwin::cost::detail {

using namespace ctwin::units;
using model::CatalogItem;

namespace {
/// Host DRAM a GPU can spill KV cache to: Grace has 480 GB LPDDR5X per CPU serving 2 GPUs in GB200/GB300
/// (NVIDIA GB200 NVL72 datasheet); HGX servers carry ~2 TB per 8 GPUs. 240 GB per GPU, estimate.
constexpr double kHostMemoryPerGpuBytes = 240e9;
} // namespace

void evaluateInference(EvalContext& c) {
    const model::Project& p = c.p;
    const AssumptionValues& a = c.a;
    Results& r = c.r;
    const model::Catalog& catalog = c.catalog;
    const InputResolver& inputs = c.inputs;
    const BillOfMaterials& bom = r.bom;
    // ---- Inference economics (SPEC.md §4.8) ----
    auto rackTypeFor = [&]() -> const CatalogItem* {
        std::map<std::string, double> n;
        for (const auto& ri : c.racks)
            if (ri.type->kind == "compute") n[ri.type->id] += ri.type->value("gpus");
        const CatalogItem* best = nullptr;
        double most = 0;
        for (const auto& [id, c] : n)
            if (c > most) most = c, best = catalog.find(id);
        return best;
    };
    const auto* servingRack = rackTypeFor();
    const double facilityPerGpu = safeDiv(r.power.facility.value(), bom.gpus);
    for (const auto& s : p.inferenceServices) {
        InferenceResult ir;
        ir.serviceId = s.id;
        const auto* acc = servingRack ? catalog.find(servingRack->attribute("accelerator")) : nullptr;
        AcceleratorSpec spec;
        if (acc) {
            spec.flops = precisionFlops(*acc, s.precision) * hertz;
            spec.hbmBandwidth = bytesPerSecond(acc->value("hbm_bandwidth_bytes_per_s"));
            spec.hbmCapacity = bytes(acc->value("hbm_bytes"));
            spec.scaleUpBandwidth = bytesPerSecond(acc->value("scale_up_bandwidth_bytes_per_s"));
            spec.domainGpus = static_cast<int>(servingRack->value("scale_up_domain_gpus"));
            spec.hostMemoryPerGpu = bytes(kHostMemoryPerGpuBytes);
        }
        const ServedModel m{
            s.modelParams,       inputs.serviceActiveParams(s), s.layers, s.kvHeads, s.headDim,
            s.kvBytesPerElement, s.weightBytesPerParam};
        ServiceDemand d;
        d.inputTokens = s.inputTokens;
        d.outputTokens = s.outputTokens;
        d.targetTokensPerSecondPerUser = s.targetTokensPerSPerUser;
        d.gpus = s.gpus;
        d.disaggregated = s.disaggregated;
        d.concurrentSessions = s.concurrentSessions;
        d.sessionContextTokens = s.sessionContextTokens;
        d.offloadDram = std::find(s.kvOffload.begin(), s.kvOffload.end(), "dram") != s.kvOffload.end();
        d.offloadNvme = std::find(s.kvOffload.begin(), s.kvOffload.end(), "nvme") != s.kvOffload.end();
        const double eff = a.get("mfu");
        ir.sizing = sizeService(m, spec, d, eff);
        ir.curve = decodeCurve(m, spec, s.inputTokens + s.outputTokens / 2.0, eff);
        if (ir.curve.empty())
            r.rules.push_back(
                {Severity::Error, "model_does_not_fit", s.id,
                 "Inference service " + s.name + ": the weights do not fit in one scale-up domain's HBM"});
        else if (!ir.sizing.meetsTarget)
            r.rules.push_back({Severity::Warning, "tokens_per_user_target", s.id,
                               "Inference service " + s.name + " cannot reach " +
                                   fmt(s.targetTokensPerSPerUser) + " tokens/s per user on this hardware"});
        if (!ir.sizing.kvFits)
            r.rules.push_back(
                {Severity::Warning, "kv_does_not_fit", s.id,
                 "Inference service " + s.name +
                     ": KV cache of the concurrent sessions exceeds HBM and the offload tiers"});
        if (s.gpus > c.sellableGpus)
            r.rules.push_back({Severity::Error, "service_too_large", s.id,
                               "Inference service " + s.name + " needs " + fmt(s.gpus) +
                                   " GPUs; the cluster sells " + fmt(c.sellableGpus)});
        const double costPerSecond = s.gpus * r.finance.costPerGpuHour / 3600.0;
        const double servicePowerW = s.gpus * facilityPerGpu;
        ir.tokensPerSecondPerMw = safeDiv(ir.sizing.outputTokensPerSecond, servicePowerW / 1e6);
        // GPU time splits between prefill (input tokens) and decode (output tokens); each pays its share.
        ir.costPerMillionInputTokens =
            safeDiv(costPerSecond * ir.sizing.prefillFraction, ir.sizing.inputTokensPerSecond) * 1e6;
        ir.costPerMillionOutputTokens =
            safeDiv(costPerSecond * (1 - ir.sizing.prefillFraction), ir.sizing.outputTokensPerSecond) * 1e6;
        ir.joulesPerToken = safeDiv(servicePowerW, ir.sizing.outputTokensPerSecond);
        r.inference.push_back(std::move(ir));
    }
}

void addInferenceFigures(EvalContext& c) {
    const model::Project& p = c.p;
    Results& r = c.r;
    if (!r.inference.empty()) {
        const auto& i = r.inference.front();
        addFigure(r, "inference.tokens_per_second_per_gpu",
                  safeDiv(i.sizing.outputTokensPerSecond, p.inferenceServices.front().gpus), "tok/s/GPU",
                  "Output tokens/s per GPU", "requests/s x output tokens / GPUs");
        addFigure(r, "inference.tokens_per_second_per_user", i.sizing.decode.tokensPerSecondPerUser, "tok/s",
                  "Tokens/s per user", "1 / decode step time at the operating batch",
                  {{"batch", i.sizing.decode.batch}});
        addFigure(r, "inference.tokens_per_second_per_mw", i.tokensPerSecondPerMw, "tok/s/MW",
                  "Tokens/s per MW", "output tokens/s / (GPUs x facility power per GPU)");
        addFigure(r, "inference.cost_per_million_input_tokens_usd", i.costPerMillionInputTokens, "USD/M tok",
                  "$/M input tokens", "GPU cost x prefill share / input tokens/s");
        addFigure(r, "inference.cost_per_million_output_tokens_usd", i.costPerMillionOutputTokens,
                  "USD/M tok", "$/M output tokens", "GPU cost x decode share / output tokens/s");
        addFigure(r, "inference.joules_per_token", i.joulesPerToken, "J/tok", "Joules per output token",
                  "facility power of the service / output tokens/s");
    }
}

} // namespace ctwin::cost::detail
