#include "evaluate_stages.h"
#include "inference_presets.h"
#include "input_error.h"

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

namespace {
/// The rack type with the most GPUs in the design: the services run on its accelerator.
const CatalogItem* rackTypeWithMostGpus(const EvalContext& c) {
    // GPUs per rack type (compiled types are in id order, as the former map by id).
    const CompiledDesign& cd = *c.compiled;
    std::vector<double> typeGpus(cd.types.size(), 0.0);
    std::vector<std::uint8_t> typeSeen(cd.types.size(), 0);
    for (const auto& k : cd.classes) // by rack class (cost/compiled_design.h)
        if (const auto t = static_cast<size_t>(k.type); cd.types[t].compute)
            typeGpus[t] += k.count * cd.types[t].need(cd.types[t].gpus, "gpus"), typeSeen[t] = 1;
    std::map<std::string, double> n;
    for (size_t t = 0; t < cd.types.size(); ++t)
        if (typeSeen[t]) n[cd.types[t].id] += typeGpus[t];
    const CatalogItem* best = nullptr;
    double most = 0;
    for (const auto& [id, gpus] : n)
        if (gpus > most) most = gpus, best = c.catalog.find(id);
    return best;
}

/// A service's serving racks as a power mix (cost/power_envelope.h): prefill and decode by their share of
/// GPU time, each at its GPU draw and clock-bound share (assumptions).
std::vector<PowerPhase> servicePowerMix(const EvalContext& c, double prefillFraction) {
    const double pf = std::clamp(prefillFraction, 0.0, 1.0);
    return {PowerPhase{pf, c.a.get("inference_prefill_power_draw"),
                       c.a.get("inference_prefill_clock_bound_share")},
            PowerPhase{1.0 - pf, c.a.get("inference_decode_power_draw"),
                       c.a.get("inference_decode_clock_bound_share")}};
}

/// Where a service's bad field is reported.
model::InputLocation serviceField(const model::InferenceService& s, const char* field) {
    return model::InputLocation{"design", "inference service", s.id, s.name, field};
}

/// The roofline's view of the serving rack's accelerator at the service's precisions, with the rack's domain,
/// host memory and back-end NICs and the service's engine profile; an Info rule when the weights' format is
/// dequantized. `acc` null (no serving rack) gives an empty spec with the engine only.
AcceleratorSpec serviceSpec(const model::InferenceService& s, const CatalogItem* acc, const CatalogItem* rack,
                            const CatalogItem& engine, Results& r) {
    AcceleratorSpec spec;
    if (acc) {
        spec = acceleratorSpecOf(*acc, s.precision,
                                 attentionPrecisionOf(*acc, s.attentionPrecision, s.kvBytesPerElement));
        spec.domainGpus = static_cast<int>(rack->value("scale_up_domain_gpus"));
        spec.hostMemoryPerGpu = bytes(kHostMemoryPerGpuBytes);
        // Back-end NICs per GPU carry the prefill -> decode KV hand-off (line rate).
        spec.scaleOutBandwidth = bytesPerSecond(safeDiv(
            rack->value("backend_nics") * rack->value("backend_nic_bit_per_s") / 8.0, rack->value("gpus")));
        if (!nativePrecision(*acc, s.precision))
            r.rules.push_back(
                {Severity::Info, "precision_dequantized", s.id,
                 "Inference service " + s.name + ": " + acc->name + " has no native " + s.precision +
                     "; the weights are read at " + fmt(s.weightBytesPerParam, 2) +
                     " bytes/param and dequantized, the math runs at its " +
                     (nativePrecision(*acc, "fp8") ? std::string("fp8") : std::string("bf16")) + " peak"});
    }
    spec.engine = engineProfileOf(engine);
    return spec;
}

/// The service's demand on the engine; a stated tensor parallelism is checked against the scale-up domain
/// and the shapes engines accept (replicaShapeProblem).
ServiceDemand serviceDemand(const model::InferenceService& s, const ServedModel& m,
                            const AcceleratorSpec& spec, const CatalogItem* acc, const CatalogItem* rack,
                            double nvmeLeft) {
    ServiceDemand d;
    d.inputTokens = s.inputTokens;
    d.outputTokens = s.outputTokens;
    d.prefixCacheHitRate = s.prefixCacheHitRate;
    d.targetTokensPerSecondPerUser = s.targetTokensPerSPerUser;
    d.gpus = s.gpus;
    d.disaggregated = s.disaggregated;
    if (s.tensorParallel > 0 && acc) {
        if (s.tensorParallel > spec.domainGpus)
            throw model::InputError(serviceField(s, "tensor_parallel"),
                                    fmt(s.tensorParallel) +
                                        " GPUs per replica exceed the scale-up domain of " +
                                        fmt(spec.domainGpus) + " GPUs (" + rack->id + ")");
        // Engines shard heads and experts whole (replicaShapeProblem); an MoE with known experts may use
        // either attention mode, so only a size neither accepts is refused.
        const std::string tensor = replicaShapeProblem(m, s.tensorParallel, AttentionParallel::Tensor);
        const std::string data = replicaShapeProblem(m, s.tensorParallel, AttentionParallel::Data);
        const bool moe = m.experts > 0 && m.activeExperts > 0;
        if (!tensor.empty() && (!moe || !data.empty()))
            throw model::InputError(serviceField(s, "tensor_parallel"),
                                    tensor + (moe && data != tensor ? "; " + data : std::string()));
        d.tensorParallel = s.tensorParallel;
    }
    d.concurrentSessions = s.concurrentSessions;
    d.sessionContextTokens = s.sessionContextTokens;
    d.offloadDram = std::find(s.kvOffload.begin(), s.kvOffload.end(), "dram") != s.kvOffload.end();
    d.offloadNvme = std::find(s.kvOffload.begin(), s.kvOffload.end(), "nvme") != s.kvOffload.end();
    d.nvmeCapacity = bytes(nvmeLeft);
    return d;
}

/// The design rules a sized service raises: weights or KV that do not fit, a missed per-user target, pools
/// that need more domains, a context beyond the model's, more GPUs than the cluster sells.
void addServiceRules(const EvalContext& c, const model::InferenceService& s, const InferenceResult& ir,
                     const CatalogItem* preset, int domainGpus, Results& r) {
    if (ir.sizing.decode.replicaGpus == 0 || ir.curve.empty())
        r.rules.push_back(
            {Severity::Error, "model_does_not_fit", s.id,
             "Inference service " + s.name + ": the weights do not fit in one scale-up domain's HBM"});
    else if (!ir.sizing.meetsTarget && ir.sizing.poolsFit)
        r.rules.push_back({Severity::Warning, "tokens_per_user_target", s.id,
                           "Inference service " + s.name + " cannot reach " + fmt(s.targetTokensPerSPerUser) +
                               " tokens/s per user on this hardware"});
    if (!ir.sizing.poolsFit)
        r.rules.push_back({Severity::Error, "disaggregated_pools_do_not_fit", s.id,
                           "Inference service " + s.name +
                               " (field gpus): disaggregated prefill and decode "
                               "pools need at least two whole scale-up domains of " +
                               fmt(domainGpus) + " GPUs; gpus = " + fmt(s.gpus)});
    if (!ir.sizing.kvFits)
        r.rules.push_back({Severity::Error, "kv_does_not_fit", s.id,
                           "Inference service " + s.name + " (field concurrent_sessions): the KV cache of " +
                               fmt(s.concurrentSessions) + " sessions (" +
                               fmt(ir.sizing.kvTotal.value() / 1e12, 1) +
                               " TB) exceeds HBM, host DRAM and installed NVMe; " +
                               fmt(ir.sizing.sessionsServed) + " sessions can be served"});
    if (preset && preset->find("context_length") &&
        std::max(s.inputTokens + s.outputTokens, s.sessionContextTokens) > preset->value("context_length"))
        r.rules.push_back({Severity::Warning, "context_exceeds_model", s.id,
                           "Inference service " + s.name + ": the context exceeds " + preset->name + "'s " +
                               fmt(preset->value("context_length")) + " tokens"});
    if (s.gpus > c.sellableGpus)
        r.rules.push_back({Severity::Error, "service_too_large", s.id,
                           "Inference service " + s.name + " needs " + fmt(s.gpus) +
                               " GPUs; the cluster sells " + fmt(c.sellableGpus)});
}

/// The serving rack type's working GPUs by oversubscription ratio (readPowerEnvelope's per-domain ratios):
/// (ratio, share of the type's GPUs), ascending by ratio; one group at the design's ratio without them.
std::vector<std::pair<double, double>> servingRatioGroups(const EvalContext& c) {
    const CompiledDesign& cd = *c.compiled;
    std::map<double, double> gpus;
    double total = 0;
    for (size_t i = 0; c.servingRack && i < cd.classes.size() && i < c.classRatio.size(); ++i) {
        const auto& k = cd.classes[i];
        const auto& type = cd.types[static_cast<size_t>(k.type)];
        if (k.spare || !type.compute || type.id != c.servingRack->id) continue;
        const double n = k.count * type.need(type.gpus, "gpus");
        gpus[c.classRatio[i]] += n;
        total += n;
    }
    if (!(total > 0)) return {{c.oversubscription, 1.0}};
    std::vector<std::pair<double, double>> out;
    for (const auto& [ratio, n] : gpus)
        out.emplace_back(ratio, n / total);
    return out;
}

/// A service sizing's fields that scale with its GPUs (rates and GPU counts): summed over capping groups.
constexpr double ServiceSizing::*kServiceRates[] = {
    &ServiceSizing::requestsPerSecond,     &ServiceSizing::inputTokensPerSecond,
    &ServiceSizing::outputTokensPerSecond, &ServiceSizing::sequencesDecoding,
    &ServiceSizing::prefillGpus,           &ServiceSizing::decodeGpus};

/// One service under power capping.
struct ServiceCap {
    CapOutcome cap;       // the most capped group's
    AcceleratorSpec spec; // the accelerator at that group's clock
    double busyDraw = 0;  // the serving racks' mean draw, GPU-weighted over the groups (share of full load)
};

/// Power capping of one service (cost/power_envelope.h): in each group of its racks by
/// oversubscription ratio, the racks' mean draw over prefill and decode at the operating point must fit the
/// domain's cap; where it does not, the controller lowers the SM clock, the compute peaks fall with it (HBM
/// bandwidth and the engine's host-side overhead do not) and the service is sized again at that clock, so
/// the per-user target still holds. Replicas are independent and a service's rates scale with its GPUs: its
/// requests, tokens/s, decoding sequences and pool GPUs are the GPU-share-weighted sums of each group's
/// sizing, its operating point (batch, step, prefill share) the most capped group's. The cap is the racks'
/// planning basis (nameplate, or the service's own mean draw at full clock; power_provisioning_basis) over
/// the group's ratio; a group whose cap the full-clock draw fits leaves `sizing` as it is.
ServiceCap capService(EvalContext& c, const model::InferenceService& s, const ServedModel& m,
                      const AcceleratorSpec& spec, const ServiceDemand& demand,
                      const std::vector<PowerPhase>& mix,
                      const std::vector<std::pair<double, double>>& groups, ServiceSizing& sizing) {
    ServiceCap out{CapOutcome{}, spec, 0.0};
    const ServiceSizing full = sizing;
    ServiceSizing sum{};
    bool first = true;
    // The racks' planning basis: nameplate, or this service's own mean draw at full clock.
    const double basis = basisShare(c.provisioningBasis, mixRackPower(mix, 1.0, c.powerCurve));
    for (const auto& [ratio, share] : groups) {
        const double capShare = basis / ratio;
        const CapOutcome cap = capShare < 1.0 ? capMix(mix, capShare, c.powerCurve) : CapOutcome{};
        AcceleratorSpec groupSpec = spec;
        ServiceSizing group = full;
        if (cap.binds()) {
            groupSpec.flops *= cap.clock;
            groupSpec.attentionFlops *= cap.clock;
            group = sizeService(m, groupSpec, demand);
        }
        if (!cap.reachable)
            c.r.rules.push_back({Severity::Error, "power_cap_unreachable", s.id,
                                 "Inference service " + s.name + ": at power_oversubscription_ratio " +
                                     fmt(ratio, 2) + " the serving racks' cap (" + fmt(100.0 * capShare) +
                                     " % of full load) is below their draw at the lowest SM clock; lower the "
                                     "ratio of the design or of the domain that sets it"});
        for (const auto rate : kServiceRates)
            sum.*rate += share * group.*rate;
        out.busyDraw += share * mixRackPower(mix, cap.clock, c.powerCurve);
        if (first || cap.clock < out.cap.clock) out.cap = cap, out.spec = groupSpec, sizing = group;
        first = false;
    }
    for (const auto rate : kServiceRates)
        sizing.*rate = sum.*rate;
    return out;
}

/// Tokens per MW and the service's costs from its sizing, the cluster's cost per GPU-hour and the facility
/// power per GPU (provisioned peak and average).
void priceService(const model::InferenceService& s, double costPerGpuHour, double peakPerGpu,
                  double averagePerGpu, InferenceResult& ir) {
    const double costPerSecond = s.gpus * costPerGpuHour / 3600.0;
    const double provisionedW = s.gpus * peakPerGpu;
    const double averageW = s.gpus * averagePerGpu;
    const double totalTokens = ir.sizing.inputTokensPerSecond + ir.sizing.outputTokensPerSecond;
    ir.outputTokensPerSecondPerMw = safeDiv(ir.sizing.outputTokensPerSecond, provisionedW / 1e6);
    ir.totalTokensPerSecondPerMw = safeDiv(totalTokens, provisionedW / 1e6);
    ir.outputTokensPerSecondPerAverageMw = safeDiv(ir.sizing.outputTokensPerSecond, averageW / 1e6);
    ir.totalTokensPerSecondPerAverageMw = safeDiv(totalTokens, averageW / 1e6);
    // GPU time splits between prefill (the new, uncached input tokens) and decode (output tokens); each
    // pays its share. Cached input tokens take no prefill compute: they pay only through the request.
    const double newInputPerSecond =
        ir.sizing.inputTokensPerSecond * (1.0 - std::clamp(s.prefixCacheHitRate, 0.0, 1.0));
    ir.costPerMillionInputTokens =
        safeDiv(costPerSecond * ir.sizing.prefillFraction, newInputPerSecond) * 1e6;
    // All-in: every GPU-second of the service over what it delivers.
    ir.costPerRequest = safeDiv(costPerSecond, ir.sizing.requestsPerSecond);
    ir.costPerMillionBlendedTokens = safeDiv(costPerSecond, totalTokens) * 1e6;
    ir.costPerMillionOutputTokens =
        safeDiv(costPerSecond * (1 - ir.sizing.prefillFraction), ir.sizing.outputTokensPerSecond) * 1e6;
    // Energy per output token at provisioned power: the service's GPUs are busy at the operating point.
    ir.joulesPerToken = safeDiv(provisionedW, ir.sizing.outputTokensPerSecond);
}
} // namespace

void sizeInferenceServices(EvalContext& c) {
    const model::Project& p = c.p;
    Results& r = c.r;
    const model::Catalog& catalog = c.catalog;
    const BillOfMaterials& bom = c.bom;
    // ---- Inference serving (SPEC.md §4.8), before the power stage: the services' draw is part of the
    // fleet's operating power (sumItPower); their prices come after finance (evaluateInference) ----
    // A function of the compiled design alone: once per scenario tool run with a memo.
    const auto rackTypeFor = [&]() { return rackTypeWithMostGpus(c); };
    const auto* servingRack = c.memo ? c.memo->servingRack(bom, rackTypeFor) : rackTypeFor();
    c.servingRack = servingRack;
    const auto* acc = servingRack ? catalog.find(servingRack->attribute("accelerator")) : nullptr;
    // Installed NVMe (storage tiers of kind nvme): the last KV offload tier, shared by the services in order.
    double nvmeLeft = 0;
    for (const auto& st : p.storageTiers)
        if (const auto* t = catalog.find(st.type); t && t->kind == "nvme") nvmeLeft += st.capacity.value();
    const auto groups = servingRatioGroups(c);
    for (const auto& s : p.inferenceServices) {
        InferenceResult ir;
        ir.serviceId = s.id;
        const CatalogItem* preset = nullptr;
        if (!s.model.empty()) {
            preset = catalog.find(s.model);
            if (!preset || preset->category != "models")
                throw model::InputError(serviceField(s, "model"), "unknown model preset '" + s.model + "'");
        }
        const CatalogItem* engine = catalog.find(s.servingEngine);
        if (!engine || engine->category != "serving_engines")
            throw model::InputError(serviceField(s, "serving_engine"),
                                    "unknown serving engine profile '" + s.servingEngine +
                                        "' (catalog category serving_engines)");
        if (preset && preset->find("experts") && preset->value("experts") > 0 && s.activeParams &&
            !(*s.activeParams > 0))
            throw model::InputError(serviceField(s, "active_params"),
                                    "0 would serve the mixture-of-experts preset " + preset->id +
                                        " as a dense model; leave it empty for the preset's " +
                                        fmt(preset->value("active_params") / 1e9, 1) +
                                        "B active parameters or state the active count");
        const AcceleratorSpec spec = serviceSpec(s, acc, servingRack, *engine, r);
        c.servingDomainGpus = spec.domainGpus;
        const double resolvedActive = c.inputs.serviceActiveParams(s);
        const std::optional<double> statedActive = (s.activeParams || resolvedActive != s.modelParams)
                                                       ? std::optional<double>(resolvedActive)
                                                       : std::nullopt;
        const ServedModel m = servedModelOf(s, preset, statedActive);
        const ServiceDemand demand = serviceDemand(s, m, spec, acc, servingRack, nvmeLeft);
        ir.sizing = sizeService(m, spec, demand);
        // Power capping under oversubscription, per domain (capService).
        const std::vector<PowerPhase> mix = servicePowerMix(c, ir.sizing.prefillFraction);
        const double uncappedOutput = ir.sizing.outputTokensPerSecond;
        ServiceCap capped{CapOutcome{}, spec, mixRackPower(mix, 1.0, c.powerCurve)};
        if ((c.maxRatio > 1.0 || c.provisioningBasis > 0.0) && acc)
            capped = capService(c, s, m, spec, demand, mix, groups, ir.sizing);
        const CapOutcome& cap = capped.cap;
        const AcceleratorSpec& usedSpec = capped.spec;
        c.inferenceCaps.push_back(cap);
        c.inferenceUncappedOutput.push_back(uncappedOutput);
        c.inferenceBusyDrawShare.push_back(capped.busyDraw);
        c.inferenceFullClockDraw.push_back(mixRackPower(mix, 1.0, c.powerCurve));
        nvmeLeft = std::max(0.0, nvmeLeft - ir.sizing.kvInNvme.value());
        const double context = std::max(s.inputTokens, s.sessionContextTokens);
        ir.curve = decodeCurve(m, usedSpec, ir.sizing.decode.replicaGpus, context + s.outputTokens / 2.0,
                               context + s.outputTokens,
                               ir.sizing.decode.dataParallelAttention ? AttentionParallel::Data
                                                                      : AttentionParallel::Tensor);
        ir.prefillAttentionShare = safeDiv(prefillAttentionFlopsPerToken(m, s.inputTokens),
                                           2.0 * (m.activeParams > 0 ? m.activeParams : m.params));
        r.inference.push_back(std::move(ir));
    }
}

void evaluateInference(EvalContext& c) {
    const model::Project& p = c.p;
    Results& r = c.r;
    const BillOfMaterials& bom = c.bom;
    // Provisioned (peak) and average facility power per GPU: serving GPUs at the operating
    // point are busy, so per provisioned MW is the capacity figure; per average MW uses the fleet's
    // operating power at the design's utilization.
    const double peakPerGpu = safeDiv(r.power.facilityPeak.value(), bom.gpus);
    const double averagePerGpu = safeDiv(r.power.facility.value(), bom.gpus);
    for (size_t i = 0; i < p.inferenceServices.size() && i < r.inference.size(); ++i) {
        const auto& s = p.inferenceServices[i];
        const CatalogItem* preset = s.model.empty() ? nullptr : c.catalog.find(s.model);
        addServiceRules(c, s, r.inference[i], preset, c.servingDomainGpus, r);
        priceService(s, r.finance.costPerGpuHour, peakPerGpu, averagePerGpu, r.inference[i]);
    }
}

void addInferenceFigures(EvalContext& c) {
    const model::Project& p = c.p;
    Results& r = c.r;
    if (r.inference.empty()) return;
    // inference.* is the first service (the design's headline service); inference.fleet.* adds every service.
    const auto& i = r.inference.front();
    const auto& d = i.sizing.decode;
    addFigure(c, "inference.tokens_per_second_per_gpu",
              safeDiv(i.sizing.outputTokensPerSecond, p.inferenceServices.front().gpus), "tok/s/GPU",
              "Output tokens/s per GPU (first service, prefill and decode time included)",
              "requests/s x output tokens / GPUs");
    addFigure(c, "inference.decode_tokens_per_second_per_gpu", d.tokensPerSecondPerGpu, "tok/s/GPU",
              "Decode tokens/s per GPU while decoding (first service)",
              "batch / (decode step x replica GPUs)", {{"batch", d.batch}, {"replica_gpus", d.replicaGpus}});
    addFigure(
        c, "inference.tokens_per_second_per_user", d.tokensPerSecondPerUser, "tok/s",
        "Tokens/s per user, co-located prefill included (first service)",
        "(1 - prefill share of GPU time, incl. the data-parallel ranks a prompt holds) / decode step time at "
        "the operating batch",
        {{"batch", d.batch}, {"replica_gpus", d.replicaGpus}, {"prefill_share", d.prefillShare}});
    addFigure(c, "inference.replica_gpus", d.replicaGpus, "GPUs", "GPUs per decode replica (TP/EP)",
              "replica size with the most tokens/s/GPU at the per-user target, within the scale-up domain, "
              "dividing the heads (TP) or experts (EP)");
    addFigure(
        c, "inference.decode_step_compute_ms", d.computeTime.value() * 1e3, "ms", "Decode step: compute",
        "2 x (dense + routed active params x expert-parallel hot-rank factor) x batch / (GPUs x "
        "weight-precision peak x efficiency) + attention FLOPs x batch / (GPUs x attention-precision peak x "
        "efficiency)");
    addFigure(
        c, "inference.decode_step_memory_ms", d.memoryTime.value() * 1e3, "ms", "Decode step: memory",
        "(dense weights + KV read) per GPU / (HBM bandwidth x efficiency) + routed experts touched per GPU / "
        "(HBM bandwidth x the serving engine's grouped-GEMM efficiency)");
    addFigure(c, "inference.decode_step_communication_ms", d.commTime.value() * 1e3, "ms",
              "Decode step: communication",
              "2 x layers x (latency + bytes x expert-parallel hot-rank factor / (NVLink per direction x "
              "efficiency))");
    addFigure(c, "inference.decode_step_overhead_ms", d.overheadTime.value() * 1e3, "ms",
              "Decode step: serving-engine overhead",
              "step overhead + layers x per-layer overhead + sequences per scheduler x per-sequence overhead "
              "(serving engine profile)");
    addFigure(c, "inference.prefill_attention_share", i.prefillAttentionShare, "",
              "Prefill attention FLOPs / 2 x active params",
              "2 x layers x (prompt / 2) x heads x (d_qk + d_v) / (2 x active params)");
    addFigure(c, "inference.output_tokens_per_s_per_mw", i.outputTokensPerSecondPerMw, "tok/s/MW",
              "Output tokens/s per provisioned MW (first service)",
              "output tokens/s / (GPUs x peak facility power per GPU)");
    addFigure(c, "inference.total_tokens_per_s_per_mw", i.totalTokensPerSecondPerMw, "tok/s/MW",
              "Input + output tokens/s per provisioned MW (first service)",
              "(input + output) tokens/s / (GPUs x peak facility power per GPU)");
    addFigure(c, "inference.output_tokens_per_s_per_average_mw", i.outputTokensPerSecondPerAverageMw,
              "tok/s/MW", "Output tokens/s per average MW (first service)",
              "output tokens/s / (GPUs x average facility power per GPU)");
    addFigure(c, "inference.total_tokens_per_s_per_average_mw", i.totalTokensPerSecondPerAverageMw,
              "tok/s/MW", "Input + output tokens/s per average MW (first service)",
              "(input + output) tokens/s / (GPUs x average facility power per GPU)");
    addFigure(c, "inference.cost_per_million_input_tokens_usd", i.costPerMillionInputTokens, "USD/M tok",
              "$/M new input tokens (prefill GPU-time share)",
              "GPU cost x prefill share / uncached input tokens/s");
    addFigure(c, "inference.cost_per_million_output_tokens_usd", i.costPerMillionOutputTokens, "USD/M tok",
              "$/M output tokens (decode GPU-time share only)", "GPU cost x decode share / output tokens/s");
    addFigure(c, "inference.cost_per_request_usd", i.costPerRequest, "USD",
              "Cost per request, all-in (prefill + decode GPU time)",
              "GPU cost per second / requests per second");
    addFigure(c, "inference.cost_per_million_blended_tokens_usd", i.costPerMillionBlendedTokens, "USD/M tok",
              "$/M blended tokens, all-in (input incl. cached + output)",
              "GPU cost per second / (input + output) tokens per second");
    addFigure(c, "inference.joules_per_token", i.joulesPerToken, "J/tok",
              "Joules per output token (provisioned power)",
              "peak facility power of the service / output tokens/s");
    if (!c.inferenceCaps.empty()) {
        const CapOutcome& cap = c.inferenceCaps.front();
        addFigure(
            c, "inference.capping_clock", cap.clock, "",
            "SM clock under the power cap (first service, its most capped domain)",
            "highest clock f with h + (1 - h) x mean GPU draw(f) x (s + (1 - s) f^alpha) <= planning basis / "
            "oversubscription ratio, the mean over prefill and decode time at f; 1 = the cap does not bind",
            {{"oversubscription_ratio", c.maxRatio}, {"host_share", c.powerCurve.hostShare}},
            {c.source("power_oversubscription_ratio"), c.source("inference_prefill_power_draw"),
             c.source("inference_decode_power_draw"), c.source("gpu_power_clock_invariant_share"),
             c.source("gpu_power_clock_exponent")});
        addFigure(c, "inference.ratio_without_capping",
                  safeDiv(basisShare(c.provisioningBasis, c.inferenceFullClockDraw.front()),
                          c.inferenceFullClockDraw.front()),
                  "", "Largest oversubscription ratio with no capping (first service, on its planning basis)",
                  "planning basis / (h + (1 - h) x mean GPU draw over prefill and decode at full clock), h "
                  "the racks' host share; the basis is 1 (nameplate) or that draw (observed, "
                  "power_provisioning_basis)",
                  {{"rack_draw_share", c.inferenceFullClockDraw.front()},
                   {"host_share", c.powerCurve.hostShare},
                   {"provisioning_basis", c.provisioningBasis}},
                  {c.source("inference_prefill_power_draw"), c.source("inference_decode_power_draw")});
        addFigure(c, "inference.capping_throughput_loss",
                  1.0 - safeDiv(i.sizing.outputTokensPerSecond, c.inferenceUncappedOutput.front()), "",
                  "Output tokens/s lost to power capping (first service)",
                  "1 - output tokens/s sized at the capped clock / at full clock (compute peaks x f; HBM and "
                  "engine overhead unchanged)",
                  {{"clock", cap.clock}},
                  {c.source("inference_prefill_clock_bound_share"),
                   c.source("inference_decode_clock_bound_share")});
    }
    addFigure(c, "inference.sessions_served", i.sizing.sessionsServed, "sessions",
              "Concurrent sessions whose KV fits",
              "running batch KV in HBM + parked sessions in HBM left + DRAM + NVMe / KV per session");

    // Fleet: every service together (sums of rates over sums of GPUs, power and cost).
    double gpus = 0, out = 0, total = 0, requests = 0;
    for (size_t k = 0; k < r.inference.size() && k < p.inferenceServices.size(); ++k) {
        gpus += p.inferenceServices[k].gpus;
        out += r.inference[k].sizing.outputTokensPerSecond;
        total += r.inference[k].sizing.outputTokensPerSecond + r.inference[k].sizing.inputTokensPerSecond;
        requests += r.inference[k].sizing.requestsPerSecond;
    }
    const double peakPerGpu =
        safeDiv(r.power.facilityPeak.value(), c.bom.gpus); // the stage's bill (lean too)
    const double costPerSecond = gpus * r.finance.costPerGpuHour / 3600.0;
    addFigure(c, "inference.fleet.output_tokens_per_s_per_mw", safeDiv(out, gpus * peakPerGpu / 1e6),
              "tok/s/MW", "Fleet output tokens/s per provisioned MW (all services)",
              "sum of output tokens/s / (serving GPUs x peak facility power per GPU)",
              {{"services", static_cast<double>(r.inference.size())}, {"gpus", gpus}});
    addFigure(c, "inference.fleet.total_tokens_per_s_per_mw", safeDiv(total, gpus * peakPerGpu / 1e6),
              "tok/s/MW", "Fleet input + output tokens/s per provisioned MW (all services)",
              "sum of (input + output) tokens/s / (serving GPUs x peak facility power per GPU)");
    addFigure(c, "inference.fleet.cost_per_million_blended_tokens_usd", safeDiv(costPerSecond, total) * 1e6,
              "USD/M tok", "Fleet $/M blended tokens, all-in (all services)",
              "serving GPUs x cost per GPU-hour / 3600 / sum of (input + output) tokens/s");
    addFigure(c, "inference.fleet.cost_per_request_usd", safeDiv(costPerSecond, requests), "USD",
              "Fleet cost per request, all-in (all services)",
              "serving GPUs x cost per GPU-hour / 3600 / sum of requests/s");
}

} // namespace ctwin::cost::detail
