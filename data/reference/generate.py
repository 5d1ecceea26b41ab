#!/usr/bin/env python3
"""Regenerate and check the ClusterTwin reference architectures in data/reference/.

Usage:  python3 data/reference/generate.py          (regenerates the designs from specs/, then checks them)
        python3 data/reference/generate.py --check  (only checks the files already on disk)
        CTWIN_CLI=path/to/clustertwin-cli ...       (default: build/bin/clustertwin-cli of this checkout)

The designs are laid out by the C++ design generator (cost/design_generator.cpp), the same one behind
`clustertwin-cli new` and File > New from target: each data/reference/specs/NAME.json (data/FORMAT.md section
4) holds the design's brief, its reasoning and sources in "comment" fields, and the entities passed through
(project, assumptions, sites, links, workloads); this script runs `clustertwin-cli new --spec` on each and
writes index.json. The generator reads rack power, liquid fraction and footprint, CDU capacity and footprint,
switch radix and storage write bandwidth per byte from the catalog, so re-run this script after editing
data/catalog/.

The checks below are an independent second reading of the result (Python standard library only): every field
of FORMAT.md section 3 in order, references, geometry (racks in halls, no overlaps, CDUs clear of racks),
loop, feed and building capacities against the catalog, workload GPU counts, fabric reach, link latency and
the expected rack / GPU / spare totals of each design.
"""
import glob
import json
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CATALOG_DIR = os.path.normpath(os.path.join(HERE, "..", "catalog"))
# ------------------------------------------------------------------------------------------------ catalog


def load_catalog():
    files = sorted(glob.glob(os.path.join(CATALOG_DIR, "*.json")))
    if not files:
        sys.exit("generate.py: no catalog in %s (the sizing reads rack, CDU, switch and storage values)"
                 % CATALOG_DIR)
    items = {}
    for f in files:
        with open(f, encoding="utf-8") as fh:
            doc = json.load(fh)
        for it in doc["items"]:
            it = dict(it)
            it["category"] = doc["category"]
            items[it["id"]] = it
    return items


with open(os.path.join(HERE, "..", "assumptions.json"), encoding="utf-8") as _fh:
    DEFAULT_ASSUMPTIONS = json.load(_fh)["assumptions"]
CAT = load_catalog()


def cv(item_id, key, which="base"):
    """A catalog value (base, low or high)."""
    try:
        return CAT[item_id]["values"][key][which]
    except KeyError:
        sys.exit("generate.py: catalog has no %s.%s" % (item_id, key))


TOP_KEYS = ["format", "schema_version", "project", "assumptions", "sites", "buildings", "halls",
            "power_feeds", "cooling_loops", "rows", "racks", "fabrics", "storage_tiers", "links",
            "training_jobs", "inference_services"]

FIELDS = {
    "project": ["id", "name", "description", "sources", "currency", "tco_convention", "build_start"],
    "sites": ["id", "name", "lat_deg", "lon_deg", "electricity_usd_per_kwh", "free_cooling_hours_per_year",
              "land_cost_usd", "climate_location", "grid_interconnect_mw", "grid_interconnect_date",
              "power_oversubscription_ratio"],
    "buildings": ["id", "name", "site", "power_capacity_w", "shell_cost_usd", "pue_pinned", "x_m", "y_m",
                  "width_m", "depth_m", "height_m", "power_topology", "energisation_date",
                  "power_oversubscription_ratio"],
    "halls": ["id", "name", "building", "x_m", "y_m", "width_m", "depth_m", "grid_m", "power_capacity_w",
              "energisation_date", "refresh_policy", "power_oversubscription_ratio"],
    "power_feeds": ["id", "name", "building", "capacity_w", "chain", "power_oversubscription_ratio"],
    "cooling_loops": ["id", "name", "hall", "cdu_type", "cdu_count", "redundancy", "supply_temp_c", "delta_t_k",
                      "plant", "cdus"],
    "rows": ["id", "name", "hall", "x_m", "y_m", "rotation_deg"],
    "racks": ["id", "name", "row", "rack_type", "x_m", "y_m", "rotation_deg", "feed_a", "feed_b", "cooling_loop",
              "spare"],
    "fabrics": ["id", "name", "role", "buildings", "switch", "port_bit_per_s", "planes", "tiers", "breakout",
                "oversubscription", "rail_optimized", "optics_policy", "leaf_placement", "routing", "flows_per_port",
                "collective_efficiency"],
    "storage_tiers": ["id", "name", "type", "building", "capacity_bytes"],
    "links": ["id", "name", "from", "to", "route_factor", "route_length_m", "capacity_bit_per_s", "optic",
              "fiber_lease_usd_per_m_year", "latency_budget_s"],
    "training_jobs": ["id", "name", "model_params", "active_params", "tokens", "precision", "mfu", "gpus", "tp",
                      "pp", "dp", "ep", "checkpoint_bytes_per_param", "storage_tier", "sites", "restart_scope",
                      "async_checkpoint", "in_memory_restore", "global_batch_tokens", "sequence_length", "microbatch_sequences",
                      "virtual_stages", "recomputation", "wan_sync", "layers",
                      "hidden_size", "experts", "active_experts", "failure_rate_preset", "node_failure_rate_per_day",
                      "node_failure_rate_gpus", "failure_rate_classes", "failure_rates_per_hour"],
    "inference_services": ["id", "name", "model_params", "active_params", "layers", "kv_heads", "head_dim",
                           "kv_bytes_per_element", "weight_bytes_per_param", "input_tokens", "output_tokens",
                           "target_tokens_per_s_per_user", "gpus", "disaggregated", "concurrent_sessions",
                           "session_context_tokens", "kv_offload", "precision", "model", "tensor_parallel",
                           "serving_engine", "prefix_cache_hit_rate", "attention_precision",
                           "price_usd_per_m_input_tokens", "price_usd_per_m_cached_input_tokens",
                           "price_usd_per_m_output_tokens", "licence_revenue_share"],
}
ASSUMPTION_FIELDS = ["base", "low", "high", "unit", "source", "estimate"]
def rack_liquid_w(rack_type, which="base"):
    return cv(rack_type, "power_load_w", which) * cv(rack_type, "liquid_fraction", which)


def facility_estimate_w(racks_by_type, cooling_cop=None, chain=None):
    """Facility power estimate for building sizing (not the engine's figure):
    IT x 1.08 for network and optics (estimate), divided by the power chain efficiency (catalog), plus the
    liquid heat / plant COP (catalog), the air heat / 4 (CRAH fans and chilled water, estimate), CDU pumps
    (catalog) and 2 % misc facility load (assumptions.json misc_facility_fraction)."""
    it = liquid = 0.0
    for t, n in racks_by_type.items():
        it += n * cv(t, "power_load_w")
        liquid += n * rack_liquid_w(t)
    air = it - liquid
    eff = 1.0
    for c in chain or []:
        eff *= cv(c, "efficiency")
    cooling = (liquid / cooling_cop if liquid else 0.0) + air / 4.0
    return it * 1.08 / eff + cooling + 0.02 * it, it



def run_generator(pid):
    here_root = os.path.normpath(os.path.join(HERE, "..", ".."))
    cli = os.environ.get("CTWIN_CLI", os.path.join(here_root, "build", "bin", "clustertwin-cli"))
    spec = os.path.join(HERE, "specs", pid + ".json")
    out = os.path.join(HERE, pid + ".json")
    r = subprocess.run([cli, "new", "--spec", spec, "--out", out], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("generate.py: %s failed (%d): %s" % (pid, r.returncode, r.stderr.strip()))


# Designs in File > New from reference order, with the totals each must have.
DESIGNS = [
    ("llama3-16k-h100", dict(racks=1024, gpus=16384, spares=0)),
    ("neocloud-100k-gb200", dict(racks=1418, gpus=102096, spares=28)),
    ("campus-1gw", dict(racks=5000, gpus=360000, spares=100)),
    ("two-site-wan", dict(racks=1000, gpus=72000, spares=20)),
    ("agentic-inference-gb300", dict(racks=294, gpus=21168, spares=6)),
    ("vera-rubin-504", dict(racks=7, gpus=504, spares=0)),
]


# ------------------------------------------------------------------------------------------------ checks


def haversine_m(lat1, lon1, lat2, lon2):
    r = 6371.0088e3
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * r * math.asin(math.sqrt(a))


def inside(x, y, w, d, W, D, eps=1e-6):
    return x >= -eps and y >= -eps and x + w <= W + eps and y + d <= D + eps


def overlap(a, b):
    ax, ay, aw, ad = a
    bx, by, bw, bd = b
    return ax < bx + bw - 1e-6 and bx < ax + aw - 1e-6 and ay < by + bd - 1e-6 and by < ay + ad - 1e-6


def check_design(path, expect=None):
    """Returns a summary dict; raises AssertionError with a message on the first problem."""
    with open(path, encoding="utf-8") as fh:
        d = json.load(fh)
    name = os.path.basename(path)

    def fail(msg):
        raise AssertionError("%s: %s" % (name, msg))

    if list(d.keys()) != TOP_KEYS:
        fail("top-level keys %s" % list(d.keys()))
    if d["format"] != "clustertwin-design" or d["schema_version"] != 2:
        fail("format/schema_version")
    if list(d["project"].keys()) != FIELDS["project"]:
        fail("project fields")
    for k, a in d["assumptions"].items():
        if list(a.keys()) != ASSUMPTION_FIELDS or not a["low"] <= a["base"] <= a["high"]:
            fail("assumption " + k)
    ids = {}
    for kind in TOP_KEYS[4:]:
        for e in d[kind]:
            if list(e.keys()) != FIELDS[kind]:
                fail("%s %s fields %s" % (kind, e.get("id"), list(e.keys())))
            if e["id"] in ids:
                fail("duplicate id " + e["id"])
            if not e["id"] or not e["name"]:
                fail("empty id/name in " + kind)
            ids[e["id"]] = kind

    def ref(kind, v, allow_empty=False, what=""):
        if v == "" and allow_empty:
            return
        if ids.get(v) != kind:
            fail("%s: %r is not a %s" % (what, v, kind))

    def catref(v, category, what):
        if v not in CAT or CAT[v]["category"] != category:
            fail("%s: %r is not a %s catalog id" % (what, v, category))

    by = {k: {e["id"]: e for e in d[k]} for k in TOP_KEYS[4:]}
    for b in d["buildings"]:
        ref("sites", b["site"], what="building " + b["id"])
    for h in d["halls"]:
        ref("buildings", h["building"], what="hall " + h["id"])
        b = by["buildings"][h["building"]]
        if not inside(h["x_m"], h["y_m"], h["width_m"], h["depth_m"], b["width_m"], b["depth_m"]):
            fail("hall %s outside building %s" % (h["id"], b["id"]))
    for f in d["power_feeds"]:
        ref("buildings", f["building"], what="feed " + f["id"])
        for c in f["chain"]:
            catref(c, "power", "feed " + f["id"])
    for l in d["cooling_loops"]:
        ref("halls", l["hall"], what="loop " + l["id"])
        catref(l["cdu_type"], "cooling", "loop " + l["id"])
        catref(l["plant"], "cooling", "loop " + l["id"])
        if len(l["cdus"]) != l["cdu_count"]:
            fail("loop %s: %d CDU positions for cdu_count %d" % (l["id"], len(l["cdus"]), l["cdu_count"]))
    for r in d["rows"]:
        ref("halls", r["hall"], what="row " + r["id"])
    for r in d["racks"]:
        ref("rows", r["row"], what="rack " + r["id"])
        catref(r["rack_type"], "racks", "rack " + r["id"])
        ref("power_feeds", r["feed_a"], True, "rack %s feed_a" % r["id"])
        ref("power_feeds", r["feed_b"], True, "rack %s feed_b" % r["id"])
        ref("cooling_loops", r["cooling_loop"], True, "rack %s cooling_loop" % r["id"])
        if not r["feed_a"]:
            fail("rack %s has no feed A" % r["id"])
    for f in d["fabrics"]:
        for b in f["buildings"]:
            ref("buildings", b, what="fabric " + f["id"])
        catref(f["switch"], "switches", "fabric " + f["id"])
        if len(f["oversubscription"]) != f["tiers"] - 1:
            fail("fabric %s: oversubscription length" % f["id"])
    for s in d["storage_tiers"]:
        catref(s["type"], "storage", "storage " + s["id"])
        ref("buildings", s["building"], what="storage " + s["id"])
    for l in d["links"]:
        for end in (l["from"], l["to"]):
            if ids.get(end) not in ("sites", "buildings"):
                fail("link %s end %r" % (l["id"], end))
        catref(l["optic"], "wan", "link " + l["id"])
    for j in d["training_jobs"]:
        ref("storage_tiers", j["storage_tier"], True, "job " + j["id"])
        for s in j["sites"]:
            ref("sites", s, what="job " + j["id"])

    # Geometry: racks in halls, no overlaps, CDUs in halls and clear of racks, rows consistent.
    hall_of_rack = {}
    rects = {}
    for r in d["racks"]:
        row = by["rows"][r["row"]]
        h = by["halls"][row["hall"]]
        w, dep = cv(r["rack_type"], "width_m"), cv(r["rack_type"], "depth_m")
        if not inside(r["x_m"], r["y_m"], w, dep, h["width_m"], h["depth_m"]):
            fail("rack %s outside hall %s" % (r["id"], h["id"]))
        # centre interpretation too
        if not inside(r["x_m"] - w / 2, r["y_m"] - dep / 2, w, dep, h["width_m"], h["depth_m"]):
            fail("rack %s outside hall %s if x,y is the centre" % (r["id"], h["id"]))
        hall_of_rack[r["id"]] = h["id"]
        rects.setdefault(h["id"], []).append((r["x_m"], r["y_m"], w, dep))
        if r["cooling_loop"]:
            if by["cooling_loops"][r["cooling_loop"]]["hall"] != h["id"]:
                fail("rack %s served by a loop of another hall" % r["id"])
        elif cv(r["rack_type"], "liquid_fraction") > 0:
            fail("liquid rack %s has no cooling loop" % r["id"])
        hb = h["building"]
        for fk in ("feed_a", "feed_b"):
            if r[fk] and by["power_feeds"][r[fk]]["building"] != hb:
                fail("rack %s %s in another building" % (r["id"], fk))
        if r["feed_a"] == r["feed_b"]:
            fail("rack %s: feed A = feed B" % r["id"])
    for hid, rs in rects.items():
        rs = sorted(rs)
        for i in range(len(rs)):
            for j in range(i + 1, min(i + 40, len(rs))):
                if overlap(rs[i], rs[j]):
                    fail("racks overlap in hall " + hid)
    for l in d["cooling_loops"]:
        h = by["halls"][l["hall"]]
        cw, cd = cv(l["cdu_type"], "width_m"), cv(l["cdu_type"], "depth_m")
        for p in l["cdus"]:
            if not inside(p["x_m"], p["y_m"], cw, cd, h["width_m"], h["depth_m"]):
                fail("CDU of %s outside hall" % l["id"])
            for rr in rects.get(h["id"], []):
                if overlap((p["x_m"], p["y_m"], cw, cd), rr):
                    fail("CDU of %s overlaps a rack" % l["id"])
    # Buildings on each site do not overlap.
    for s in d["sites"]:
        bs = [(b["x_m"], b["y_m"], b["width_m"], b["depth_m"]) for b in d["buildings"] if b["site"] == s["id"]]
        for i in range(len(bs)):
            if bs[i][0] < 0 or bs[i][1] < 0:
                fail("building at negative campus position")
            for j in range(i + 1, len(bs)):
                if overlap(bs[i], bs[j]):
                    fail("buildings overlap on " + s["id"])
    # Halls in a building do not overlap.
    for b in d["buildings"]:
        hs = [(h["x_m"], h["y_m"], h["width_m"], h["depth_m"]) for h in d["halls"] if h["building"] == b["id"]]
        for i in range(len(hs)):
            for j in range(i + 1, len(hs)):
                if overlap(hs[i], hs[j]):
                    fail("halls overlap in " + b["id"])

    # Capacities: loops, feeds, buildings.
    loop_racks = {}
    feed_load = {}
    bld_racks = {}
    for r in d["racks"]:
        t = r["rack_type"]
        if r["cooling_loop"]:
            loop_racks.setdefault(r["cooling_loop"], []).append(t)
        for fk in ("feed_a", "feed_b"):
            if r[fk]:
                feed_load.setdefault(r[fk], [0.0, 0.0])
                feed_load[r[fk]][0] += cv(t, "power_load_w")
                feed_load[r[fk]][1] += cv(t, "power_load_w", "high")
        b = by["halls"][hall_of_rack[r["id"]]]["building"]
        bld_racks.setdefault(b, {}).setdefault(t, 0)
        bld_racks[b][t] += 1
    for lid, ts in loop_racks.items():
        l = by["cooling_loops"][lid]
        cap = cv(l["cdu_type"], "capacity_w")
        n = {"N": l["cdu_count"], "N+1": l["cdu_count"] - 1, "2N": l["cdu_count"] // 2}[l["redundancy"]]
        base = sum(rack_liquid_w(t) for t in ts)
        high = sum(rack_liquid_w(t, "high") for t in ts)
        if base > n * cap or high > n * cap:
            fail("loop %s: liquid heat %.2f MW (high %.2f) > %d x %.1f MW" % (lid, base / 1e6, high / 1e6, n,
                                                                                cap / 1e6))
    for fid, (base, high) in feed_load.items():
        if high > by["power_feeds"][fid]["capacity_w"]:
            fail("feed %s overloaded" % fid)
    bld_summary = []
    for b in d["buildings"]:
        rbt = bld_racks.get(b["id"], {})
        loops = [l for l in d["cooling_loops"] if by["halls"][l["hall"]]["building"] == b["id"]]
        cop = min((cv(l["plant"], "cop") for l in loops), default=None)
        chain = next((f["chain"] for f in d["power_feeds"] if f["building"] == b["id"]), [])
        est, it = facility_estimate_w(rbt, cop, chain)
        est += sum(l["cdu_count"] * cv(l["cdu_type"], "pump_power_w") for l in loops)
        if est > b["power_capacity_w"]:
            fail("building %s: facility estimate %.1f MW > capacity %.1f MW" % (b["id"], est / 1e6,
                                                                               b["power_capacity_w"] / 1e6))
        bld_summary.append((b["id"], it, est, b["power_capacity_w"]))

    # GPU totals and workloads (compute racks; network racks hold the row leaves).
    compute = [r for r in d["racks"] if CAT[r["rack_type"]]["kind"] == "compute"]
    network_racks = len(d["racks"]) - len(compute)
    gpus = sum(cv(r["rack_type"], "gpus") for r in compute)
    spare_racks = sum(1 for r in compute if r["spare"])
    site_gpus = {}
    for r in compute:
        if r["spare"]:
            continue
        s = by["buildings"][by["halls"][hall_of_rack[r["id"]]]["building"]]["site"]
        site_gpus[s] = site_gpus.get(s, 0) + cv(r["rack_type"], "gpus")
    for j in d["training_jobs"]:
        if j["tp"] * j["pp"] * j["dp"] != j["gpus"]:
            fail("job %s: tp x pp x dp != gpus" % j["id"])
        if j["dp"] % j["ep"]:
            fail("job %s: ep does not divide dp" % j["id"])
        avail = sum(site_gpus.get(s, 0) for s in j["sites"])
        if j["gpus"] > avail:
            fail("job %s: %d GPUs > %d non-spare GPUs on its sites" % (j["id"], j["gpus"], avail))
    used = sum(j["gpus"] for j in d["training_jobs"]) + sum(s["gpus"] for s in d["inference_services"])
    if used > sum(site_gpus.values()):
        fail("workloads use %d GPUs > %d non-spare" % (used, sum(site_gpus.values())))
    # Fabric reach per plane.
    for f in d["fabrics"]:
        bset = set(f["buildings"]) or set(by["buildings"])
        eps = 0.0
        for r in compute:
            if by["halls"][hall_of_rack[r["id"]]]["building"] not in bset:
                continue
            t = r["rack_type"]
            if f["role"] == "backend":
                eps += cv(t, "backend_nics") * cv(t, "backend_nic_bit_per_s") / (f["planes"] * f["port_bit_per_s"])
            else:
                eps += cv(t, "frontend_nics") * cv(t, "frontend_nic_bit_per_s") / (f["planes"] * f["port_bit_per_s"])
        sw = f["switch"]
        if abs(cv(sw, "port_bit_per_s") - f["port_bit_per_s"] * f["breakout"]) > 1:
            fail("fabric %s: port_bit_per_s x breakout != switch port speed" % f["id"])
        k = cv(sw, "ports") * f["breakout"]
        limit = {1: k, 2: k * k / 2, 3: k ** 3 / 4}[f["tiers"]]
        if eps > limit:
            fail("fabric %s: %d endpoints per plane > %d for %d tiers" % (f["id"], eps, limit, f["tiers"]))
        if f["tiers"] > 1 and f["rail_optimized"]:  # ToR leaves (one per rack) may need more tiers
            lower = {2: k, 3: k * k / 2}[f["tiers"]]
            if eps <= lower:
                fail("fabric %s: fits in fewer tiers" % f["id"])
    # Links: latency.
    link_info = []
    for l in d["links"]:
        def ll(x):
            if ids[x] == "sites":
                s = by["sites"][x]
            else:
                s = by["sites"][by["buildings"][x]["site"]]
            return s["lat_deg"], s["lon_deg"]
        gc = haversine_m(*ll(l["from"]), *ll(l["to"]))
        # Schema 2: absent (null) route length = great circle x route factor (the link's, else the
        # design's or shipped route_factor assumption); absent latency budget = no budget.
        factor = l["route_factor"]
        if factor is None:
            factor = d["assumptions"].get("route_factor", DEFAULT_ASSUMPTIONS["route_factor"])["base"]
        route = l["route_length_m"] if l["route_length_m"] is not None else gc * factor
        if route < gc * (1 - 1e-6):
            fail("link %s: route %.0f km shorter than the great circle %.0f km" % (l["id"], route / 1e3, gc / 1e3))
        lat = route / 1000 * 4.9e-6
        if l["latency_budget_s"] is not None and lat > l["latency_budget_s"]:
            fail("link %s: one-way latency %.1f ms > budget" % (l["id"], lat * 1e3))
        link_info.append((l["id"], gc, route, lat))
    if expect:
        if len(compute) != expect["racks"] or gpus != expect["gpus"] or spare_racks != expect["spares"]:
            fail("totals racks %d gpus %d spares %d, expected %s" % (len(compute), gpus, spare_racks, expect))
        if network_racks != len(d["rows"]):
            fail("%d network racks for %d rows (one at the start of every row)" % (network_racks, len(d["rows"])))
    it = sum(cv(r["rack_type"], "power_load_w") for r in d["racks"])
    return dict(file=name, racks=len(compute), network_racks=network_racks, gpus=gpus, spares=spare_racks, buildings=len(d["buildings"]),
                sites=len(d["sites"]), it_w=it, bld=bld_summary, links=link_info,
                cdus=sum(l["cdu_count"] for l in d["cooling_loops"]),
                storage={s["id"]: s["capacity_bytes"] for s in d["storage_tiers"]})


# ------------------------------------------------------------------------------------------------ main

# One line each for File > New from reference (data/reference/index.json).
SUMMARIES = {
    "llama3-16k-h100": "Meta's Llama 3 405B cluster: 16,384 air-cooled H100 in 1,024 racks, 400G RoCE, "
                       "3,072-GPU pods with 1:7 aggregation; the reliability calibration case.",
    "neocloud-100k-gb200": "100K-GPU GB200 NVL72 neocloud: 1,390 racks + 28 hot spares in 4 buildings, "
                           "warm-water dry coolers, 4-plane 2-tier 800G back-end, 1.8T MoE training job.",
    "campus-1gw": "1 GW campus: 5 x 200 MW buildings, 5,000 GB300 NVL72 racks (360K GPUs), cooling towers, "
                  "one 4-plane 3-tier back-end, a 10T MoE training run and 1T MoE serving.",
    "two-site-wan": "Two GB200 sites ~1,390 km of fiber apart (Wisconsin - Atlanta, Fairwater-like), 72K GPUs, "
                    "160 Tb/s AI WAN, one data-parallel training job across both sites.",
    "agentic-inference-gb300": "Agentic inference on 288 GB300 NVL72 racks (+6 spares): Kimi K2 agents with "
                               "100K-token sessions and Qwen3-Coder sub-agents, disaggregated, KV offload.",
    "vera-rubin-504": "504 Vera Rubin GPUs (7 NVL72 racks) across three US regions, 1.6T per GPU as 2 x 800G "
                      "planes, inter-region links, a 70B training job and 405B serving.",
}


def main():
    check_only = "--check" in sys.argv[1:]
    index = []
    expects = {}
    for pid, expect in DESIGNS:
        fname = pid + ".json"
        expects[fname] = expect
        if not check_only:
            run_generator(pid)
        with open(os.path.join(HERE, fname), encoding="utf-8") as fh:
            name = json.load(fh)["project"]["name"]
        index.append({"file": fname, "name": name, "summary": SUMMARIES[pid]})
    if not check_only:
        with open(os.path.join(HERE, "index.json"), "w", encoding="utf-8", newline="\n") as fh:
            fh.write(json.dumps(index, indent=2, ensure_ascii=False) + "\n")
    with open(os.path.join(HERE, "index.json"), encoding="utf-8") as fh:
        idx = json.load(fh)
    assert [e["file"] for e in idx] == list(expects), "index.json out of date"
    for fname, expect in expects.items():
        s = check_design(os.path.join(HERE, fname), expect)
        print("%-30s racks %5d (spares %3d)  GPUs %7d  buildings %d  sites %d  IT %7.1f MW  CDUs %d" % (
            s["file"], s["racks"], s["spares"], s["gpus"], s["buildings"], s["sites"], s["it_w"] / 1e6,
            s["cdus"]))
        for bid, it, est, cap in s["bld"]:
            print("    building %-8s IT %6.1f MW  facility est %6.1f MW  capacity %6.1f MW" % (
                bid, it / 1e6, est / 1e6, cap / 1e6))
        for lid, gc, route, lat in s["links"]:
            print("    link %-18s great circle %6.0f km  route %6.0f km  one-way %.2f ms" % (
                lid, gc / 1e3, route / 1e3, lat * 1e3))
        for sid, cap in s["storage"].items():
            print("    storage %-14s %.1f PB" % (sid, cap / 1e15))
    print("all checks passed")


if __name__ == "__main__":
    main()
