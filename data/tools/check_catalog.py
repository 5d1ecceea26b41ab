#!/usr/bin/env python3
"""Validate ClusterTwin catalog files and assumptions.json against data/FORMAT.md.

Usage: python3 data/tools/check_catalog.py [DATA_DIR]

DATA_DIR defaults to the `data/` directory containing this script. Checks (FORMAT.md sections 1 and 2):
  * each catalog file parses, has `category` equal to its file name and a list of `items`;
  * every item has id, name, kind (allowed for the category), attributes (strings only) and values;
  * every field required for the (category, kind) is present, each value has numeric finite base/low/high with
    low <= base <= high, a non-empty `source`, and `estimate` (when present) is a boolean;
  * required attributes and enumerations (media, plant type, failure unit), rack -> accelerator references;
  * item ids are unique across the whole catalog and the ids referenced by designs exist;
  * simple domain checks (fractions in 0..1, non-negative values, integer counts, switch capacity);
  * assumptions.json: required keys, each with base/low/high/unit/source/estimate.
Prints one line per problem naming file, item id and field, and exits 1 if there is any error.
Python 3 standard library only.
"""
import json
import math
import os
import sys

# ------------------------------------------------------------------ the contract (FORMAT.md section 1)
CATEGORIES = {
    "accelerators": {
        "gpu": ["bf16_flops", "fp8_flops", "fp4_flops", "hbm_bytes", "hbm_bandwidth_bytes_per_s",
                "scale_up_bandwidth_bytes_per_s", "tdp_w", "price_usd"],
    },
    "racks": {
        "compute": ["gpus", "cpus", "servers", "backend_nics", "backend_nic_bit_per_s", "frontend_nics",
                    "frontend_nic_bit_per_s", "scale_up_domain_gpus", "power_load_w", "power_idle_w",
                    "liquid_fraction", "price_usd", "scale_up_network_price_usd", "weight_kg", "width_m",
                    "depth_m", "psus", "useful_life_years"],
    },
    "switches": {
        "switch": ["capacity_bit_per_s", "ports", "port_bit_per_s", "power_w", "price_usd", "rack_units",
                   "useful_life_years"],
    },
    "optics": {
        "transceiver": ["bit_per_s", "reach_m", "power_w", "price_usd"],
        "cable": ["bit_per_s", "reach_m", "power_w", "price_usd"],
    },
    "cooling": {
        "cdu": ["capacity_w", "pump_power_w", "price_usd", "width_m", "depth_m"],
        "plant": ["cop", "capex_usd_per_w"],
    },
    "power": {k: ["efficiency", "capex_usd_per_w"]
              for k in ("transformer", "ups", "switchgear", "busway", "generator")},
    "storage": {k: ["cost_usd_per_byte", "power_w_per_byte", "write_bytes_per_s_per_byte",
                    "read_bytes_per_s_per_byte", "useful_life_years"]
                for k in ("nvme", "parallel_fs", "object")},
    "wan": {
        "optic": ["bit_per_s", "reach_m", "power_w", "price_usd"],
        "amplifier": ["spacing_m", "price_usd", "power_w"],
    },
    "failures": {
        "component": ["rate_per_hour"],
        "node_rate": ["rate_per_hour"],
    },
    "models": {
        "llm": ["model_params", "active_params", "layers", "hidden_size", "kv_heads", "head_dim"],
    },
}
# values a kind may add beyond the required ones; any other value of these kinds is an error (a misspelt key
# would be silently ignored by the readers)
OPTIONAL_VALUES = {
    ("models", "llm"): ["experts", "active_experts", "kv_latent_dim"],
}

# required attributes: (category, kind or None for all kinds) -> {attr: allowed values or None for any string}
REQUIRED_ATTRIBUTES = {
    ("accelerators", None): {"vendor": None},
    ("racks", None): {"accelerator": None},
    ("switches", None): {"silicon": None},
    ("optics", None): {"media": {"dac", "aec", "mmf", "smf", "lpo", "cpo"}},
    ("cooling", "plant"): {"type": {"chiller", "dry_cooler", "cooling_tower"}},
    ("failures", None): {"unit": {"gpu", "server", "nic", "switch", "optic", "cdu", "power_feed", "wan_km",
                                  "job_per_gpu"},
                         "calibration": None},
    ("models", None): {"family": None, "attention": {"mha", "gqa", "mqa", "mla"}},
}

# attribute -> category whose ids it must reference
ATTRIBUTE_REFERENCES = {("racks", "accelerator"): "accelerators"}

# ids referenced by designs (FORMAT.md "Ids referenced by designs"), by category
DESIGN_IDS = {
    "racks": ["hgx-h100-2srv", "hgx-b200-4srv", "gb200-nvl72", "gb300-nvl72", "vr-nvl72", "vr-nvl144"],
    "accelerators": ["h100-sxm", "b200", "gb200", "gb300", "rubin"],
    "switches": ["sw-51t", "sw-102t"],
    "cooling": ["cdu-1mw", "cdu-2mw", "plant-chiller", "plant-dry-cooler", "plant-tower"],
    "power": ["xfmr-mv", "ups-static", "switchgear-lv", "busway-row", "genset"],
    "storage": ["nvme-local", "pfs-flash", "object-hdd"],
    "wan": ["wan-800zr", "wan-amp"],
    "models": ["llama3-8b", "llama3-70b", "llama3-405b", "deepseek-v3", "kimi-k2", "qwen3-32b", "qwen3-235b-a22b"],
}

FRACTION_FIELDS = {"liquid_fraction", "efficiency"}
INTEGER_FIELDS = {"gpus", "cpus", "servers", "backend_nics", "frontend_nics", "scale_up_domain_gpus", "psus",
                  "ports", "rack_units", "layers", "hidden_size", "kv_heads", "head_dim", "experts",
                  "active_experts", "kv_latent_dim"}
POSITIVE_FIELDS = {"gpus", "servers", "scale_up_domain_gpus", "capacity_bit_per_s", "ports", "port_bit_per_s",
                   "bit_per_s", "capacity_w", "cop", "spacing_m", "useful_life_years", "hbm_bytes",
                   "hbm_bandwidth_bytes_per_s", "bf16_flops", "tdp_w", "efficiency", "width_m", "depth_m",
                   "model_params", "active_params", "layers", "hidden_size", "kv_heads", "head_dim", "experts",
                   "active_experts", "kv_latent_dim"}
VALUE_KEYS = {"base", "low", "high", "source", "estimate"}

# ------------------------------------------------------------------ assumptions (FORMAT.md section 2)
ASSUMPTION_KEYS = [
    "electricity_usd_per_kwh", "wacc", "tax_rate", "it_useful_life_years", "network_useful_life_years",
    "facility_useful_life_years", "utilization", "mfu", "goodput", "it_maintenance_fraction",
    "network_maintenance_fraction", "facility_maintenance_fraction", "it_residual_fraction",
    "network_residual_fraction", "facility_residual_fraction",
    "staff_usd_per_mw_year", "horizon_years", "building_shell_usd_per_w", "integration_fraction",
    "route_factor", "gpu_hour_price_usd", "input_token_price_usd_per_million",
    "output_token_price_usd_per_million", "delivery_to_revenue_days", "misc_facility_fraction",
    "declining_balance_factor", "spare_fraction_target", "oversubscription_limit",
]
ASSUMPTION_FRACTIONS = {"wacc", "tax_rate", "utilization", "mfu", "goodput", "it_maintenance_fraction",
                        "network_maintenance_fraction", "facility_maintenance_fraction", "it_residual_fraction",
                        "network_residual_fraction", "facility_residual_fraction",
                        "integration_fraction", "misc_facility_fraction", "spare_fraction_target"}
ASSUMPTION_ENTRY_KEYS = {"base", "low", "high", "min", "max", "unit", "source", "estimate"}


class Report:
    def __init__(self):
        self.errors = []
        self.warnings = []

    def error(self, where, msg):
        self.errors.append("ERROR %s: %s" % (where, msg))

    def warn(self, where, msg):
        self.warnings.append("warning %s: %s" % (where, msg))


def is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def where(fname, item_id=None, field=None):
    s = fname
    if item_id is not None:
        s += ": item '%s'" % item_id
    if field is not None:
        s += ": field '%s'" % field
    return s


def check_range(rep, w, obj, allowed_keys, required_keys):
    """Checks base/low/high/source(/estimate/unit) of one value object. Returns True if numbers are usable."""
    if not isinstance(obj, dict):
        rep.error(w, "value must be an object with base/low/high/source")
        return False
    for k in required_keys:
        if k not in obj:
            rep.error(w, "missing '%s'" % k)
    for k in obj:
        if k not in allowed_keys:
            rep.error(w, "unknown key '%s' (allowed: %s)" % (k, ", ".join(sorted(allowed_keys))))
    ok = True
    for k in ("base", "low", "high"):
        if k in obj:
            x = obj[k]
            if not is_number(x):
                rep.error(w, "'%s' must be a number, got %r" % (k, x))
                ok = False
            elif not math.isfinite(x):
                rep.error(w, "'%s' must be finite, got %r" % (k, x))
                ok = False
        else:
            ok = False
    if ok and not (obj["low"] <= obj["base"] <= obj["high"]):
        rep.error(w, "need low <= base <= high, got low=%r base=%r high=%r" % (obj["low"], obj["base"], obj["high"]))
    if "source" in obj and (not isinstance(obj["source"], str) or not obj["source"].strip()):
        rep.error(w, "'source' must be a non-empty string")
    if "estimate" in obj and not isinstance(obj["estimate"], bool):
        rep.error(w, "'estimate' must be true or false, got %r" % (obj["estimate"],))
    return ok


def check_value_domain(rep, w, field, obj):
    nums = [obj[k] for k in ("low", "base", "high")]
    if any(x < 0 for x in nums):
        rep.error(w, "must be non-negative")
    if field in FRACTION_FIELDS and any(x > 1 for x in nums):
        rep.error(w, "is a fraction and must be within 0..1")
    if field in POSITIVE_FIELDS and any(x <= 0 for x in nums):
        rep.error(w, "must be positive")
    if field in INTEGER_FIELDS and any(float(x) != math.floor(x) for x in nums):
        rep.error(w, "must be an integer count")


def load_json(rep, path, fname):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f, parse_constant=lambda c: float(c))
    except FileNotFoundError:
        rep.error(fname, "file not found (%s)" % path)
    except json.JSONDecodeError as e:
        rep.error(fname, "invalid JSON: %s" % e)
    return None


def check_catalog(rep, catalog_dir):
    ids = {}            # id -> (file, category)
    by_category = {c: {} for c in CATEGORIES}
    present = set(os.listdir(catalog_dir)) if os.path.isdir(catalog_dir) else set()
    for extra in sorted(present):
        if extra.endswith(".json") and extra[:-5] not in CATEGORIES:
            rep.error("catalog/" + extra, "unknown catalog category '%s' (expected one of: %s)"
                      % (extra[:-5], ", ".join(CATEGORIES)))

    for category, kinds in CATEGORIES.items():
        fname = "catalog/%s.json" % category
        doc = load_json(rep, os.path.join(catalog_dir, category + ".json"), fname)
        if doc is None:
            continue
        if not isinstance(doc, dict):
            rep.error(fname, "top level must be an object with 'category' and 'items'")
            continue
        for k in doc:
            if k not in ("category", "items"):
                rep.warn(fname, "unknown top-level key '%s'" % k)
        if doc.get("category") != category:
            rep.error(fname, "'category' must be '%s', got %r" % (category, doc.get("category")))
        items = doc.get("items")
        if not isinstance(items, list) or not items:
            rep.error(fname, "'items' must be a non-empty list")
            continue
        for idx, it in enumerate(items):
            if not isinstance(it, dict):
                rep.error(where(fname, "#%d" % idx), "item must be an object")
                continue
            item_id = it.get("id")
            if not isinstance(item_id, str) or not item_id.strip():
                rep.error(where(fname, "#%d" % idx, "id"), "missing or empty id")
                item_id = "#%d" % idx
            elif item_id in ids:
                rep.error(where(fname, item_id, "id"), "duplicate id (also in %s)" % ids[item_id][0])
            else:
                ids[item_id] = (fname, category)
                by_category[category][item_id] = it
            for k in it:
                if k not in ("id", "name", "kind", "attributes", "values"):
                    rep.warn(where(fname, item_id), "unknown item key '%s'" % k)
            name = it.get("name")
            if not isinstance(name, str) or not name.strip():
                rep.error(where(fname, item_id, "name"), "missing or empty name")
            kind = it.get("kind")
            if kind not in kinds:
                rep.error(where(fname, item_id, "kind"), "kind %r not allowed in %s (allowed: %s)"
                          % (kind, category, ", ".join(kinds)))
            # attributes
            attrs = it.get("attributes")
            if not isinstance(attrs, dict):
                rep.error(where(fname, item_id, "attributes"), "must be an object of strings")
                attrs = {}
            for ak, av in attrs.items():
                if not isinstance(av, str):
                    rep.error(where(fname, item_id, "attributes." + ak), "attributes hold strings only, got %r" % (av,))
            for (cat, knd), req in REQUIRED_ATTRIBUTES.items():
                if cat != category or (knd is not None and knd != kind):
                    continue
                for ak, allowed in req.items():
                    av = attrs.get(ak)
                    if not isinstance(av, str) or not av.strip():
                        rep.error(where(fname, item_id, "attributes." + ak), "required attribute missing or empty")
                    elif allowed is not None and av not in allowed:
                        rep.error(where(fname, item_id, "attributes." + ak), "%r not one of: %s"
                                  % (av, ", ".join(sorted(allowed))))
            # values
            values = it.get("values")
            if not isinstance(values, dict):
                rep.error(where(fname, item_id, "values"), "must be an object")
                continue
            required = kinds.get(kind, [])
            for field in required:
                if field not in values:
                    rep.error(where(fname, item_id, field), "required value missing for kind '%s'" % kind)
            optional = OPTIONAL_VALUES.get((category, kind))
            for field, obj in values.items():
                w = where(fname, item_id, field)
                if optional is not None and field not in required and field not in optional:
                    rep.error(w, "unknown value for kind '%s' (allowed: %s)" % (kind, ", ".join(required + optional)))
                elif field not in required and kind in kinds and optional is None:
                    rep.warn(w, "field not listed in FORMAT.md for kind '%s'" % kind)
                if check_range(rep, w, obj, VALUE_KEYS, ("base", "low", "high", "source")):
                    check_value_domain(rep, w, field, obj)
            # cross-field sanity
            if category == "switches" and all(
                    isinstance(values.get(f), dict) and is_number(values[f].get("base"))
                    for f in ("capacity_bit_per_s", "ports", "port_bit_per_s")):
                agg = values["ports"]["base"] * values["port_bit_per_s"]["base"]
                if agg > values["capacity_bit_per_s"]["base"] * (1 + 1e-9):
                    rep.error(where(fname, item_id, "ports"), "ports x port_bit_per_s (%g) exceeds capacity_bit_per_s (%g)"
                              % (agg, values["capacity_bit_per_s"]["base"]))
            if category == "racks" and all(
                    isinstance(values.get(f), dict) and is_number(values[f].get("base"))
                    for f in ("power_idle_w", "power_load_w")):
                if values["power_idle_w"]["base"] > values["power_load_w"]["base"]:
                    rep.error(where(fname, item_id, "power_idle_w"), "idle power exceeds load power")
            if category == "models":
                base = {f: o.get("base") for f, o in values.items() if isinstance(o, dict) and is_number(o.get("base"))}
                if "active_params" in base and "model_params" in base and base["active_params"] > base["model_params"]:
                    rep.error(where(fname, item_id, "active_params"), "active parameters exceed the model's parameters")
                if ("experts" in values) != ("active_experts" in values):
                    rep.error(where(fname, item_id, "experts"), "a mixture-of-experts model needs both experts and active_experts")
                elif "experts" in base and "active_experts" in base and base["active_experts"] > base["experts"]:
                    rep.error(where(fname, item_id, "active_experts"), "more active experts than experts")
                if attrs.get("attention") == "mla" and "kv_latent_dim" not in values:
                    rep.error(where(fname, item_id, "kv_latent_dim"), "an MLA model needs its KV latent dimension")

    # attribute references
    for (category, attr), target in ATTRIBUTE_REFERENCES.items():
        for item_id, it in by_category.get(category, {}).items():
            ref = (it.get("attributes") or {}).get(attr)
            if isinstance(ref, str) and ref and ref not in by_category.get(target, {}):
                rep.error(where("catalog/%s.json" % category, item_id, "attributes." + attr),
                          "references '%s', which is not an id in catalog/%s.json" % (ref, target))
    # ids referenced by designs
    for category, need in DESIGN_IDS.items():
        for item_id in need:
            if item_id not in by_category.get(category, {}):
                if item_id in ids:
                    rep.error(where(ids[item_id][0], item_id), "design-referenced id must be in catalog/%s.json"
                              % category)
                else:
                    rep.error(where("catalog/%s.json" % category, item_id),
                              "id referenced by designs is missing")
    return ids


def check_assumptions(rep, path):
    fname = "assumptions.json"
    doc = load_json(rep, path, fname)
    if doc is None:
        return
    if not isinstance(doc, dict) or not isinstance(doc.get("assumptions"), dict):
        rep.error(fname, "top level must be {\"assumptions\": {key: {...}}}")
        return
    entries = doc["assumptions"]
    for key in ASSUMPTION_KEYS:
        if key not in entries:
            rep.error(where(fname, key), "required assumption missing")
    for key, obj in entries.items():
        w = where(fname, key)
        ok = check_range(rep, w, obj, ASSUMPTION_ENTRY_KEYS, ("base", "low", "high", "unit", "source", "estimate"))
        if not isinstance(obj, dict):
            continue
        if "unit" in obj and (not isinstance(obj["unit"], str) or not obj["unit"].strip()):
            rep.error(w, "'unit' must be a non-empty string")
        if ok:
            nums = [obj["low"], obj["base"], obj["high"]]
            if any(x < 0 for x in nums):
                rep.error(w, "must be non-negative")
            if key in ASSUMPTION_FRACTIONS and any(x > 1 for x in nums):
                rep.error(w, "is a fraction and must be within 0..1")


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    data_dir = argv[1] if len(argv) > 1 else os.path.dirname(here)
    rep = Report()
    ids = check_catalog(rep, os.path.join(data_dir, "catalog"))
    check_assumptions(rep, os.path.join(data_dir, "assumptions.json"))
    for line in rep.warnings:
        print(line, file=sys.stderr)
    for line in rep.errors:
        print(line, file=sys.stderr)
    if rep.errors:
        print("check_catalog: %d error(s) in %s" % (len(rep.errors), data_dir), file=sys.stderr)
        return 1
    print("check_catalog: OK (%d catalog items, %d warning(s))" % (len(ids), len(rep.warnings)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
