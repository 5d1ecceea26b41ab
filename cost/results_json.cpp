#include "results_json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace ctwin::cost {

using ojson = nlohmann::ordered_json;

namespace {

/// Per inference service: its sizing, decode operating point and curve (the "inference.services" array).
ojson inferenceServicesJson(const Results& r) {
    auto finiteOr0 = [](double v) { return std::isfinite(v) ? v : 0.0; };
    ojson services = ojson::array();
    for (const auto& i : r.inference) {
        ojson curve = ojson::array();
        for (const auto& pt : i.curve)
            curve.push_back(ojson{{"batch", pt.batch},
                                  {"tokens_per_second_per_user", finiteOr0(pt.tokensPerSecondPerUser)},
                                  {"tokens_per_second_per_gpu", finiteOr0(pt.tokensPerSecondPerGpu)},
                                  {"memory_bound", pt.memoryBound},
                                  {"compute_ms", finiteOr0(pt.computeTime.value() * 1e3)},
                                  {"memory_ms", finiteOr0(pt.memoryTime.value() * 1e3)},
                                  {"communication_ms", finiteOr0(pt.commTime.value() * 1e3)},
                                  {"overhead_ms", finiteOr0(pt.overheadTime.value() * 1e3)}});
        const auto& d = i.sizing.decode;
        services.push_back(
            ojson{{"id", i.serviceId},
                  {"batch", d.batch},
                  {"replica_gpus", d.replicaGpus},
                  {"data_parallel_attention", d.dataParallelAttention},
                  {"step_ms", ojson{{"compute", finiteOr0(d.computeTime.value() * 1e3)},
                                    {"memory", finiteOr0(d.memoryTime.value() * 1e3)},
                                    {"communication", finiteOr0(d.commTime.value() * 1e3)},
                                    {"overhead", finiteOr0(d.overheadTime.value() * 1e3)},
                                    {"total", finiteOr0(d.stepTime.value() * 1e3)}}},
                  {"prefill_share_of_decode_replicas", finiteOr0(d.prefillShare)},
                  {"sequences_decoding", finiteOr0(i.sizing.sequencesDecoding)},
                  {"kv_running_bytes", finiteOr0(i.sizing.kvRunning.value())},
                  {"decode_tokens_per_second_per_gpu", finiteOr0(d.tokensPerSecondPerGpu)},
                  {"tokens_per_second_per_user", finiteOr0(d.tokensPerSecondPerUser)},
                  {"prefill_tokens_per_second_per_gpu", finiteOr0(i.sizing.prefillTokensPerSecondPerGpu)},
                  {"meets_target", i.sizing.meetsTarget},
                  {"prefill_fraction", finiteOr0(i.sizing.prefillFraction)},
                  {"prefill_gpus", finiteOr0(i.sizing.prefillGpus)},
                  {"decode_gpus", finiteOr0(i.sizing.decodeGpus)},
                  {"requests_per_second", finiteOr0(i.sizing.requestsPerSecond)},
                  {"kv_total_bytes", i.sizing.kvTotal.value()},
                  {"kv_hbm_bytes", i.sizing.kvInHbm.value()},
                  {"kv_dram_bytes", i.sizing.kvInDram.value()},
                  {"kv_nvme_bytes", i.sizing.kvInNvme.value()},
                  {"sessions_served", finiteOr0(i.sizing.sessionsServed)},
                  {"pools_fit", i.sizing.poolsFit},
                  {"kv_transfer_bytes_per_request", finiteOr0(i.sizing.kvTransferBytesPerRequest)},
                  {"cost_per_million_input_tokens_usd", finiteOr0(i.costPerMillionInputTokens)},
                  {"cost_per_million_output_tokens_usd", finiteOr0(i.costPerMillionOutputTokens)},
                  {"cost_per_request_usd", finiteOr0(i.costPerRequest)},
                  {"cost_per_million_blended_tokens_usd", finiteOr0(i.costPerMillionBlendedTokens)},
                  {"output_tokens_per_s_per_mw", finiteOr0(i.outputTokensPerSecondPerMw)},
                  {"total_tokens_per_s_per_mw", finiteOr0(i.totalTokensPerSecondPerMw)},
                  {"output_tokens_per_s_per_average_mw", finiteOr0(i.outputTokensPerSecondPerAverageMw)},
                  {"total_tokens_per_s_per_average_mw", finiteOr0(i.totalTokensPerSecondPerAverageMw)},
                  {"joules_per_token", finiteOr0(i.joulesPerToken)},
                  {"curve", std::move(curve)}});
    }
    return services;
}

/// Each site's load against its supply (cost::SitePower): the design-day peak and annual average, the
/// interconnect and on-site shares, and the two load duration curves at a few durations.
ojson sitePowerJson(const Results& r) {
    ojson sites = ojson::array();
    // The curves at a few durations (linear between their points): the design day, the top 1 % and ~10 %
    // of the year, the median and the mildest hour. The Power tab draws them whole.
    auto curve = [](const std::vector<LoadDurationPoint>& points) {
        ojson c = ojson::object();
        for (double h : {0.0, 88.0, 876.0, 4380.0, 8760.0}) {
            double mw = points.empty() ? 0.0 : points.back().mw;
            for (size_t i = 1; i < points.size(); ++i)
                if (points[i].hours >= h) {
                    const auto &a = points[i - 1], &b = points[i];
                    const double t = b.hours > a.hours ? (h - a.hours) / (b.hours - a.hours) : 0.0;
                    mw = a.mw + (b.mw - a.mw) * std::clamp(t, 0.0, 1.0);
                    break;
                }
            c[std::to_string(static_cast<int>(h)) + "h"] = mw;
        }
        return c;
    };
    for (const auto& s : r.power.sites)
        sites.push_back(ojson{
            {"id", s.siteId},
            {"facility_peak_mw_design_day", s.facilityPeak.value() / 1e6},
            {"facility_mw_annual_average", s.facilityOperating.value() / 1e6},
            {"grid_interconnect_mw", s.interconnectMw ? ojson(*s.interconnectMw) : ojson(nullptr)},
            {"onsite_generation_mw", s.onsiteMw},
            {"bess_power_mw", s.bessMw},
            {"interconnect_headroom_mw_design_day",
             s.interconnectMw ? ojson(s.headroomMw()) : ojson(nullptr)},
            {"load_duration_full_load_mw_at", curve(s.fullLoad)},
            {"load_duration_operating_mw_at", curve(s.operating)}});
    return sites;
}

} // namespace

ojson resultsToJson(const Results& r) {
    ojson out = ojson::object();
    for (const auto& f : r.figures) {
        ojson* node = &out;
        std::string key = f.key;
        size_t dot;
        while ((dot = key.find('.')) != std::string::npos) {
            node = &(*node)[key.substr(0, dot)];
            key = key.substr(dot + 1);
        }
        (*node)[key] = std::isfinite(f.value) ? f.value : 0.0;
    }
    // Per-entity detail beside the headline figures (add keys, never rename).
    auto finiteOr0 = [](double v) { return std::isfinite(v) ? v : 0.0; };
    ojson fabrics = ojson::array();
    for (const auto& f : r.bom.fabrics)
        fabrics.push_back(ojson{{"id", f.fabricId},
                                {"role", f.role},
                                {"planes", f.planes},
                                {"endpoints_per_plane", f.perPlane.endpoints},
                                {"leaves_per_plane", f.perPlane.leaves},
                                {"spines_per_plane", f.perPlane.spines},
                                {"cores_per_plane", f.perPlane.cores},
                                {"max_endpoints_per_plane", f.perPlane.maxEndpoints},
                                {"switches", f.switches},
                                {"transceivers", f.transceivers},
                                {"cables", f.cables},
                                {"power_w", f.power.value()}});
    out["inventory"]["fabrics"] = std::move(fabrics);
    ojson loops = ojson::array();
    for (const auto& l : r.bom.loops)
        loops.push_back(ojson{{"id", l.loopId},
                              {"liquid_heat_w", l.liquidHeat.value()},
                              {"capacity_w", l.installedCapacity.value()},
                              {"cdus_installed", l.cdusInstalled},
                              {"cdus_required", l.cdusRequired},
                              {"flow_l_per_min", l.flow.value() * 60000.0},
                              {"pump_power_w", l.pumpPower.value()}});
    out["cooling"]["loops"] = std::move(loops);
    ojson buildings = ojson::array();
    for (const auto& b : r.power.buildings)
        buildings.push_back(ojson{{"id", b.buildingId},
                                  {"site", b.siteId},
                                  {"it_mw", b.itOperating.value() / 1e6},
                                  {"facility_peak_mw", b.facilityPeak.value() / 1e6},
                                  {"capacity_mw", b.capacity.value() / 1e6},
                                  {"pue", finiteOr0(b.pue)},
                                  {"pue_peak", finiteOr0(b.puePeak)},
                                  {"climate_location", b.climateLocation},
                                  {"economizer_hours_liquid", finiteOr0(b.economizerHoursLiquid)},
                                  {"economizer_hours_air", finiteOr0(b.economizerHoursAir)},
                                  {"tariff_usd_per_kwh", finiteOr0(units::toUsdPerKwh(b.tariff))}});
    out["power"]["buildings"] = std::move(buildings);
    out["power"]["sites"] = sitePowerJson(r);
    // Each building's power chain on its redundancy topology (cost/power_chain.h).
    ojson chains = ojson::array();
    for (const auto& ch : r.power.chains) {
        ojson lines = ojson::array();
        for (const auto& l : ch.lines)
            lines.push_back(ojson{{"class", l.componentClass},
                                  {"catalog_id", l.catalogId},
                                  {"units", l.units},
                                  {"units_for_load", l.unitsForLoad},
                                  {"unit_rating_w", l.unitRating.value()},
                                  {"installed_w", l.installed.value()},
                                  {"sized_on_w", l.sizedOn.value()},
                                  {"capex_usd_per_w", l.usdPerW},
                                  {"cost_usd", l.cost.value()}});
        chains.push_back(ojson{{"building", ch.buildingId},
                               {"topology", ch.topology},
                               {"critical_load_w", ch.criticalLoad.value()},
                               {"facility_peak_w", ch.facilityPeak.value()},
                               {"cost_usd", ch.cost.value()},
                               {"lines", std::move(lines)}});
    }
    out["power"]["chains"] = std::move(chains);
    // The inputs the figures were computed with and where each came from (InputResolver).
    ojson inputs = ojson::array();
    for (const auto& i : r.inputs)
        inputs.push_back(ojson{{"path", i.path},
                               {"value", finiteOr0(i.value)},
                               {"low", finiteOr0(i.low)},
                               {"high", finiteOr0(i.high)},
                               {"unit", i.unit},
                               {"level", inputLevelName(i.level)},
                               {"used", i.used},
                               {"fallback", i.fallback},
                               {"source", i.source}});
    out["inputs"] = std::move(inputs);
    if (!r.bom.links.empty()) {
        ojson links = ojson::array();
        for (const auto& l : r.bom.links)
            links.push_back(ojson{{"id", l.linkId},
                                  {"route_km", l.routeLength.value() / 1e3},
                                  {"one_way_latency_ms", l.oneWayLatency.value() * 1e3},
                                  {"capacity_tbps", l.capacityBitPerS / 1e12},
                                  {"wavelengths", l.wavelengths},
                                  {"fiber_pairs", l.fiberPairs},
                                  {"optics", l.optics},
                                  {"amplifiers", l.amplifiers},
                                  {"regen_sites", l.regenSites},
                                  {"regenerators", l.regenerators},
                                  {"line_terminals", l.lineTerminals},
                                  {"segment_km", l.segmentLength.value() / 1e3},
                                  {"capex_usd", l.capex.value()},
                                  {"power_w", l.power.value()}});
        out["scale_across"]["links"] = std::move(links);
    }
    if (!r.inference.empty()) out["inference"]["services"] = inferenceServicesJson(r);
    if (!r.training.empty()) {
        ojson jobs = ojson::array();
        for (const auto& t : r.training)
            jobs.push_back(ojson{{"id", t.jobId},
                                 {"flops", t.estimate.flops},
                                 {"time_days", t.estimate.time.value() / 86400.0},
                                 {"scale_across_slowdown", t.estimate.scaleAcrossSlowdown},
                                 {"pipeline_bubble", t.estimate.pipelineBubble},
                                 {"microbatches_per_replica", t.estimate.microbatches},
                                 {"mfu_effective", t.estimate.effectiveMfu},
                                 {"run_cost_usd", t.runCost.value()},
                                 {"cost_per_million_tokens_usd", t.costPerMillionTokens}});
        out["training"]["jobs"] = std::move(jobs);
    }
    ojson rules = ojson::array();
    for (const auto& rule : r.rules)
        rules.push_back(ojson{{"severity", severityName(rule.severity)},
                              {"rule", rule.rule},
                              {"entity", rule.entity},
                              {"message", rule.message}});
    out["rules"] = std::move(rules);
    return out;
}

std::string formatHuman(double v, const std::string& unit) {
    const double a = std::abs(v);
    const bool integral = a == std::floor(a) && a < 1e15;
    const int decimals = integral || a >= 1e4 ? 0 : a < 1 ? 4 : a < 100 ? 2 : 1;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, a);
    std::string digits(buf);
    const auto point = digits.find('.');
    std::string whole = digits.substr(0, point),
                frac = point == std::string::npos ? "" : digits.substr(point);
    std::string grouped;
    for (size_t i = 0; i < whole.size(); ++i) {
        if (i > 0 && (whole.size() - i) % 3 == 0) grouped += ',';
        grouped += whole[i];
    }
    return (v < 0 ? "-" : "") + grouped + frac + (unit.empty() ? "" : " " + unit);
}

std::string resultsToText(const Results& r) {
    std::ostringstream s;
    std::string section;
    for (const auto& f : r.figures) {
        const std::string head = f.key.substr(0, f.key.find('.'));
        if (f.key.rfind("capex.share.", 0) == 0) continue; // shares print beside the categories
        if (head != section) {
            section = head;
            s << "\n" << section << "\n";
        }
        char line[256];
        std::string value = formatHuman(f.value, f.unit);
        if (f.key.rfind("capex.by_category_usd.", 0) == 0) {
            const std::string cat = f.key.substr(std::string("capex.by_category_usd.").size());
            if (const auto* share = r.figure("capex.share." + cat)) {
                char pct[32];
                std::snprintf(pct, sizeof pct, "  (%.1f%%)", share->value * 100);
                value += pct;
            }
        }
        std::snprintf(line, sizeof line, "  %-34s %s\n", f.label.c_str(), value.c_str());
        s << line;
    }
    s << "\nrules\n";
    if (r.rules.empty()) s << "  (none)\n";
    for (const auto& rule : r.rules)
        s << "  " << severityName(rule.severity) << "  [" << rule.entity << "] " << rule.message << "\n";
    return s.str();
}

} // namespace ctwin::cost
