#include "catalog.h"
#include "input_file.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include <nlohmann/json.hpp>

#include "input_error.h"
#include "json_fast_parse.h"

namespace ctwin::model {

namespace {

struct KindSchema {
    std::string_view category;
    std::string_view kind;
    std::vector<std::string_view> values;
    std::vector<std::string_view> attributes;
    /// Values an item may add; with `closed`, any other value is refused (catches a misspelt key that would
    /// otherwise be silently ignored by every reader).
    std::vector<std::string_view> optional = {};
    bool closed = false;
};

// Required fields per category and kind: the contract of data/FORMAT.md §1.
const std::vector<KindSchema>& schemas() {
    // clang-format off
    static const std::vector<KindSchema> s = {
        {"accelerators", "gpu",
         {"bf16_flops", "fp8_flops", "fp4_flops", "hbm_bytes", "hbm_bandwidth_bytes_per_s",
          "scale_up_bandwidth_bytes_per_s", "tdp_w", "price_usd"},
         {"vendor"}},
        // price_usd: a quote for the whole rack, or (with system_integration_usd and the part attributes cpu,
        // memory, backend_nic, frontend_nic, psu, cooling_kit) the sum of its parts, derived when the catalog
        // is built (Catalog::derivePartsPrices). checkRackPrice requires one of the two.
        {"racks", "compute",
         {"gpus", "cpus", "servers", "backend_nics", "backend_nic_bit_per_s", "frontend_nics",
          "frontend_nic_bit_per_s", "scale_up_domain_gpus", "power_load_w", "power_idle_w", "liquid_fraction",
          "scale_up_network_price_usd", "weight_kg", "width_m", "depth_m", "psus", "useful_life_years"},
         {"accelerator"}},
        // Network racks: row leaves, patching and PDUs; the switches are priced and powered with
        // their fabric, so the rack's own power is 0 (cost/bill_of_materials.cpp checkNetworkRacks).
        {"racks", "network",
         {"rack_units", "power_capacity_w", "width_m", "depth_m", "weight_kg", "price_usd", "useful_life_years",
          "power_load_w", "power_idle_w", "liquid_fraction"},
         {}},
        // Rack components: each priced with a dated source and its basis (checkPriceBasis).
        {"components", "cpu", {"price_usd"}, {"price_basis"}},
        {"components", "memory", {"price_usd_per_gb"}, {"price_basis"}},
        {"components", "nic", {"price_usd", "bit_per_s"}, {"price_basis"}},
        {"components", "dpu", {"price_usd", "bit_per_s"}, {"price_basis"}},
        {"components", "psu", {"price_usd", "power_w"}, {"price_basis"}},
        {"components", "cooling_kit", {"price_usd"}, {"price_basis"}},
        {"switches", "switch",
         {"capacity_bit_per_s", "ports", "port_bit_per_s", "power_w", "price_usd", "rack_units",
          "useful_life_years"},
         {}},
        {"optics", "transceiver", {"bit_per_s", "reach_m", "power_w", "price_usd"}, {"media"}},
        {"optics", "cable", {"bit_per_s", "reach_m", "power_w", "price_usd"}, {"media"}},
        {"cooling", "cdu", {"capacity_w", "pump_power_w", "price_usd", "width_m", "depth_m"}, {}},
        // Climate-driven plant (cost/cooling_plant.h): a chiller also needs economizer_cop, a dry cooler or
        // tower compressor_cop (its trim chillers).
        {"cooling", "plant",
         {"cop", "capex_usd_per_w", "economizer_approach_k", "rated_lift_k", "condenser_approach_k"},
         {"type"},
         {"economizer_cop", "compressor_cop"}},
        // module_w: the rating of one unit, from which cost/power_chain.cpp counts units per topology.
        {"power", "transformer", {"efficiency", "capex_usd_per_w", "module_w"}, {}},
        {"power", "ups", {"efficiency", "capex_usd_per_w", "module_w"}, {}},
        {"power", "switchgear", {"efficiency", "capex_usd_per_w", "module_w"}, {}},
        {"power", "busway", {"efficiency", "capex_usd_per_w"}, {}},
        {"power", "generator", {"efficiency", "capex_usd_per_w", "module_w"}, {}},
        {"storage", "nvme",
         {"cost_usd_per_byte", "power_w_per_byte", "write_bytes_per_s_per_byte", "read_bytes_per_s_per_byte",
          "useful_life_years"},
         {}},
        {"storage", "parallel_fs",
         {"cost_usd_per_byte", "power_w_per_byte", "write_bytes_per_s_per_byte", "read_bytes_per_s_per_byte",
          "useful_life_years"},
         {}},
        {"storage", "object",
         {"cost_usd_per_byte", "power_w_per_byte", "write_bytes_per_s_per_byte", "read_bytes_per_s_per_byte",
          "useful_life_years"},
         {}},
        // reach_m: one span with terminal amplification only; amplified_reach_m: through inline amplifiers
        // (OSNR-limited), absent for an optic not meant for line systems (cost/bill_of_materials.cpp).
        {"wan", "optic", {"bit_per_s", "reach_m", "power_w", "price_usd"}, {}, {"amplified_reach_m"}},
        {"wan", "amplifier", {"spacing_m", "price_usd", "power_w"}, {}},
        // One end of a line system on one fiber pair: mux/demux with booster and preamplifier, or a ROADM
        // degree.
        {"wan", "line_terminal", {"price_usd", "power_w"}, {}},
        {"failures", "component", {"rate_per_hour"}, {"unit"}},
        // Serving engine profiles: overheads beyond the roofline and the batch cap (cost/inference.h
        // EngineProfile).
        {"serving_engines", "engine",
         {"step_overhead_s", "layer_overhead_s", "sequence_overhead_s", "max_batch_per_scheduler"},
         {"project"},
         {"expert_gemm_hbm_efficiency"},
         true},
        // Failure-rate presets: one rate per node (server) per hour, chosen by a training
        // job's failure_rate_preset.
        {"failures", "node_rate", {"rate_per_hour"}, {"unit", "node_gpus"}},
        // Model presets for training jobs and inference services: read by name through
        // catalog.byCategory("models") and item.value("model_params") etc.
        {"models",
         "llm",
         {"model_params", "active_params", "layers", "hidden_size", "kv_heads", "head_dim"},
         {"family", "attention"},
         {"experts", "active_experts", "kv_latent_dim",
          // Architecture beyond the KV formula: attention width, MLA's RoPE key, layer groups.
          "attention_heads", "qk_head_dim", "v_head_dim", "kv_rope_dim", "sliding_window", "sliding_window_layers",
          "linear_attention_layers", "linear_state_elements", "context_length",
          // Bits an MoE's releases keep its always-active part at when the experts are quantized further.
          "non_expert_weight_bits",
          // Market API prices per million tokens: the token revenue's default.
          "api_price_usd_per_m_input_tokens", "api_price_usd_per_m_cached_input_tokens",
          "api_price_usd_per_m_output_tokens"},
         true},
    };
    // clang-format on
    return s;
}

InputLocation itemLocation(const std::string& file, const CatalogItem& item, std::string field = {}) {
    return InputLocation{file, "catalog item", item.id, item.name, std::move(field)};
}

double finiteNumber(const nlohmann::json& j, const InputLocation& where) {
    if (!j.is_number()) throw InputError(where, "expected a number, found " + std::string(j.type_name()));
    const double v = j.get<double>();
    if (!std::isfinite(v)) throw InputError(where, "value is not finite");
    return v;
}

} // namespace

double CatalogItem::value(const std::string& field) const {
    if (const auto* v = find(field)) return v->base;
    throw InputError(InputLocation{"", "catalog item", id, name, field}, "missing in the catalog");
}

const CatalogValue* CatalogItem::find(const std::string& field) const {
    auto it = values.find(field);
    return it == values.end() ? nullptr : &it->second;
}

std::string CatalogItem::attribute(const std::string& key) const {
    auto it = attributes.find(key);
    return it == attributes.end() ? std::string() : it->second;
}

Catalog::Catalog(std::vector<CatalogItem> items) : m_items(std::move(items)) {
    m_index.reserve(m_items.size());
    for (size_t i = 0; i < m_items.size(); ++i) m_index.emplace(m_items[i].id, i);
    derivePartsPrices();
}

namespace {

// The parts a rack type is priced from, in report order: the rack value holding the count,
// the rack attribute naming the component, the component's price field. The liquid-cooling kit (cold plates,
// tray manifolds and quick disconnects) is counted per compute tray (server).
struct PartSpec {
    const char* key;
    const char* label;
    const char* countField;
    const char* attribute;
    const char* priceField;
};
constexpr PartSpec kPartSpecs[] = {
    {"gpus", "GPUs", "gpus", "accelerator", "price_usd"},
    {"cpus", "CPUs", "cpus", "cpu", "price_usd"},
    {"memory", "host memory (per GB)", "memory_gb", "memory", "price_usd_per_gb"},
    {"backend_nics", "back-end NICs", "backend_nics", "backend_nic", "price_usd"},
    {"frontend_nics", "front-end NICs and DPUs", "frontend_nics", "frontend_nic", "price_usd"},
    {"power_supplies", "power supplies", "psus", "psu", "price_usd"},
    {"liquid_cooling", "liquid-cooling kits (cold plates, tray plumbing)", "servers", "cooling_kit",
     "price_usd"},
};

} // namespace

std::vector<RackPart> rackParts(const Catalog& catalog, const CatalogItem& rack) {
    std::vector<RackPart> parts;
    if (rack.category != "racks" || !rack.find("system_integration_usd")) return parts;
    for (const auto& spec : kPartSpecs) {
        const std::string id = rack.attribute(spec.attribute);
        if (id.empty()) continue;
        const auto where = InputLocation{"", "catalog item", rack.id, rack.name, spec.attribute};
        const auto* component = catalog.find(id);
        if (!component) throw InputError(where, "refers to unknown component '" + id + "'");
        const auto* price = component->find(spec.priceField);
        if (!price)
            throw InputError(where,
                             "component '" + id + "' has no " + spec.priceField + " to price the rack with");
        const auto* count = rack.find(spec.countField);
        if (!count)
            throw InputError(InputLocation{"", "catalog item", rack.id, rack.name, spec.countField},
                             std::string("the rack lists a ") + spec.attribute + " but not how many (" +
                                 spec.countField + ")");
        parts.push_back(RackPart{spec.key, spec.label, spec.countField, id, count->base, *price});
    }
    return parts;
}

void Catalog::derivePartsPrices() {
    // A rack that lists its parts (system_integration_usd present) costs their sum:
    //   price = sum_parts count x unit price + scale-up trays + system integration,
    // with low and high the sums of the lows and of the highs (the parts' ranges taken as fully correlated:
    // the widest honest envelope). The derived value replaces any price_usd the item carried (a stored
    // catalog or an earlier derivation), so deriving again is idempotent.
    for (auto& rack : m_items) {
        if (rack.category != "racks" || !rack.find("system_integration_usd")) continue;
        CatalogValue price;
        std::string text = "Sum of parts (issue 30 item 5): ";
        bool estimate = false;
        for (const auto& part : rackParts(*this, rack)) {
            price.base += part.count * part.unitPrice.base;
            price.low += part.count * part.unitPrice.low;
            price.high += part.count * part.unitPrice.high;
            estimate = estimate || part.unitPrice.estimate;
            text += part.label + " " + std::to_string(static_cast<long long>(part.count)) + " x " +
                    part.componentId + "; ";
        }
        for (const char* field : {"scale_up_network_price_usd", "system_integration_usd"})
            if (const auto* v = rack.find(field)) {
                price.base += v->base, price.low += v->low, price.high += v->high;
                estimate = estimate || v->estimate;
                text += std::string(field) + "; ";
            }
        text += "each part's price and source in data/catalog/components.json and accelerators.json";
        price.source = text;
        price.estimate = estimate;
        rack.values["price_usd"] = price;
    }
}

const CatalogItem* Catalog::find(std::string_view id) const {
    auto it = m_index.find(std::string(id));
    return it == m_index.end() ? nullptr : &m_items[it->second];
}

const CatalogItem& Catalog::at(std::string_view id) const {
    if (const auto* item = find(id)) return *item;
    throw InputError(InputLocation{"", "catalog item", std::string(id), "", ""}, "not in the catalog");
}

std::vector<const CatalogItem*> Catalog::byCategory(std::string_view category) const {
    std::vector<const CatalogItem*> out;
    for (const auto& item : m_items)
        if (item.category == category) out.push_back(&item);
    return out;
}

namespace {

/// What a model preset must satisfy beyond the generic schema: whole positive counts, active <= total,
/// experts and active experts together, a known attention kind, and the MLA latent for MLA models.
void checkModelPreset(const CatalogItem& item, const std::string& file) {
    const auto where = [&](const std::string& field) { return itemLocation(file, item, field); };
    for (const char* field :
         {"layers", "hidden_size", "kv_heads", "head_dim", "experts", "active_experts", "kv_latent_dim",
          "attention_heads", "qk_head_dim", "v_head_dim", "kv_rope_dim", "sliding_window", "sliding_window_layers",
          "linear_attention_layers", "linear_state_elements", "context_length"})
        if (const auto* v = item.find(field))
            for (double x : {v->base, v->low, v->high})
                if (x < 1 || x != std::floor(x))
                    throw InputError(where(field),
                                     "must be a whole number of at least 1, found " + std::to_string(x));
    for (const char* field : {"model_params", "active_params"})
        if (item.find(field)->low <= 0) throw InputError(where(field), "must be positive");
    if (item.find("active_params")->base > item.find("model_params")->base)
        throw InputError(where("active_params"), "active parameters exceed the model's parameters");
    const auto* experts = item.find("experts");
    const auto* active = item.find("active_experts");
    if ((experts == nullptr) != (active == nullptr))
        throw InputError(where(experts ? "active_experts" : "experts"),
                         "a mixture-of-experts model needs both experts and active_experts");
    if (experts && active->base > experts->base)
        throw InputError(where("active_experts"), "more active experts than experts");
    if (const auto* bits = item.find("non_expert_weight_bits")) {
        if (!experts)
            throw InputError(where("non_expert_weight_bits"),
                             "only a mixture-of-experts model keeps its non-expert weights apart");
        for (double x : {bits->base, bits->low, bits->high})
            if (x != 4 && x != 8 && x != 16)
                throw InputError(where("non_expert_weight_bits"),
                                 "must be 4, 8 or 16 bits (FP4, FP8 or BF16), found " + std::to_string(x));
    }
    static const std::set<std::string> kinds = {"mha", "gqa", "mqa", "mla"};
    const std::string attention = item.attribute("attention");
    if (!kinds.count(attention))
        throw InputError(where("attention"), "unknown attention '" + attention + "' (mha, gqa, mqa or mla)");
    if (attention == "mla" && !item.find("kv_latent_dim"))
        throw InputError(where("kv_latent_dim"), "an MLA model needs its KV latent dimension");
    // Layer groups: a sliding window needs its layers and vice versa, fits in the context, and the
    // local and linear layers are some of the model's layers; a linear layer needs its state size.
    const auto* window = item.find("sliding_window");
    const auto* local = item.find("sliding_window_layers");
    if ((window == nullptr) != (local == nullptr))
        throw InputError(where(window ? "sliding_window_layers" : "sliding_window"),
                         "a sliding-window model needs both sliding_window and sliding_window_layers");
    if (const auto* context = item.find("context_length"); window && context && window->high > context->low)
        throw InputError(where("sliding_window"), "the window (" + std::to_string(window->high) +
                                                      " tokens) is longer than the context (" +
                                                      std::to_string(context->low) + ")");
    const auto* linear = item.find("linear_attention_layers");
    if (linear && !item.find("linear_state_elements"))
        throw InputError(where("linear_state_elements"), "linear-attention layers need their state size");
    const double grouped = (local ? local->high : 0.0) + (linear ? linear->high : 0.0);
    if (grouped > item.find("layers")->low)
        throw InputError(where(local ? "sliding_window_layers" : "linear_attention_layers"),
                         "more sliding-window and linear layers than the model has layers");
}

/// Achievable fractions of an accelerator's peaks, when given: above 0 and at most 1.2 (NVLink
/// SHARP all-reduce reports a bus bandwidth ~7% above the link rate; nothing else exceeds its peak).
void checkAcceleratorEfficiencies(const CatalogItem& item, const std::string& file) {
    for (const char* field : {"decode_hbm_efficiency", "prefill_compute_efficiency", "scale_up_collective_efficiency"})
        if (const auto* v = item.find(field))
            if (!(v->low > 0 && v->high <= 1.2))
                throw InputError(itemLocation(file, item, field),
                                 "an achievable fraction of peak must lie in (0, 1.2]");
}

/// A generation's price curve, when given: the fraction of its rental price and of its
/// purchase price lost per year, in [0, 0.9] (the assumptions' own valid range; 0.9 loses all but a tenth
/// in a year).
void checkAcceleratorPriceCurve(const CatalogItem& item, const std::string& file) {
    for (const char* field : {"rental_price_decay_per_year", "price_decline_per_year"})
        if (const auto* v = item.find(field))
            if (!(v->high <= 0.9))
                throw InputError(itemLocation(file, item, field),
                                 "a price lost per year is a fraction in [0, 0.9] (0.2 = 20 % a year)");
}

// A serving engine admits at least one sequence per scheduler (issue 28: a cap of 0 would serve nothing).
void checkServingEngine(const CatalogItem& item, const std::string& file) {
    if (const auto* v = item.find("max_batch_per_scheduler"); v && !(v->low >= 1))
        throw InputError(itemLocation(file, item, "max_batch_per_scheduler"),
                         "a serving engine must admit at least 1 sequence per scheduler");
    if (const auto* v = item.find("expert_gemm_hbm_efficiency"); v && !(v->low > 0 && v->high <= 1))
        throw InputError(itemLocation(file, item, "expert_gemm_hbm_efficiency"),
                         "a fraction of peak HBM bandwidth must lie in (0, 1]");
}

// An optic reaches at least as far through inline amplifiers as over one span: every
// amplified reach in its range is at least every single-span reach in its range.
void checkWanOptic(const CatalogItem& item, const std::string& file) {
    const auto* reach = item.find("reach_m");
    const auto* amplified = item.find("amplified_reach_m");
    if (reach && amplified && amplified->low < reach->high)
        throw InputError(itemLocation(file, item, "amplified_reach_m"),
                         "the amplified reach must be at least the unamplified reach_m");
}

// A rack type is priced by a quote (price_usd) or by its parts (system_integration_usd); a file that gives
// both would have its quote silently replaced by the derived sum, so it is refused. A
// stored catalog carries the derived price_usd beside the parts and is not checked here (fromFile false).
void checkRackPrice(const CatalogItem& item, const std::string& file, bool fromFile) {
    const bool quoted = item.find("price_usd") != nullptr,
               parts = item.find("system_integration_usd") != nullptr;
    if (!quoted && !parts)
        throw InputError(
            itemLocation(file, item, "price_usd"),
            "a rack type needs a price: price_usd (a quote for the rack) or system_integration_usd "
            "with its parts (cpu, memory, backend_nic, frontend_nic, psu, cooling_kit)");
    if (fromFile && quoted && parts)
        throw InputError(
            itemLocation(file, item, "price_usd"),
            "this rack is priced from its parts (system_integration_usd is set): price_usd is their "
            "sum; remove it, or keep the quote as quoted_price_usd");
}

// Where a price was seen: list (the vendor's published price), contract (hyperscaler or
// volume contract), street (reseller and secondary-market listings), analyst (an analyst's estimate of the
// transaction price) or estimate (derived here from other figures).
void checkPriceBasis(const CatalogItem& item, const std::string& file) {
    static const std::set<std::string> kBases = {"list", "contract", "street", "analyst", "estimate"};
    const std::string basis = item.attribute("price_basis");
    if (!basis.empty() && !kBases.count(basis))
        throw InputError(itemLocation(file, item, "price_basis"),
                         "unknown price basis '" + basis + "' (list, contract, street, analyst or estimate)");
}

} // namespace

void checkCatalogItem(const CatalogItem& item, const std::string& file) {
    const auto& all = schemas();
    auto schema = std::find_if(all.begin(), all.end(),
                               [&](const KindSchema& s) { return s.category == item.category && s.kind == item.kind; });
    if (schema == all.end())
        throw InputError(itemLocation(file, item, "kind"),
                         "unknown kind '" + item.kind + "' for category '" + item.category + "'");
    for (auto field : schema->values)
        if (!item.values.count(std::string(field)))
            throw InputError(itemLocation(file, item, std::string(field)), "required value is missing");
    for (auto key : schema->attributes)
        if (item.attribute(std::string(key)).empty())
            throw InputError(itemLocation(file, item, std::string(key)), "required attribute is missing");
    if (schema->closed)
        for (const auto& [field, v] : item.values)
            if (std::find(schema->values.begin(), schema->values.end(), field) == schema->values.end() &&
                std::find(schema->optional.begin(), schema->optional.end(), field) == schema->optional.end())
                throw InputError(itemLocation(file, item, field),
                                 "unknown value for a " + item.category + " item (misspelt?)");
    for (const auto& [field, v] : item.values) {
        const auto where = itemLocation(file, item, field);
        if (!(v.low <= v.base && v.base <= v.high))
            throw InputError(where, "range must satisfy low <= base <= high");
        if (v.low < 0.0) throw InputError(where, "catalog values must not be negative");
        if (v.source.empty()) throw InputError(where, "every catalog value needs a source");
    }
    if (item.category == "models") checkModelPreset(item, file);
    if (item.category == "accelerators") {
        checkAcceleratorEfficiencies(item, file);
        checkAcceleratorPriceCurve(item, file);
    }
    if (item.category == "serving_engines") checkServingEngine(item, file);
    if (item.category == "wan" && item.kind == "optic") checkWanOptic(item, file);
    if (item.category == "racks" && item.kind == "compute") checkRackPrice(item, file, false);
    checkPriceBasis(item, file);
}

std::vector<CatalogItem> catalogItemsFromJson(const nlohmann::json& doc, const std::string& file) {
    const InputLocation top{file, "", "", "", ""};
    if (!doc.is_object()) throw InputError(top, "a catalog file must be a JSON object");
    if (!doc.contains("category") || !doc["category"].is_string())
        throw InputError(InputLocation{file, "", "", "", "category"}, "missing string 'category'");
    if (!doc.contains("items") || !doc["items"].is_array())
        throw InputError(InputLocation{file, "", "", "", "items"}, "missing array 'items'");
    const std::string category = doc["category"].get<std::string>();
    std::vector<CatalogItem> items;
    for (const auto& j : doc["items"]) {
        CatalogItem item;
        item.category = category;
        if (!j.is_object()) throw InputError(InputLocation{file, "catalog item", "", "", ""}, "item must be an object");
        auto text = [&](const char* key, std::string& out) {
            if (!j.contains(key) || !j[key].is_string() || j[key].get<std::string>().empty())
                throw InputError(itemLocation(file, item, key), "missing or not a non-empty string");
            out = j[key].get<std::string>();
        };
        text("id", item.id);
        text("name", item.name);
        text("kind", item.kind);
        if (j.contains("attributes")) {
            if (!j["attributes"].is_object())
                throw InputError(itemLocation(file, item, "attributes"), "must be an object of strings");
            for (const auto& [k, v] : j["attributes"].items()) {
                if (!v.is_string()) throw InputError(itemLocation(file, item, k), "attribute must be a string");
                item.attributes[k] = v.get<std::string>();
            }
        }
        if (!j.contains("values") || !j["values"].is_object())
            throw InputError(itemLocation(file, item, "values"), "missing object 'values'");
        for (const auto& [field, jv] : j["values"].items()) {
            const auto where = itemLocation(file, item, field);
            if (!jv.is_object()) throw InputError(where, "value must be {base, low, high, source}");
            CatalogValue v;
            for (const char* k : {"base", "low", "high"})
                if (!jv.contains(k)) throw InputError(where, std::string("missing '") + k + "'");
            v.base = finiteNumber(jv["base"], where);
            v.low = finiteNumber(jv["low"], where);
            v.high = finiteNumber(jv["high"], where);
            if (jv.contains("source") && jv["source"].is_string()) v.source = jv["source"].get<std::string>();
            if (jv.contains("estimate")) {
                if (!jv["estimate"].is_boolean()) throw InputError(where, "'estimate' must be true or false");
                v.estimate = jv["estimate"].get<bool>();
            }
            item.values[field] = std::move(v);
        }
        checkCatalogItem(item, file);
        if (item.category == "racks" && item.kind == "compute") checkRackPrice(item, file, true);
        items.push_back(std::move(item));
    }
    return items;
}

void checkCatalogReferences(const Catalog& catalog, const std::string& file) {
    std::set<std::string> seen;
    for (const auto& item : catalog.items()) {
        if (!seen.insert(item.id).second)
            throw InputError(itemLocation(file, item, "id"), "duplicate catalog id");
        if (item.category == "racks" && item.kind == "compute") { // a network rack holds no GPUs
            const std::string acc = item.attribute("accelerator");
            const auto* a = catalog.find(acc);
            if (!a || a->category != "accelerators")
                throw InputError(itemLocation(file, item, "accelerator"),
                                 "refers to unknown accelerator '" + acc + "'");
            // A rack's NICs cannot run faster than the NIC it lists (issue 36: GB200 trays ship ConnectX-7 at
            // 400 Gb/s): the back-end and front-end bit rates are at most the component's bit_per_s.
            for (const auto& [attribute, field] :
                 {std::pair<const char*, const char*>{"backend_nic", "backend_nic_bit_per_s"},
                  {"frontend_nic", "frontend_nic_bit_per_s"}}) {
                const auto* nic = catalog.find(item.attribute(attribute));
                const auto* own = item.find(field);
                const auto* rate = nic ? nic->find("bit_per_s") : nullptr;
                if (rate && own && own->base > rate->base)
                    throw InputError(itemLocation(file, item, field),
                                     "faster than its " + std::string(attribute) + " '" + nic->id + "' (" +
                                         std::to_string(std::llround(rate->base / 1e9)) + " Gb/s)");
            }
        }
    }
}

Catalog loadCatalogDirectory(const std::string& directory) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(directory, ec))
        throw InputError(InputLocation{directory, "", "", "", ""}, "catalog directory does not exist");
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(directory))
        if (e.path().extension() == ".json") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    std::vector<CatalogItem> all;
    for (const auto& path : files) {
        const std::string text = readInputFile(path.string(), kMaxCatalogFileBytes, "catalog file");
        nlohmann::json doc;
        try {
            doc = parseJson<nlohmann::json>(text);
        } catch (const nlohmann::json::exception& e) { // parse_error, and out_of_range for 1e400
            throw InputError(InputLocation{path.string(), "", "", "", ""},
                             "malformed JSON: " + jsonErrorText(e));
        }
        auto items = catalogItemsFromJson(doc, path.string());
        all.insert(all.end(), std::make_move_iterator(items.begin()), std::make_move_iterator(items.end()));
    }
    Catalog catalog(std::move(all));
    checkCatalogReferences(catalog, directory);
    return catalog;
}

} // namespace ctwin::model
