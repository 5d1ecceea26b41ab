#include "evaluate_stages.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace ctwin::cost::detail {

using namespace ctwin::units;
using model::CatalogItem;

void evaluateCapex(EvalContext& c) {
    const model::Project& p = c.p;
    const AssumptionValues& a = c.a;
    Results& r = c.r;
    const model::Catalog& catalog = c.catalog;
    const InputResolver& inputs = c.inputs;
    const BillOfMaterials& bom = c.bom;
    // ---- Capex (SPEC.md §4.4) ----
    auto& cat = r.capex.byCategory;
    for (const auto& k : kCapexCategories)
        cat[k] = Money{};
    auto& split = r.capex.computeBreakdown;
    split["gpus"] = split["cpus_hosts"] = Money{};
    auto& parts = r.capex.rackPartsBreakdown;
    for (const char* k : kRackPartKeys)
        parts[k] = Money{};
    for (const auto& line : bom.rackLines) {
        const auto& t = catalog.at(line.catalogId);
        // Network racks (issue 36: enclosure, PDUs, patching for row leaves) are scale-out network.
        if (t.kind == "network") {
            cat["scale_out_network"] += line.quantity * t.value("price_usd") * usd;
            continue;
        }
        const double scaleUp = t.kind == "compute" ? t.value("scale_up_network_price_usd") : 0.0;
        const double rackLessTrays = t.value("price_usd") - scaleUp;
        cat["compute"] += line.quantity * rackLessTrays * usd;
        cat["scale_up_network"] += line.quantity * scaleUp * usd;
        // GPU-level BOM: gpus = the catalog accelerator's price x GPUs per rack; the rest
        // of the rack less its scale-up trays is CPUs, memory, boards and host trays. A GPU price above
        // what the rack leaves is capped there (the rack price is the quote; the split must not invent
        // money) and flagged.
        double gpuPart = 0.0;
        const model::CatalogItem* accel = nullptr;
        if (t.kind == "compute" && t.find("gpus")) accel = catalog.find(t.attribute("accelerator"));
        if (accel && accel->find("price_usd")) {
            gpuPart = t.value("gpus") * accel->value("price_usd");
            if (gpuPart > rackLessTrays) {
                r.rules.push_back({Severity::Warning, "gpu_price_above_rack", t.id,
                                   "GPU prices (" + fmt(t.value("gpus")) + " x $" +
                                       fmt(accel->value("price_usd")) +
                                       ") exceed the rack price less scale-up trays ($" + fmt(rackLessTrays) +
                                       "): capex.compute_breakdown.gpus capped at the rack's share"});
                gpuPart = std::max(0.0, rackLessTrays);
            }
        }
        split["gpus"] += line.quantity * gpuPart * usd;
        split["cpus_hosts"] += line.quantity * (rackLessTrays - gpuPart) * usd;
        // The non-GPU content by part for a rack priced from its parts (issue 30 item 5: its price is their
        // sum, Catalog::derivePartsPrices, so the parts add up to rackLessTrays - gpuPart exactly); a rack
        // quoted as a whole leaves it unpriced.
        const auto rackParts =
            t.kind == "compute" ? model::rackParts(catalog, t) : std::vector<model::RackPart>{};
        if (rackParts.empty()) {
            parts["unpriced"] += line.quantity * (rackLessTrays - gpuPart) * usd;
            continue;
        }
        for (const auto& part : rackParts)
            if (part.key != "gpus") parts[part.key] += line.quantity * part.count * part.unitPrice.base * usd;
        parts["system_integration"] += line.quantity * t.value("system_integration_usd") * usd;
    }
    for (const auto& f : bom.fabrics)
        cat["scale_out_network"] += f.switchCost, cat["optics_cables"] += f.opticsCost;
    cat["storage"] = bom.storageCost;
    for (const auto& b : p.buildings) {
        // The chain the power stage sized on the building's loads and topology (cost/power_chain.h).
        cat["power"] += r.power.chains[static_cast<size_t>(&b - p.buildings.data())].cost;
        cat["building"] += inputs.buildingShellCost(b, c.perBuilding[b.id].itPeak);
    }
    // On-site generation is power equipment.
    cat["power"] += (c.onsiteCapexUsd + c.bessCapexUsd) * usd; // and the battery
    for (const auto& s : p.sites)
        cat["building"] += s.landCost;
    for (size_t i = 0; i < p.coolingLoops.size() && i < bom.loops.size(); ++i)
        if (const auto* cdu = catalog.find(p.coolingLoops[i].cduType))
            cat["cooling"] += bom.loops[i].cdusInstalled * cdu->value("price_usd") * usd;
    cat["cooling"] += c.plantCapex;
    for (const auto& l : bom.links)
        cat["scale_across"] += l.capex;
    cat["integration"] = a.get("integration_fraction") * (cat["compute"] + cat["scale_up_network"]);
    for (const auto& [_, v] : cat)
        r.capex.total += v;
    // Analyst view: the ten categories regrouped the way analyst capex models present
    // them. Mapping (every category lands in exactly one group, so the view sums to capex.total):
    //   gpus       = compute_breakdown.gpus
    //   other_it   = compute_breakdown.cpus_hosts (CPUs, memory, boards, host trays)
    //   networking = scale_up_network + scale_out_network + optics_cables + scale_across
    //   storage    = storage
    //   power      = power
    //   cooling    = cooling
    //   shell      = building less site land
    //   other      = integration + site land
    Money land{};
    for (const auto& s : p.sites)
        land += s.landCost;
    land = std::clamp(land, Money{}, cat["building"]);
    auto& view = r.capex.analystView;
    view["gpus"] = split["gpus"];
    view["other_it"] = split["cpus_hosts"];
    view["networking"] =
        cat["scale_up_network"] + cat["scale_out_network"] + cat["optics_cables"] + cat["scale_across"];
    view["storage"] = cat["storage"];
    view["power"] = cat["power"];
    view["cooling"] = cat["cooling"];
    view["shell"] = cat["building"] - land;
    view["other"] = cat["integration"] + land;
    r.capex.perGpu = bom.gpus > 0 ? r.capex.total / bom.gpus : Money{};
    r.capex.perMw = r.power.itPeak.value() > 0 ? r.capex.total / toMw(r.power.itPeak) : Money{};
}

void addCapexFigures(EvalContext& c) {
    // Every key below starts with one of these prefixes; evaluateFigures skips them unless one is asked for.
    if (!c.wantsPrefix("capex.") && !c.wantsPrefix("inventory.power.")) return;
    Results& r = c.r;
    const BillOfMaterials& bom = c.bom;
    const auto& cat = r.capex.byCategory;
    addFigure(c, "capex.total_usd", r.capex.total.value(), "USD", "Capex", "sum of the ten capex categories");
    addFigure(c, "capex.per_gpu_usd", r.capex.perGpu.value(), "USD", "Capex per GPU", "capex / GPUs",
              {{"gpus", bom.gpus}});
    addFigure(c, "capex.per_mw_usd", r.capex.perMw.value(), "USD", "Capex per MW", "capex / peak IT MW",
              {{"it_peak_mw", toMw(r.power.itPeak)}});
    for (const auto& k : kCapexCategories)
        addFigure(c, "capex.by_category_usd." + k, cat.at(k).value(), "USD", k, "BOM lines of category " + k);
    // The storage line's basis: capacity and the catalog price per TB of each tier.
    if (!c.p.storageTiers.empty()) {
        double bytes = 0.0;
        std::vector<SourceRef> sources;
        for (const auto& st : c.p.storageTiers) {
            bytes += st.capacity.value();
            if (const auto* t = c.catalog.find(st.type); t && t->find("cost_usd_per_byte"))
                sources.emplace_back(t->id + ": $" + fmt(t->value("cost_usd_per_byte") * 1e12) + "/TB (" +
                                     t->find("cost_usd_per_byte")->source + ")");
        }
        addFigure(c, "capex.storage_usd_per_tb", safeDiv(cat.at("storage").value(), bytes / 1e12), "USD/TB",
                  "Storage capex per TB (usable, all tiers)",
                  "sum over storage tiers of capacity x the tier's catalog cost_usd_per_byte / capacity",
                  {{"capacity_pb", bytes / 1e15}, {"storage_usd", cat.at("storage").value()}}, sources);
    }
    for (const auto& k : kCapexCategories)
        addFigure(c, "capex.share." + k, r.capex.share(k), "", k + " share", "category / total");
    // Power-chain units over all buildings (cost/power_chain.h): what the power category buys.
    std::map<std::string, double> unitCount;
    for (const auto& chain : r.power.chains)
        for (const auto& l : chain.lines)
            unitCount[l.componentClass] += l.units;
    const std::pair<const char*, const char*> classes[] = {{"transformer", "transformers"},
                                                           {"switchgear", "switchgear"},
                                                           {"ups", "ups_modules"},
                                                           {"generator", "generators"},
                                                           {"busway", "busway_runs"}};
    for (const auto& [kind, key] : classes)
        addFigure(c, std::string("inventory.power.") + key, unitCount[kind], "unit",
                  std::string("Power chain: ") + key,
                  std::string(kind) == "generator"
                      ? "ceil(facility peak / genset rating) + 1 per building (N+1; N topology: + 0)"
                  : std::string(kind) == "busway"
                      ? "one run per power feed"
                      : "per building from its power_topology: N ceil(L/m), N+1 +1, 2N x2, 3/2 3 ceil(L/2m), "
                        "4/3 4 ceil(L/3m); L = max(A-side, B-side feed capacity)");
    const auto& split = r.capex.computeBreakdown;
    addFigure(c, "capex.compute_breakdown.gpus", split.at("gpus").value(), "USD", "GPUs",
              "accelerator catalog price x GPUs per rack x racks", {{"gpus", bom.gpus}});
    addFigure(c, "capex.compute_breakdown.cpus_hosts", split.at("cpus_hosts").value(), "USD",
              "CPUs, memory and host trays", "rack price less scale-up trays less GPUs");
    // cpus_hosts by part: each part's count x its component's catalog price.
    static const std::map<std::string, std::string> kPartLabel = {
        {"cpus", "CPUs"},
        {"memory", "Host memory"},
        {"backend_nics", "Back-end NICs"},
        {"frontend_nics", "Front-end NICs and DPUs"},
        {"power_supplies", "Power supplies"},
        {"liquid_cooling", "Liquid-cooling kits (cold plates, tray plumbing)"},
        {"system_integration", "Boards, mechanics, assembly and margin"},
        {"unpriced", "Not priced by part (racks quoted whole)"}};
    for (const char* k : kRackPartKeys)
        addFigure(
            c, std::string("capex.compute_breakdown.parts.") + k, r.capex.rackPartsBreakdown.at(k).value(),
            "USD", "Rack parts: " + kPartLabel.at(k),
            std::string(k) == "unpriced"
                ? "rack price less scale-up trays less GPUs, for rack types quoted whole"
            : std::string(k) == "system_integration"
                ? "racks x the rack type's system_integration_usd"
                : "racks x count per rack x the component's catalog price (data/catalog/components.json)");
    static const std::map<std::string, std::string> kAnalystFormula = {
        {"gpus", "capex.compute_breakdown.gpus"},
        {"other_it", "capex.compute_breakdown.cpus_hosts"},
        {"networking", "scale_up_network + scale_out_network + optics_cables + scale_across"},
        {"storage", "storage"},
        {"power", "power"},
        {"cooling", "cooling"},
        {"shell", "building less site land"},
        {"other", "integration + site land"}};
    for (const auto& k : kAnalystCapexCategories)
        addFigure(c, "capex.analyst_view." + k, r.capex.analystView.at(k).value(), "USD",
                  "Analyst view: " + k, kAnalystFormula.at(k));
}

} // namespace ctwin::cost::detail
