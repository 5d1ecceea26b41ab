#!/usr/bin/env python3
"""Generate the ClusterTwin reference architectures in data/reference/.

Usage:  python3 data/reference/generate.py          (writes the designs and index.json, then checks them)
        python3 data/reference/generate.py --check  (only checks the files already on disk)

Python 3 standard library only, deterministic: the output depends only on this file and on the catalog in
data/catalog/ (rack power, liquid fraction and footprint, CDU capacity and footprint, switch radix and
storage write bandwidth per byte are read from it, so CDU counts, feed capacities, building capacities and
storage capacities follow the catalog when it changes; re-run this script after editing the catalog).

The designs follow data/FORMAT.md section 3 (the design interchange format). Every entity carries every
field listed there, in that order; "not set" is 0 / "" / [] / false.

Layout conventions used here (FORMAT.md leaves them to the writer):
  * A rack's x_m, y_m is the corner of its footprint with the smallest hall coordinates; racks in a row
    stand side by side along +x at the rack width (0.6 m); rows step along +y at (rack depth + aisle).
    Aisles are 1.2 m for the air-cooled HGX halls and 1.8 m for the liquid-cooled NVL72 halls.
    Rows alternate rotation 0 / 180 degrees so that pairs of rows face each other across a shared aisle
    (hot/cold aisle containment). Every hall keeps >= 3 m of clear perimeter, so the racks are also inside
    the hall if a reader takes x_m, y_m as the footprint centre.
  * A row's x_m, y_m is the position of its first rack.
  * CDUs stand at the row ends (0.6 m from the first/last rack), in the hall's perimeter zone or in the
    cross aisle between two row blocks, so they never collide with racks.
  * A "column" is a block of rows side by side in y; halls hold 1-2 columns separated by a cross aisle.
    Each column of a liquid hall is one cooling loop (one CDU group) so that a loop failure takes down a
    contiguous block of racks (the engine's blast radius follows the layout).
  * Halls sit side by side in x inside their building, with 6 m corridors, a 6 m wall zone at both ends,
    an electrical gallery on the -y side and a mechanical gallery on the +y side, each 14 m deep or
    0.2 m per MW of IT in the building, whichever is larger (estimate).
  * Air-cooled halls keep a 2 m fan-wall / CRAH zone at both row ends besides the 3 m perimeter.
  * Buildings sit on the campus in a grid (at most 3 per row) with 40 m between them.
  * Every compute rack has an A and a B feed (2N) per hall, each feed sized for the whole hall at the
    catalog's high rack power, except where the description says single-corded.

Sizing rules:
  * CDUs per loop, "N": enough for the loop's liquid heat at base rack power with 10 % headroom, and at the
    catalog's high rack power and high liquid fraction without headroom; "N+1" adds one.
  * Building power_capacity_w is facility power (IT + network + cooling + losses), the estimate in
    facility_estimate_w() times 1.1, rounded up; the campus design pins 200 MW per building as its brief
    says and the check asserts the estimate fits.
  * Storage: capacity = target aggregate write bandwidth / catalog write_bytes_per_s_per_byte.

Sources: /work/shared/REFERENCES.md (cited as "REFERENCES.md: <section>"), the two seed texts
(seeds/000_35911ba9b3ccb238.txt, a conference agenda: Llama 3 interruptions, agentic inference, Prometheus
1 GW, Fairwater Wisconsin-Atlanta ~700 miles, 100K-GPU neocloud designs; seeds/003_c4a41e1c648e8f9b.txt, an
industry article: CoreWeave's 504-GPU Vera Rubin NVL72 deployment across regions, ConnectX-9, 1.6 Tb/s per
GPU on a two-tier non-blocking fabric, 7 GB/s per GPU storage), and public model cards named per design.
Where a figure is the author's estimate the comment says so.
"""
import glob
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CATALOG_DIR = os.path.normpath(os.path.join(HERE, "..", "catalog"))

SEED_AGENDA = "seeds/000_35911ba9b3ccb238.txt (Digital Infrastructure World 2027 Cluster track agenda)"
SEED_VR = "seeds/003_c4a41e1c648e8f9b.txt (industry article on multi-rack AI clusters; CoreWeave Vera Rubin case)"

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


CAT = load_catalog()


def cv(item_id, key, which="base"):
    """A catalog value (base, low or high)."""
    try:
        return CAT[item_id]["values"][key][which]
    except KeyError:
        sys.exit("generate.py: catalog has no %s.%s" % (item_id, key))


def ceil_to(x, step):
    return math.ceil(x / step - 1e-9) * step


def r3(x):
    """Millimetre precision for positions and sizes."""
    return round(x + 0.0, 3)


# Field types of FORMAT.md section 3: these keys are whole numbers, every other numeric field is a double.
INTEGER_KEYS = {"schema_version", "cdu_count", "planes", "tiers", "breakout", "tp", "pp", "dp", "ep",
                "layers", "kv_heads", "head_dim"}

TOP_KEYS = ["format", "schema_version", "project", "assumptions", "sites", "buildings", "halls",
            "power_feeds", "cooling_loops", "rows", "racks", "fabrics", "storage_tiers", "links",
            "training_jobs", "inference_services"]

FIELDS = {
    "project": ["id", "name", "description", "sources", "currency"],
    "sites": ["id", "name", "lat_deg", "lon_deg", "electricity_usd_per_kwh", "free_cooling_hours_per_year",
              "land_cost_usd"],
    "buildings": ["id", "name", "site", "power_capacity_w", "shell_cost_usd", "pue_pinned", "x_m", "y_m",
                  "width_m", "depth_m", "height_m"],
    "halls": ["id", "name", "building", "x_m", "y_m", "width_m", "depth_m", "grid_m"],
    "power_feeds": ["id", "name", "building", "capacity_w", "chain"],
    "cooling_loops": ["id", "name", "hall", "cdu_type", "cdu_count", "redundancy", "supply_temp_c", "delta_t_k",
                      "plant", "cdus"],
    "rows": ["id", "name", "hall", "x_m", "y_m", "rotation_deg"],
    "racks": ["id", "name", "row", "rack_type", "x_m", "y_m", "rotation_deg", "feed_a", "feed_b", "cooling_loop",
              "spare"],
    "fabrics": ["id", "name", "role", "buildings", "switch", "port_bit_per_s", "planes", "tiers", "breakout",
                "oversubscription", "rail_optimized", "optics_policy"],
    "storage_tiers": ["id", "name", "type", "building", "capacity_bytes"],
    "links": ["id", "name", "from", "to", "route_factor", "route_length_m", "capacity_bit_per_s", "optic",
              "fiber_lease_usd_per_m_year", "latency_budget_s"],
    "training_jobs": ["id", "name", "model_params", "active_params", "tokens", "precision", "mfu", "gpus", "tp",
                      "pp", "dp", "ep", "checkpoint_bytes_per_param", "storage_tier", "sites", "restart_scope",
                      "async_checkpoint"],
    "inference_services": ["id", "name", "model_params", "active_params", "layers", "kv_heads", "head_dim",
                           "kv_bytes_per_element", "weight_bytes_per_param", "input_tokens", "output_tokens",
                           "target_tokens_per_s_per_user", "gpus", "disaggregated", "concurrent_sessions",
                           "session_context_tokens", "kv_offload", "precision"],
}
ASSUMPTION_FIELDS = ["base", "low", "high", "unit", "source", "estimate"]


def typed(key, v):
    """Whole numbers for integer fields, doubles for every other number (as the C++ writer emits them)."""
    if isinstance(v, bool) or isinstance(v, str):
        return v
    if isinstance(v, (int, float)):
        if key in INTEGER_KEYS:
            assert float(v) == int(v), (key, v)
            return int(v)
        return float(v)
    if isinstance(v, list):
        return [typed(key, e) if not isinstance(e, dict) else {k: typed(k, x) for k, x in e.items()} for e in v]
    return v


def entity(kind, **kw):
    missing = [f for f in FIELDS[kind] if f not in kw]
    extra = [f for f in kw if f not in FIELDS[kind]]
    assert not missing and not extra, (kind, missing, extra)
    return {f: typed(f, kw[f]) for f in FIELDS[kind]}


# ------------------------------------------------------------------------------------------------ layout

RACK_AISLE_AIR_M = 1.2
RACK_AISLE_LIQUID_M = 1.8
HALL_CLEAR_M = 3.0  # perimeter walkway
CDU_GAP_M = 0.6  # between a row end and its CDU
AIR_HANDLER_ZONE_M = 2.0  # fan walls / CRAH units at the row ends of air-cooled halls (estimate)
WALKWAY_M = 2.4  # clear walkway in a cross aisle besides the CDUs
BLDG_WALL_X_M = 6.0
BLDG_CORRIDOR_M = 6.0
BLDG_ELEC_M = 14.0
BLDG_MECH_M = 14.0
CAMPUS_GAP_M = 40.0
CAMPUS_ORIGIN_M = 50.0

# Design headroom used for CDU counts (loads at most 90 % of N x capacity at base rack power).
CDU_HEADROOM = 0.9


class HallPlan:
    """A hall: columns of rows of racks of one rack type, spares spread evenly, loops per column."""

    def __init__(self, hid, name, rack_type, columns, spares, cooling=None, single_corded=False, chain=None):
        self.id = hid
        self.name = name
        self.rack_type = rack_type
        self.columns = columns  # list of columns, each a list of row lengths (racks per row)
        self.spares = spares
        self.cooling = cooling  # None (air) or dict(cdu_type, redundancy, supply_temp_c, delta_t_k, plant)
        self.single_corded = single_corded
        self.chain = chain
        self.n_racks = sum(sum(c) for c in columns)
        self.rw = cv(rack_type, "width_m")
        self.rd = cv(rack_type, "depth_m")
        # Rows are laid out on a 1.2 m row depth even where the catalog rack is shallower (1.068 m NVL72).
        self.row_depth = max(1.2, self.rd)
        self.aisle = RACK_AISLE_LIQUID_M if cooling else RACK_AISLE_AIR_M
        self.pitch = self.row_depth + self.aisle
        if cooling:
            self.cdu_w = cv(cooling["cdu_type"], "width_m")
            self.cdu_d = cv(cooling["cdu_type"], "depth_m")
            self.end_zone = CDU_GAP_M + self.cdu_w
        else:
            self.cdu_w = self.cdu_d = 0.0
            self.end_zone = 0.0
        # Air halls keep a fan-wall / CRAH gallery at both ends of the rows instead of CDUs.
        self.margin_x = HALL_CLEAR_M + (self.end_zone if cooling else AIR_HANDLER_ZONE_M)
        self.margin_y = HALL_CLEAR_M
        self.cross = 2 * self.end_zone + (WALKWAY_M if cooling else HALL_CLEAR_M)
        self.col_len = [max(c) * self.rw for c in columns]
        max_rows = max(len(c) for c in columns)
        self.width = math.ceil(2 * self.margin_x + sum(self.col_len) + (len(columns) - 1) * self.cross)
        self.depth = math.ceil(2 * self.margin_y + max_rows * self.pitch - self.aisle)


def even_split(n, k):
    """n items over k bins, sizes differing by at most one, larger bins first."""
    q, r = divmod(n, k)
    return [q + 1 if i < r else q for i in range(k)]


def spread(n_total, n_pick):
    """Indices of n_pick items spread evenly over n_total (deterministic)."""
    if n_pick <= 0:
        return set()
    return {((2 * i + 1) * n_total) // (2 * n_pick) for i in range(n_pick)}


def rack_liquid_w(rack_type, which="base"):
    return cv(rack_type, "power_load_w", which) * cv(rack_type, "liquid_fraction", which)


def cdus_needed(rack_type, n_racks, cdu_type, redundancy):
    cap = cv(cdu_type, "capacity_w")
    base = n_racks * rack_liquid_w(rack_type, "base")
    high = n_racks * rack_liquid_w(rack_type, "high")
    n = max(1, math.ceil(base / (cap * CDU_HEADROOM) - 1e-9), math.ceil(high / cap - 1e-9))
    return {"N": n, "N+1": n + 1, "2N": 2 * n}[redundancy], n


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


class Doc:
    def __init__(self, pid, name, description, sources):
        self.project = entity("project", id=pid, name=name, description=description, sources=sources,
                              currency="USD")
        self.assumptions = {}
        self.col = {k: [] for k in TOP_KEYS[4:]}
        self.building_plans = []

    def add(self, kind, **kw):
        e = entity(kind, **kw)
        self.col[kind].append(e)
        return e

    def site(self, **kw):
        return self.add("sites", **kw)

    def building(self, bid, name, site, halls, height_m=15.0, power_capacity_w=None, pue_pinned=0.0):
        """Place halls side by side, size the building around them, emit halls, rows, racks, loops, feeds.
        Its campus position is assigned later by place_buildings()."""
        width = 2 * BLDG_WALL_X_M + sum(h.width for h in halls) + BLDG_CORRIDOR_M * (len(halls) - 1)
        # Electrical and mechanical galleries grow with the IT load they serve (0.2 m per MW, estimate).
        it_mw = sum(h.n_racks * cv(h.rack_type, "power_load_w") for h in halls) / 1e6
        gallery = max(BLDG_ELEC_M, math.ceil(0.2 * it_mw))
        depth = 2 * gallery + max(h.depth for h in halls)
        b = self.add("buildings", id=bid, name=name, site=site, power_capacity_w=0, shell_cost_usd=0,
                     pue_pinned=pue_pinned, x_m=0, y_m=0, width_m=width, depth_m=depth, height_m=height_m)
        x = BLDG_WALL_X_M
        racks_by_type = {}
        cops = set()
        chains = []
        for h in halls:
            self.hall(b, h, x, gallery)
            x += h.width + BLDG_CORRIDOR_M
            racks_by_type[h.rack_type] = racks_by_type.get(h.rack_type, 0) + h.n_racks
            if h.cooling:
                cops.add(cv(h.cooling["plant"], "cop"))
            chains.append(h.chain)
        est, it = facility_estimate_w(racks_by_type, min(cops) if cops else None, chains[0])
        pumps = sum(l["cdu_count"] * cv(l["cdu_type"], "pump_power_w") for l in self.col["cooling_loops"]
                    if any(l["hall"] == h.id for h in halls))
        est += pumps
        step = 5e6 if est > 20e6 else (1e6 if est > 2e6 else 0.25e6)
        b["power_capacity_w"] = float(power_capacity_w if power_capacity_w else ceil_to(est * 1.1, step))
        self.building_plans.append((b, est, it))
        return b

    def hall(self, b, h, x0, y0):
        self.add("halls", id=h.id, name=h.name, building=b["id"], x_m=x0, y_m=y0, width_m=h.width,
                 depth_m=h.depth, grid_m=0.6)
        chain = h.chain
        hi = h.n_racks * cv(h.rack_type, "power_load_w", "high")
        base = h.n_racks * cv(h.rack_type, "power_load_w")
        step = 0.5e6 if base > 2e6 else 0.05e6
        cap = ceil_to(max(hi, 1.1 * base), step)
        fa = self.add("power_feeds", id=h.id + "-feed-a", name=h.name + " feed A", building=b["id"],
                      capacity_w=cap, chain=chain)["id"]
        fb = ""
        if not h.single_corded:
            fb = self.add("power_feeds", id=h.id + "-feed-b", name=h.name + " feed B", building=b["id"],
                          capacity_w=cap, chain=chain)["id"]
        spares = spread(h.n_racks, h.spares)
        ordinal = 0
        x = h.margin_x
        for ci, col in enumerate(h.columns):
            letter = "ABCDEFGH"[ci]
            loop_id = ""
            if h.cooling:
                n_cdu, _ = cdus_needed(h.rack_type, sum(col), h.cooling["cdu_type"], h.cooling["redundancy"])
                ends = []
                for ri, n in enumerate(col):
                    y = h.margin_y + ri * h.pitch
                    ends.append((x - CDU_GAP_M - h.cdu_w, y))  # west end of the row
                    ends.append((x + n * h.rw + CDU_GAP_M, y))  # east end of the row
                assert n_cdu <= len(ends), (h.id, n_cdu, len(ends))
                pick = sorted(spread(len(ends), n_cdu))
                loop_id = "%s-loop-%s" % (h.id, letter.lower())
                self.add("cooling_loops", id=loop_id, name="%s loop %s" % (h.name, letter), hall=h.id,
                         cdu_type=h.cooling["cdu_type"], cdu_count=n_cdu, redundancy=h.cooling["redundancy"],
                         supply_temp_c=h.cooling["supply_temp_c"], delta_t_k=h.cooling["delta_t_k"],
                         plant=h.cooling["plant"],
                         cdus=[{"x_m": r3(ends[i][0]), "y_m": r3(ends[i][1])} for i in pick])
            for ri, n in enumerate(col):
                y = h.margin_y + ri * h.pitch
                rot = 0.0 if ri % 2 == 0 else 180.0
                row_id = "%s-%s%02d" % (h.id, letter, ri + 1)
                self.add("rows", id=row_id, name="%s row %s%02d" % (h.name, letter, ri + 1), hall=h.id,
                         x_m=r3(x), y_m=r3(y), rotation_deg=rot)
                for k in range(n):
                    self.add("racks", id="%s-%02d" % (row_id, k + 1),
                             name="%s%02d-%02d" % (letter, ri + 1, k + 1), row=row_id, rack_type=h.rack_type,
                             x_m=r3(x + k * h.rw), y_m=r3(y), rotation_deg=rot, feed_a=fa, feed_b=fb,
                             cooling_loop=loop_id, spare=ordinal in spares)
                    ordinal += 1
            x += h.col_len[ci] + h.cross

    def place_buildings(self):
        """Grid of at most 3 buildings per row per site, 40 m apart."""
        by_site = {}
        for b in self.col["buildings"]:
            by_site.setdefault(b["site"], []).append(b)
        for bs in by_site.values():
            pitch_x = max(b["width_m"] for b in bs) + CAMPUS_GAP_M
            pitch_y = max(b["depth_m"] for b in bs) + CAMPUS_GAP_M
            for i, b in enumerate(bs):
                b["x_m"] = float(CAMPUS_ORIGIN_M + (i % 3) * pitch_x)
                b["y_m"] = float(CAMPUS_ORIGIN_M + (i // 3) * pitch_y)

    def write(self, path):
        self.place_buildings()
        # A single-site design states its tariff as the design's electricity assumption (site field 0 =
        # "use the assumption"), so sensitivity and sweeps of the electricity price act on it. Multi-site
        # designs keep per-site tariffs, which differ by site.
        sites = self.col["sites"]
        if len(sites) == 1 and sites[0]["electricity_usd_per_kwh"] > 0:
            price = sites[0]["electricity_usd_per_kwh"]
            self.assumptions["electricity_usd_per_kwh"] = assumption(
                price, min(0.04, price), max(0.10, price), "USD/kWh",
                "Tariff of " + sites[0]["name"] + " (estimate); range REFERENCES.md: US industrial $0.04-0.10/kWh",
                True)
            sites[0]["electricity_usd_per_kwh"] = 0.0
        top = {"format": "clustertwin-design", "schema_version": 1, "project": self.project,
               "assumptions": self.assumptions}
        top.update(self.col)
        with open(path, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(dump_design(top))


def dump_design(top):
    """2-space indented JSON with one entity per line in the entity arrays (keeps 14,000-rack files small)."""
    out = ["{"]
    keys = list(top.keys())
    assert keys == TOP_KEYS, keys
    for i, k in enumerate(keys):
        v = top[k]
        comma = "," if i < len(keys) - 1 else ""
        if isinstance(v, list) and v:
            lines = ["    " + json.dumps(e, ensure_ascii=False) for e in v]
            out.append('  "%s": [\n%s\n  ]%s' % (k, ",\n".join(lines), comma))
        else:
            text = json.dumps(v, indent=2, ensure_ascii=False).replace("\n", "\n  ")
            out.append('  "%s": %s%s' % (k, text, comma))
    out.append("}")
    return "\n".join(out) + "\n"


def chain_std(genset=True):
    """Utility MV transformer, (generator on the LV bus), LV switchgear, static UPS, row busway."""
    return ["xfmr-mv"] + (["genset"] if genset else []) + ["switchgear-lv", "ups-static", "busway-row"]


def frontend_fabric(doc, fid, rack_type, n_racks, buildings=None):
    """Front-end (north-south, storage, management) network, one port per front-end NIC at the catalog's
    front-end NIC rate, 3:1 oversubscribed at the leaf (estimate, usual for front-end networks); switch and
    tiers chosen as the smallest that hold the endpoints."""
    rate = cv(rack_type, "frontend_nic_bit_per_s")
    endpoints = n_racks * cv(rack_type, "frontend_nics")
    for sw in ("sw-51t", "sw-102t"):
        breakout = int(cv(sw, "port_bit_per_s") // rate)
        k = cv(sw, "ports") * breakout
        if endpoints <= k:
            tiers, over = 1, []
            break
        # One leaf per rack (ToR): two tiers also need every leaf to fit on a spine port (racks <= k).
        if endpoints <= k * k / 2 and n_racks <= k:
            tiers, over = 2, [3.0]
            break
    else:
        sw, breakout = "sw-51t", int(cv("sw-51t", "port_bit_per_s") // rate)
        tiers, over = 3, [3.0, 1.0]
    return doc.add("fabrics", id=fid, name="Front-end network", role="frontend", buildings=buildings or [],
                   switch=sw, port_bit_per_s=rate, planes=1, tiers=tiers, breakout=breakout,
                   oversubscription=over, rail_optimized=False, optics_policy="standard")


def pfs_capacity_for(write_bytes_per_s, kind="pfs-flash", step=1e15):
    """Capacity whose aggregate write bandwidth (catalog write_bytes_per_s_per_byte x capacity) meets the
    target; rounded up to whole petabytes."""
    return ceil_to(write_bytes_per_s / cv(kind, "write_bytes_per_s_per_byte"), step)


def assumption(base, low, high, unit, source, estimate):
    return {"base": base, "low": low, "high": high, "unit": unit, "source": source, "estimate": estimate}


# ------------------------------------------------------------------------------------------------ designs

DESIGNS = []


def design(fn):
    DESIGNS.append(fn)
    return fn


@design
def llama3_16k_h100():
    """Meta's Llama 3 405B cluster as published (REFERENCES.md, Network and Reliability; Meta, "The Llama 3
    Herd of Models", 2024): 16,384 H100 on 8-GPU servers, 2 servers (16 GPUs) and one ToR per rack, 400G
    RoCE per GPU, 192 racks = a 3,072-GPU pod with full bisection, pods joined at an aggregation layer
    oversubscribed 1:7. 16,384 GPUs = 1,024 racks = 5 full pods + one 64-rack partial pod (Meta's 24K
    cluster had 8 pods; the 16K job used 5 1/3 pods' worth). Three halls: pods 1-2, pods 3-4, pod 5 + the
    partial pod 6; a pod is a block of 12 rows of 16 racks.
    Site: the paper does not say where; central Iowa (Meta's Altoona campus region) is an illustrative
    choice. Electricity $0.065/kWh (Iowa industrial, estimate within REFERENCES' $0.04-0.10), 5,800 h/yr
    of free cooling (hours below ~18 C dry bulb, estimate), land $8M (~150 acres, estimate).
    Storage: Llama 3 checkpointing sustained 2 TB/s (peak 7 TB/s); the pfs-flash tier is sized so that the
    catalog's write bandwidth per byte gives 2 TB/s. (The paper's Tectonic store held 240 PB; the catalog
    value of write bandwidth per byte for modern flash PFS is higher, so the tier here is smaller.)"""
    pid = "llama3-16k-h100"
    rt = "hgx-h100-2srv"
    gpus_per_rack = cv(rt, "gpus")
    pod = [16] * 12  # 192 racks
    partial = [16] * 4  # 64 racks
    chain = chain_std()
    halls = [
        HallPlan("b1-h1", "Hall 1 (pods 1-2)", rt, [pod, pod], 0, chain=chain),
        HallPlan("b1-h2", "Hall 2 (pods 3-4)", rt, [pod, pod], 0, chain=chain),
        HallPlan("b1-h3", "Hall 3 (pod 5, partial pod 6)", rt, [pod, partial], 0, chain=chain),
    ]
    n_racks = sum(h.n_racks for h in halls)
    gpus = n_racks * gpus_per_rack
    ckpt_bw = 2e12
    desc = (
        "Meta's Llama 3 405B training cluster (2024) as published: 16,384 H100 GPUs on 8-GPU HGX servers, "
        "2 servers (16 GPUs) and one ToR per air-cooled rack = 1,024 racks of hgx-h100-2srv. RoCE back-end "
        "at 400 Gb/s per GPU on 51.2T switches (800G ports broken out 2x400G); a pod is 192 racks = 3,072 "
        "GPUs with full bisection, pods joined by an aggregation layer oversubscribed 1:7 (3 tiers, "
        "oversubscription [1, 7]; the design overrides the oversubscription_limit assumption to 7). "
        "16,384 GPUs = 5 full pods + one partial pod of 64 racks (Meta's 24K-GPU cluster has 8 pods; the "
        "16K job used 5 1/3 pods' worth), laid out as 3 halls of 2 pods (pod = 12 rows x 16 racks). "
        "One building in central Iowa (illustrative: the paper names no site). Training job: Llama 3 405B, "
        "15.6T tokens, BF16, MFU 40 %, TP 8 x PP 16 x DP 128, 16 B/param of checkpoint state; the flash "
        "parallel file system is sized for the 2 TB/s sustained checkpoint write Meta reported (capacity = "
        "2 TB/s / the catalog's write bandwidth per byte). No hot-spare racks: the run used every GPU, so the "
        "missing-spares rule may flag it. Use as the calibration case (54 days, 419 unexpected interruptions).")
    doc = Doc(pid, "Llama 3 405B - 16K H100 RoCE cluster", desc, [
        "REFERENCES.md: Network - Llama 3 cluster (Meta): RoCE 400 Gbps per GPU; 2 servers (16 GPUs) per "
        "rack with one ToR; 192 racks = a 3,072-GPU pod with full bisection; 8 pods joined at an "
        "aggregation layer oversubscribed 1:7",
        "REFERENCES.md: Reliability - Llama 3 405B pre-training, 16,384 H100, 54-day snapshot; storage "
        "sustained 2 TB/s, peaking at 7 TB/s",
        "REFERENCES.md: Training efficiency - 3.8e25 FLOPs = 6 x 405B x 15.6T tokens; BF16 MFU 38-43 %",
        "REFERENCES.md: mixed-precision Adam training state ~16 bytes per parameter",
        "Meta, The Llama 3 Herd of Models, 2024 (TP 8, PP 16, DP 128 at 16,384 GPUs)",
        SEED_AGENDA,
    ])
    doc.assumptions["oversubscription_limit"] = assumption(
        7.0, 1.0, 7.0, "ratio",
        "REFERENCES.md: Llama 3 cluster - 8 pods joined at an aggregation layer oversubscribed 1:7 (by design)",
        False)
    site = doc.site(id="site-iowa", name="Central Iowa (illustrative)", lat_deg=41.65, lon_deg=-93.47,
                    electricity_usd_per_kwh=0.065, free_cooling_hours_per_year=5800, land_cost_usd=8e6)
    b = doc.building("b1", "Building 1", site["id"], halls, height_m=12.0)
    doc.add("fabrics", id="be", name="RoCE back-end (3 tiers, pods of 3,072 GPUs)", role="backend",
            buildings=[], switch="sw-51t", port_bit_per_s=4e11, planes=1, tiers=3, breakout=2,
            oversubscription=[1.0, 7.0], rail_optimized=False, optics_policy="standard")
    frontend_fabric(doc, "fe", rt, n_racks)
    st = doc.add("storage_tiers", id="pfs", name="Flash parallel file system (2 TB/s checkpoint write)",
                 type="pfs-flash", building=b["id"], capacity_bytes=pfs_capacity_for(ckpt_bw))
    doc.add("training_jobs", id="llama3-405b", name="Llama 3 405B pre-training", model_params=4.05e11,
            active_params=4.05e11, tokens=1.56e13, precision="bf16", mfu=0.40, gpus=16384, tp=8, pp=16, dp=128,
            ep=1, checkpoint_bytes_per_param=16, storage_tier=st["id"], sites=[site["id"]],
            restart_scope="whole_job", async_checkpoint=False)
    expect = dict(racks=1024, gpus=16384, spares=0)
    assert gpus == 16384
    return pid, doc, expect


NVL72_LIQUID_NEO = dict(cdu_type="cdu-2mw", redundancy="N+1", supply_temp_c=40.0, delta_t_k=10.0,
                        plant="plant-dry-cooler")


@design
def neocloud_100k_gb200():
    """~100K-GPU GB200 NVL72 neocloud campus. 1,390 racks x 72 = 100,080 GPUs of sellable capacity plus 28
    hot-spare racks (2.0 %, assumptions.json spare_fraction_target) = 1,418 racks, 102,096 GPUs installed.
    4 buildings x 2 halls; a hall holds 12 rows in 2 blocks (columns) of 6 rows, rows of 14-15 racks; the
    job/spare racks are spread evenly. Each column is one warm-water loop (W40 class: 40 C supply, 10 K rise)
    of cdu-2mw, N+1, rejected by dry coolers (no evaporative water; West Texas).
    Back-end: each GPU has one 800G ConnectX-8 NIC; the NIC port is split into 4 x 200G, one per plane
    (multi-plane). Each plane is a 102.4T switch broken out 4 x 200G = radix 512, so one plane reaches
    512^2/2 = 131,072 endpoints in 2 tiers, enough for 102,096 GPUs: 4 planes x 2 tiers, non-blocking,
    rail-optimised leaves. Without planes the fabric would need 3 tiers (128^2/2 = 8,192 < 102,096).
    Job: NVIDIA's GPT-MoE-1.8T benchmark class model (1.8T total; 280B active is an estimate),
    30T tokens, FP8; TP 4 x PP 18 = 72 GPUs = one NVL72 rack per model replica stage group, DP 1,360
    -> 97,920 GPUs on 1,360 racks, leaving 30 sellable racks for other tenants. Site: Abilene, Texas area,
    illustrative; electricity $0.055/kWh (ERCOT industrial, estimate), land $6M (estimate)."""
    pid = "neocloud-100k-gb200"
    rt = "gb200-nvl72"
    job_racks, spare_racks = 1390, 28
    halls_per_bldg, n_bldg = 2, 4
    n_halls = halls_per_bldg * n_bldg
    job_split = even_split(job_racks, n_halls)
    spare_split = even_split(spare_racks, n_halls)[::-1]
    chain = chain_std()
    bids = []
    doc = Doc(pid, "Neocloud 100K GB200 NVL72 campus", "", [
        "REFERENCES.md: Accelerators - GB200 NVL72 rack about 120-142 kW, ~85 % liquid-cooled heat",
        "REFERENCES.md: Network - per-GPU back-end 800G (Blackwell); switch silicon 102.4 Tb/s "
        "(128 x 800G or 512 x 200G)",
        "REFERENCES.md: Prices - GB200 NVL72 rack ~$3.4M compute + ~$2.5M infrastructure (Bernstein, 2025)",
        "REFERENCES.md: mixed-precision Adam training state ~16 bytes per parameter",
        "NVIDIA GTC 2024: GPT-MoE-1.8T used as the reference training workload for GB200 NVL72",
        SEED_AGENDA,
    ])
    site = doc.site(id="site-tx", name="West Texas campus (illustrative)", lat_deg=32.45, lon_deg=-99.73,
                    electricity_usd_per_kwh=0.055, free_cooling_hours_per_year=4000, land_cost_usd=6e6)
    hi = 0
    for bi in range(n_bldg):
        halls = []
        for k in range(halls_per_bldg):
            n = job_split[hi] + spare_split[hi]
            rows = even_split(n, 12)
            halls.append(HallPlan("b%d-h%d" % (bi + 1, k + 1), "B%d hall %d" % (bi + 1, k + 1), rt,
                                  [rows[0::2], rows[1::2]], spare_split[hi], cooling=NVL72_LIQUID_NEO, chain=chain))
            hi += 1
        b = doc.building("b%d" % (bi + 1), "Building %d" % (bi + 1), site["id"], halls)
        bids.append(b["id"])
    n_racks = job_racks + spare_racks
    doc.add("fabrics", id="be", name="Back-end, 4 planes x 200G, 2 tiers, rail-optimised", role="backend",
            buildings=[], switch="sw-102t", port_bit_per_s=2e11, planes=4, tiers=2, breakout=4,
            oversubscription=[1.0], rail_optimized=True, optics_policy="standard")
    frontend_fabric(doc, "fe", rt, n_racks)
    # Checkpoint: 1.8T x 16 B = 28.8 TB; a 2.5 TB/s tier writes it in ~12 s (target, estimate).
    st = doc.add("storage_tiers", id="pfs", name="Flash parallel file system", type="pfs-flash",
                 building=bids[0], capacity_bytes=pfs_capacity_for(2.5e12))
    doc.add("storage_tiers", id="obj", name="Object store (datasets, checkpoint archive)", type="object-hdd",
            building=bids[1], capacity_bytes=2e17)
    doc.add("training_jobs", id="moe-1p8t", name="1.8T-parameter MoE pre-training (FP8)", model_params=1.8e12,
            active_params=2.8e11, tokens=3e13, precision="fp8", mfu=0.0, gpus=97920, tp=4, pp=18, dp=1360,
            ep=8, checkpoint_bytes_per_param=16, storage_tier=st["id"], sites=[site["id"]],
            # 100K GPUs fail every ~30 min: hot spares and in-memory checkpoints keep goodput up.
            restart_scope="hot_spare", async_checkpoint=True)
    doc.project["description"] = (
        "A ~100K-GPU neocloud campus of GB200 NVL72: 1,390 sellable racks (100,080 GPUs) plus 28 hot-spare "
        "racks (2 %) = 1,418 racks, 102,096 GPUs, in 4 buildings of 2 halls on one West Texas campus "
        "(illustrative site). Warm-water liquid cooling (40 C supply, 10 K rise) with cdu-2mw in N+1 per "
        "block of 6 rows and dry coolers. Back-end: one 800G NIC per GPU split into 4 x 200G planes; each "
        "plane is 102.4T switches broken out to 512 x 200G ports, so 2 tiers reach 131,072 endpoints per "
        "plane (a single 800G plane would need 3 tiers); non-blocking ([1]) and rail-optimised. Training job: "
        "a GPT-MoE-1.8T-class model (1.8T total, 280B active), 30T tokens, FP8, MFU from the assumptions, "
        "TP 4 x PP 18 x DP 1,360 = 97,920 GPUs (1,360 racks), EP 8; the remaining 30 sellable racks serve "
        "other tenants. Flash PFS sized for 2.5 TB/s checkpoint writes (28.8 TB per checkpoint).")
    expect = dict(racks=1418, gpus=102096, spares=28)
    return pid, doc, expect


@design
def campus_1gw():
    """A ~1 GW multi-building campus (Meta Prometheus-like in scale, REFERENCES/seed agenda: "Prometheus
    spans several buildings at 1 GW"). 5 buildings x 200 MW facility power (pinned as the brief says), each
    1,000 GB300 NVL72 racks (145 kW, catalog) = 145 MW IT, so IT + network + cooling + losses ~ 185 MW
    (PUE ~1.2-1.3) fits under 200 MW. 5,000 racks = 360,000 GPUs; 20 spares per building (2 %).
    Building: 4 halls x 250 racks; hall = 2 columns x 10 rows of 12-13 racks; column = 1 loop of cdu-2mw N+1
    at 32 C supply (W32, cooling towers; New Albany, Ohio is illustrative - Meta's Prometheus site is in
    Ohio). Back-end: 800G per GPU split into 4 x 200G planes (102.4T, radix 512); 360,000 endpoints per
    plane exceed 512^2/2 = 131,072, so 3 tiers (512^3/4 = 33.5M), non-blocking [1, 1], one fabric across all
    buildings. Training job: a hypothetical 10T-parameter MoE with 1T active, 100T tokens, FP8 (estimate of
    a next-generation frontier run, 6e26 FLOPs), on 4,096 racks; inference: a Kimi-K2-class 1T MoE on
    700 racks."""
    pid = "campus-1gw"
    rt = "gb300-nvl72"
    cooling = dict(cdu_type="cdu-2mw", redundancy="N+1", supply_temp_c=32.0, delta_t_k=10.0, plant="plant-tower")
    chain = chain_std()
    n_bldg, halls_per_bldg, racks_per_hall = 5, 4, 250
    spares_per_bldg = 20
    doc = Doc(pid, "1 GW multi-building GB300 campus", "", [
        "REFERENCES.md: Accelerators - GB300 NVL72: 5 PF FP8, 15 PF FP4, 288 GB HBM, ~1,400 W per GPU",
        "REFERENCES.md: Prices - Facilities for AI roughly $10-20M per MW of critical IT",
        "REFERENCES.md: Network - 102.4 Tb/s switch silicon (512 x 200G); 800G per GPU (Blackwell)",
        "REFERENCES.md: mixed-precision Adam training state ~16 bytes per parameter",
        "Moonshot AI, Kimi K2 model card (2025): 1.04T total / 32B active parameters, 61 layers, MLA",
        SEED_AGENDA + ": Meta's Prometheus spans several buildings at 1 GW",
    ])
    site = doc.site(id="site-oh", name="Central Ohio campus (illustrative)", lat_deg=40.08, lon_deg=-82.80,
                    electricity_usd_per_kwh=0.07, free_cooling_hours_per_year=5600, land_cost_usd=6e7)
    spares_split = even_split(spares_per_bldg, halls_per_bldg)
    bids = []
    for bi in range(n_bldg):
        halls = []
        for k in range(halls_per_bldg):
            rows = even_split(racks_per_hall, 20)
            halls.append(HallPlan("b%d-h%d" % (bi + 1, k + 1), "B%d hall %d" % (bi + 1, k + 1), rt,
                                  [rows[0::2], rows[1::2]], spares_split[k], cooling=cooling, chain=chain))
        b = doc.building("b%d" % (bi + 1), "Building %d" % (bi + 1), site["id"], halls,
                         power_capacity_w=200e6)
        bids.append(b["id"])
    n_racks = n_bldg * halls_per_bldg * racks_per_hall
    doc.add("fabrics", id="be", name="Campus back-end, 4 planes x 200G, 3 tiers", role="backend", buildings=[],
            switch="sw-102t", port_bit_per_s=2e11, planes=4, tiers=3, breakout=4, oversubscription=[1.0, 1.0],
            rail_optimized=True, optics_policy="standard")
    frontend_fabric(doc, "fe", rt, n_racks)
    # Checkpoint: 10T x 16 B = 160 TB; 10 TB/s writes it in 16 s (target, estimate). Split over two buildings.
    st = doc.add("storage_tiers", id="pfs-b1", name="Flash PFS, building 1", type="pfs-flash", building=bids[0],
                 capacity_bytes=pfs_capacity_for(5e12))
    doc.add("storage_tiers", id="pfs-b4", name="Flash PFS, building 4", type="pfs-flash", building=bids[3],
            capacity_bytes=pfs_capacity_for(5e12))
    doc.add("storage_tiers", id="obj", name="Object store", type="object-hdd", building=bids[4],
            capacity_bytes=1e18)
    doc.add("training_jobs", id="frontier-10t", name="10T-parameter MoE pre-training (hypothetical)",
            model_params=1e13, active_params=1e12, tokens=1e14, precision="fp8", mfu=0.0, gpus=294912, tp=4,
            pp=18, dp=4096, ep=64, checkpoint_bytes_per_param=16, storage_tier=st["id"], sites=[site["id"]],
            restart_scope="hot_spare", async_checkpoint=True)
    doc.add("inference_services", id="kimi-k2-class", name="1T MoE chat/agent serving (Kimi K2 class)",
            model_params=1.04e12, active_params=3.2e10, layers=61, kv_heads=1, head_dim=288,
            kv_bytes_per_element=1, weight_bytes_per_param=0.5, input_tokens=8000, output_tokens=800,
            target_tokens_per_s_per_user=50, gpus=50400, disaggregated=True, concurrent_sessions=800000,
            session_context_tokens=64000, kv_offload=["dram", "nvme"], precision="fp4")
    doc.project["description"] = (
        "A ~1 GW multi-building AI campus at Prometheus scale (central Ohio, illustrative): 5 buildings of "
        "200 MW facility power, each with 4 halls of 250 GB300 NVL72 racks = 1,000 racks (145 MW IT at "
        "145 kW/rack; with network, tower cooling, CDU pumps and power-chain losses about 185 MW, PUE ~1.25, "
        "under the 200 MW per building). 5,000 racks = 360,000 GPUs including 100 hot-spare racks (2 %). "
        "Liquid loops per block of 10 rows, cdu-2mw N+1, 32 C supply, cooling towers. One back-end across "
        "all buildings: 800G per GPU split into 4 planes of 200G on 102.4T switches (radix 512), 3 tiers "
        "non-blocking. Workloads: a hypothetical 10T-parameter MoE (1T active, 100T tokens, FP8) on 294,912 "
        "GPUs (4,096 racks; TP 4 x PP 18 x DP 4,096, EP 64) and a Kimi-K2-class 1T MoE inference service on "
        "50,400 GPUs (700 racks, FP4 weights, FP8 KV; MLA cache mapped to kv_heads 1 x head_dim 288 = 576 "
        "elements per token-layer).")
    expect = dict(racks=5000, gpus=360000, spares=100)
    return pid, doc, expect


@design
def two_site_wan():
    """Two GB200 NVL72 sites joined by a dedicated AI WAN, after Microsoft Fairwater (REFERENCES: Wisconsin
    and Atlanta roughly 700 miles apart). Site coordinates are approximate: Mount Pleasant, Wisconsin and
    the Atlanta metro. 500 racks per site (490 sellable + 10 spares); one building per site, 2 halls of
    250 racks each. Route: 1,100 km of fiber, explicit (700 miles = 1,127 km; the great circle between the
    two coordinates is ~1,070 km, x 1.3 would give ~1,390 km, so the explicit figure overrides it). One-way latency 1,100 km x 4.9 us/km = 5.4 ms, under the
    15 ms budget. 160 Tb/s = 200 x 800G (wan-800zr ZR+ with inline amplifiers, catalog).
    Fiber lease $2.0 per route-metre per year: estimate for ~8 leased long-haul dark-fiber pairs at
    ~$0.25 per pair-metre-year (IRU amortisation plus O&M), enough for 200 x 800G waves at ~25 waves per
    pair in the C band.
    Atlanta follows Microsoft's public description of Fairwater Atlanta (no on-site generation or UPS and
    single-corded distribution for the GPU fleet, relying on highly available grid power): its feeds have no
    UPS or genset and its racks have no B feed; Wisconsin keeps the standard 2N chain. Both sites use
    closed-loop liquid cooling with chiller plants (free cooling most of the year in Wisconsin)."""
    pid = "two-site-wan"
    rt = "gb200-nvl72"
    cooling = dict(cdu_type="cdu-2mw", redundancy="N+1", supply_temp_c=30.0, delta_t_k=10.0,
                   plant="plant-chiller")
    doc = Doc(pid, "Two-site training over a dedicated AI WAN (Fairwater-like)", "", [
        "REFERENCES.md: Network - Microsoft Fairwater: Wisconsin and Atlanta sites roughly 700 miles apart on "
        "a dedicated AI WAN",
        "REFERENCES.md: Network - light in fiber 4.9 us per km; about 10 ms round trip per 1,000 km of route",
        "REFERENCES.md: Accelerators - GB200 NVL72 ~120-142 kW per rack, ~85 % liquid",
        "REFERENCES.md: mixed-precision Adam training state ~16 bytes per parameter",
        "Microsoft, Fairwater Atlanta announcement (Nov 2025): grid-only resiliency for the GPU fleet, no "
        "on-site generation, UPS or dual-corded distribution",
        SEED_AGENDA + ": Fairwater sites in Wisconsin and Atlanta, ~700 miles apart, dedicated AI WAN",
    ])
    wi = doc.site(id="site-wi", name="Mount Pleasant, Wisconsin", lat_deg=42.70, lon_deg=-87.93,
                  electricity_usd_per_kwh=0.08, free_cooling_hours_per_year=6300, land_cost_usd=2e7)
    atl = doc.site(id="site-atl", name="Atlanta metro, Georgia", lat_deg=33.45, lon_deg=-84.45,
                   electricity_usd_per_kwh=0.07, free_cooling_hours_per_year=3800, land_cost_usd=1.5e7)
    rows = even_split(250, 20)
    spares = [5, 5]
    b_wi = doc.building("wi-b1", "Wisconsin building 1", wi["id"], [
        HallPlan("wi-h%d" % (k + 1), "WI hall %d" % (k + 1), rt, [rows[0::2], rows[1::2]], spares[k],
                 cooling=cooling, chain=chain_std()) for k in range(2)])
    b_atl = doc.building("atl-b1", "Atlanta building 1", atl["id"], [
        HallPlan("atl-h%d" % (k + 1), "ATL hall %d" % (k + 1), rt, [rows[0::2], rows[1::2]], spares[k],
                 cooling=cooling, single_corded=True, chain=["xfmr-mv", "switchgear-lv", "busway-row"])
        for k in range(2)])
    for b, tag in ((b_wi, "wi"), (b_atl, "atl")):
        doc.add("fabrics", id="be-" + tag, name="%s back-end, 4 planes x 200G, 2 tiers" % tag.upper(),
                role="backend", buildings=[b["id"]], switch="sw-102t", port_bit_per_s=2e11, planes=4, tiers=2,
                breakout=4, oversubscription=[1.0], rail_optimized=True, optics_policy="standard")
    for b, tag in ((b_wi, "wi"), (b_atl, "atl")):
        frontend_fabric(doc, "fe-" + tag, rt, 500, buildings=[b["id"]])
    # Checkpoint 2T x 16 B = 32 TB; 2 TB/s per site (estimate target). Checkpoints are written locally at
    # each site; the job's tier is Wisconsin's.
    st = doc.add("storage_tiers", id="pfs-wi", name="Flash PFS, Wisconsin", type="pfs-flash",
                 building=b_wi["id"], capacity_bytes=pfs_capacity_for(2e12))
    doc.add("storage_tiers", id="pfs-atl", name="Flash PFS, Atlanta", type="pfs-flash", building=b_atl["id"],
            capacity_bytes=pfs_capacity_for(2e12))
    doc.add("links", id="wan-wi-atl", name="AI WAN Wisconsin - Atlanta", **{"from": wi["id"]}, to=atl["id"],
            route_factor=1.3, route_length_m=1.1e6, capacity_bit_per_s=1.6e14, optic="wan-800zr",
            fiber_lease_usd_per_m_year=2.0, latency_budget_s=0.015)
    doc.add("training_jobs", id="moe-2t", name="2T-parameter MoE across two sites (FP8)", model_params=2e12,
            active_params=2e11, tokens=4e13, precision="fp8", mfu=0.0, gpus=69120, tp=4, pp=18, dp=960, ep=16,
            checkpoint_bytes_per_param=16, storage_tier=st["id"], sites=[wi["id"], atl["id"]],
            restart_scope="hot_spare", async_checkpoint=True)
    doc.project["description"] = (
        "Two GB200 NVL72 sites about 1,100 km of fiber apart (Mount Pleasant, Wisconsin and the Atlanta "
        "metro, after Microsoft's Fairwater pair, ~700 miles apart) training one model over a dedicated AI "
        "WAN. Each site: one building, 2 halls x 250 racks = 500 racks (490 sellable + 10 hot spares), "
        "36,000 GPUs; 1,000 racks and 72,000 GPUs in all. One back-end per site (4 planes x 200G on 102.4T, "
        "2 tiers, non-blocking). WAN: 160 Tb/s (200 x 800ZR-class waves with inline amplifiers), explicit "
        "route 1,100 km (route factor 1.3 kept for reference), one-way 5.4 ms at 4.9 us/km against a 15 ms "
        "budget; fiber lease $2/m/yr is an estimate (~8 long-haul dark-fiber pairs). Atlanta is built the "
        "Fairwater-Atlanta way: no UPS or generators and single-corded racks (feed B empty), relying on grid "
        "resiliency; Wisconsin has 2N feeds with UPS and generators. Training job: a hypothetical 2T MoE "
        "(200B active, 40T tokens, FP8) on 69,120 GPUs (480 racks per site), TP 4 x PP 18 x DP 960 with data "
        "parallelism spanning both sites.")
    expect = dict(racks=1000, gpus=72000, spares=20)
    return pid, doc, expect


@design
def agentic_inference_gb300():
    """Agentic inference fleet: 288 GB300 NVL72 racks (20,736 GPUs) with 6 hot spares (2.1 %), one building
    in Ashburn, Virginia (illustrative: close to users and peering; electricity $0.085/kWh and land $60M are
    estimates). No training job.
    Service 1 (main agent model): Kimi K2 (Moonshot AI model card, 2025): 1.04T total / 32B active
    parameters, 61 layers, DeepSeek-V3-style multi-head latent attention (MLA) caching a 512-element latent
    plus a 64-element RoPE key per token and layer = 576 elements. The format counts KV as
    2 x layers x kv_heads x head_dim, so kv_heads 1 x head_dim 288 reproduces the 576 elements (35 KB per
    token at FP8). FP4 weights (0.5 B/param), FP8 KV; agent turns of 20K input / 1K output tokens at 50 tok/s
    per user, 100K-token session context, disaggregated prefill/decode, KV offload to CPU DRAM and NVMe.
    216 racks = 15,552 GPUs; 250,000 concurrent sessions (author's estimate of what the pool sustains:
    ~50 decode streams per GPU at 50 tok/s on two thirds of the GPUs, prefill on the rest).
    Service 2 (sub-agents / coding): Qwen3-Coder-480B-A35B (Qwen model card, 2025): 480B total / 35B active,
    62 layers, GQA with 8 KV heads of 128; FP8 weights and KV, 8K in / 500 out at 100 tok/s per user,
    64K context, 72 racks = 5,184 GPUs, 60,000 sessions (estimate). SemiAnalysis measured ~64 % of traffic
    from agents (seed agenda)."""
    pid = "agentic-inference-gb300"
    rt = "gb300-nvl72"
    cooling = dict(cdu_type="cdu-2mw", redundancy="N+1", supply_temp_c=35.0, delta_t_k=10.0,
                   plant="plant-chiller")
    doc = Doc(pid, "Agentic inference fleet on GB300 NVL72", "", [
        "REFERENCES.md: Accelerators - GB300 NVL72: 15 PF FP4, 288 GB HBM at 8 TB/s, 72 GPUs per domain",
        "REFERENCES.md: Prices - GB300 NVL72 cooling bill of materials ~$50K per rack (Morgan Stanley)",
        SEED_AGENDA + ": agentic inference - ~64 % of measured traffic from agents, long contexts, many "
        "parallel sessions, disaggregated prefill/decode, KV offload, tokens per second per user",
        "Moonshot AI, Kimi K2 model card (2025): 1.04T total / 32B active, 61 layers, MLA (kv_lora_rank 512 + "
        "64 RoPE dims)",
        "DeepSeek-AI, DeepSeek-V3 Technical Report (2024): MLA KV cache of 576 elements per token and layer",
        "Qwen team, Qwen3-Coder-480B-A35B-Instruct model card (2025): 62 layers, 96 query / 8 KV heads, "
        "head_dim 128",
    ])
    site = doc.site(id="site-va", name="Ashburn, Virginia (illustrative)", lat_deg=39.04, lon_deg=-77.49,
                    electricity_usd_per_kwh=0.085, free_cooling_hours_per_year=5000, land_cost_usd=6e7)
    rows = even_split(147, 16)  # 147 racks per hall: 144 serving + 3 spares
    halls = [HallPlan("b1-h%d" % (k + 1), "Hall %d" % (k + 1), rt, [rows[0::2], rows[1::2]], 3, cooling=cooling,
                      chain=chain_std()) for k in range(2)]
    b = doc.building("b1", "Inference building 1", site["id"], halls)
    doc.add("fabrics", id="be", name="Back-end (KV transfer, expert parallel), 2 planes x 400G, 2 tiers",
            role="backend", buildings=[], switch="sw-102t", port_bit_per_s=4e11, planes=2, tiers=2, breakout=2,
            oversubscription=[1.0], rail_optimized=True, optics_policy="lpo")
    frontend_fabric(doc, "fe", rt, 294)
    doc.add("storage_tiers", id="nvme", name="Local NVMe (KV-cache offload)", type="nvme-local",
            building=b["id"], capacity_bytes=1e16)
    doc.add("storage_tiers", id="pfs", name="Flash PFS (weights, prefix cache)", type="pfs-flash",
            building=b["id"], capacity_bytes=5e15)
    doc.add("inference_services", id="kimi-k2", name="Agent model: Kimi K2 (1T MoE, MLA)", model_params=1.04e12,
            active_params=3.2e10, layers=61, kv_heads=1, head_dim=288, kv_bytes_per_element=1,
            weight_bytes_per_param=0.5, input_tokens=20000, output_tokens=1000, target_tokens_per_s_per_user=50,
            gpus=15552, disaggregated=True, concurrent_sessions=250000, session_context_tokens=100000,
            kv_offload=["dram", "nvme"], precision="fp4")
    doc.add("inference_services", id="qwen3-coder", name="Sub-agents: Qwen3-Coder-480B-A35B (GQA)",
            model_params=4.8e11, active_params=3.5e10, layers=62, kv_heads=8, head_dim=128, kv_bytes_per_element=1,
            weight_bytes_per_param=1, input_tokens=8000, output_tokens=500, target_tokens_per_s_per_user=100,
            gpus=5184, disaggregated=True, concurrent_sessions=60000, session_context_tokens=64000,
            kv_offload=["dram"], precision="fp8")
    doc.project["description"] = (
        "An agentic inference fleet of GB300 NVL72 in one building (Ashburn, Virginia, illustrative): "
        "294 racks = 288 serving racks (20,736 GPUs) + 6 hot spares (2 %), 2 halls, liquid loops of cdu-2mw "
        "N+1 at 35 C with chillers. No training job. Main service: Kimi K2 (1.04T total / 32B active MoE, "
        "61 layers, MLA: 576 cached elements per token-layer, written as kv_heads 1 x head_dim 288), FP4 "
        "weights, FP8 KV, 20K input / 1K output tokens per agent turn at 50 tok/s per user, 100K-token "
        "sessions, disaggregated prefill/decode, KV offload to DRAM and NVMe, 15,552 GPUs (216 racks), 250,000 "
        "concurrent sessions (estimate). Second service: Qwen3-Coder-480B-A35B sub-agents (62 layers, GQA "
        "8 x 128), FP8, 8K in / 500 out at 100 tok/s per user, 5,184 GPUs (72 racks). Back-end for KV transfer: "
        "800G per GPU as 2 planes of 400G, 2 tiers, non-blocking, LPO optics. Local NVMe (18 x 30.72 TB per "
        "rack) holds offloaded KV cache.")
    expect = dict(racks=294, gpus=21168, spares=6)
    return pid, doc, expect


@design
def vera_rubin_504():
    """504 Vera Rubin GPUs = 7 vr-nvl72 racks across three regions (seed 003: CoreWeave deployed 504 GPUs
    across multiple regions; the seed names no sites and no split). Split chosen by the author: 4 racks in
    US-East (Lancaster, Pennsylvania area), 2 in US-Central (Plano, Texas area), 1 in US-West (Hillsboro,
    Oregon area), all illustrative, each a small liquid-cooled hall in a colocation building (land 0).
    Vera Rubin is liquid-only (seed: "mandatory liquid-cooling"); 45 C warm-water supply (NVIDIA's stated
    class for Rubin, estimate) with dry coolers; cdu-1mw N+1 per hall.
    Network: ConnectX-9 gives 1.6 Tb/s per GPU (seed: "two-tier, non-blocking architectures that provide
    1.6 Tbps of connectivity per GPU"). The 102.4T switch in the catalog has 128 x 800G ports, so each 1.6T
    NIC is run as 2 planes of 800G (breakout 1): 2 tiers non-blocking in US-East (288 endpoints per plane)
    and US-Central (144), 1 tier in US-West (72 endpoints fit one 128-port switch).
    Links: US-East - US-Central and US-East - US-West, 6.4 Tb/s (8 x 800G) and 3.2 Tb/s, route length from
    great circle x 1.3 (route_length_m 0), lit capacity leased at an estimated $0.5 per route-metre-year.
    Workloads: a Llama-3.1-405B inference service on the 3 racks outside US-East, and a small training job:
    continued pre-training of a 70B dense model (Llama 3.1 70B size) on US-East's 288 GPUs, FP8, TP 8 x PP 2 x
    DP 18; checkpoints to a local flash tier (the seed's cross-region write acceleration acknowledges writes
    locally and migrates in the background)."""
    pid = "vera-rubin-504"
    rt = "vr-nvl72"
    cooling = dict(cdu_type="cdu-1mw", redundancy="N+1", supply_temp_c=45.0, delta_t_k=10.0,
                   plant="plant-dry-cooler")
    doc = Doc(pid, "Vera Rubin NVL72, 504 GPUs across three regions", "", [
        SEED_VR + ": 504 GPUs across multiple regions, 72 Rubin GPUs + 36 Vera CPUs per rack, ConnectX-9 and "
        "BlueField-4, two-tier non-blocking fabric at 1.6 Tb/s per GPU, storage up to 7 GB/s per GPU, "
        "cross-region checkpoint write acceleration, mandatory liquid cooling",
        "REFERENCES.md: Accelerators - Vera Rubin NVL72 (preliminary): 50 PF FP4, 288 GB HBM4, NVLink 6; "
        "racks 190-230 kW (estimate)",
        "REFERENCES.md: Network - per-GPU back-end 1.6T (ConnectX-9 era); 102.4 Tb/s = 128 x 800G",
        "REFERENCES.md: Network - light in fiber 4.9 us per km",
        "Meta, Llama 3.1 model card (2024): 405B - 126 layers, 8 KV heads, head_dim 128; 70B size",
    ])
    sites = [
        ("east", "US-East: Lancaster, Pennsylvania area (illustrative)", 40.04, -76.31, 0.08, 5200, 4),
        ("central", "US-Central: Plano, Texas area (illustrative)", 33.02, -96.70, 0.06, 3800, 2),
        ("west", "US-West: Hillsboro, Oregon area (illustrative)", 45.54, -122.94, 0.07, 6500, 1),
    ]
    bld = {}
    for tag, name, lat, lon, price, fch, n in sites:
        s = doc.site(id="site-" + tag, name=name, lat_deg=lat, lon_deg=lon, electricity_usd_per_kwh=price,
                     free_cooling_hours_per_year=fch, land_cost_usd=0)
        rows = [2, 2] if n == 4 else [n]
        h = HallPlan(tag + "-h1", "%s hall" % tag.capitalize(), rt, [rows], 0, cooling=cooling, chain=chain_std())
        bld[tag] = doc.building(tag + "-b1", "%s colocation building" % tag.capitalize(), s["id"], [h],
                                height_m=8.0)
    for tag, tiers in (("east", 2), ("central", 2), ("west", 1)):
        doc.add("fabrics", id="be-" + tag, name="%s back-end, 2 planes x 800G" % tag.capitalize(), role="backend",
                buildings=[bld[tag]["id"]], switch="sw-102t", port_bit_per_s=8e11, planes=2, tiers=tiers,
                breakout=1, oversubscription=[1.0] if tiers == 2 else [], rail_optimized=tiers == 2,
                optics_policy="standard")
    for tag, _, _, _, _, _, n in sites:
        frontend_fabric(doc, "fe-" + tag, rt, n, buildings=[bld[tag]["id"]])
    # The seed's 7 GB/s per GPU (LOTA cache) x 288 GPUs = 2 TB/s read; checkpoint writes here: 70.6B x 16 B
    # = 1.1 TB at 0.2 TB/s (estimate target).
    st = doc.add("storage_tiers", id="pfs-east", name="Flash PFS, US-East", type="pfs-flash",
                 building=bld["east"]["id"], capacity_bytes=pfs_capacity_for(2e11))
    doc.add("storage_tiers", id="nvme-central", name="Local NVMe, US-Central", type="nvme-local",
            building=bld["central"]["id"], capacity_bytes=2 * 18 * 30.72e12)
    doc.add("storage_tiers", id="nvme-west", name="Local NVMe, US-West", type="nvme-local",
            building=bld["west"]["id"], capacity_bytes=18 * 30.72e12)
    doc.add("links", id="wan-east-central", name="US-East - US-Central", **{"from": "site-east"},
            to="site-central", route_factor=1.3, route_length_m=0, capacity_bit_per_s=6.4e12, optic="wan-800zr",
            fiber_lease_usd_per_m_year=0.5, latency_budget_s=0.03)
    doc.add("links", id="wan-east-west", name="US-East - US-West", **{"from": "site-east"}, to="site-west",
            route_factor=1.3, route_length_m=0, capacity_bit_per_s=3.2e12, optic="wan-800zr",
            fiber_lease_usd_per_m_year=0.5, latency_budget_s=0.05)
    doc.add("training_jobs", id="cpt-70b", name="70B dense continued pre-training (US-East)", model_params=7.06e10,
            active_params=7.06e10, tokens=2e11, precision="fp8", mfu=0.0, gpus=288, tp=8, pp=2, dp=18, ep=1,
            checkpoint_bytes_per_param=16, storage_tier=st["id"], sites=["site-east"],
            restart_scope="whole_job", async_checkpoint=False)
    doc.add("inference_services", id="llama-405b", name="Llama 3.1 405B serving (US-Central, US-West)",
            model_params=4.05e11, active_params=4.05e11, layers=126, kv_heads=8, head_dim=128,
            kv_bytes_per_element=1, weight_bytes_per_param=0.5, input_tokens=16000, output_tokens=1000,
            target_tokens_per_s_per_user=100, gpus=216, disaggregated=False, concurrent_sessions=4000,
            session_context_tokens=128000, kv_offload=["dram"], precision="fp4")
    doc.project["description"] = (
        "CoreWeave-style Vera Rubin NVL72 deployment of 504 GPUs = 7 vr-nvl72 racks across three regions "
        "(seed 003; the split 4 + 2 + 1 racks and the sites Lancaster PA, Plano TX and Hillsboro OR are "
        "illustrative). Liquid-only racks (~210 kW) on 45 C warm water with dry coolers, cdu-1mw N+1 per hall. "
        "ConnectX-9 1.6 Tb/s per GPU run as 2 planes of 800G on 102.4T switches (128 x 800G, breakout 1): "
        "2 tiers non-blocking in US-East and US-Central, 1 tier in US-West. Inter-region links of 6.4 and "
        "3.2 Tb/s, route length = great circle x 1.3. Workloads: continued pre-training of a 70B dense model "
        "on US-East's 288 GPUs (FP8, TP 8 x PP 2 x DP 18) with local checkpointing, and Llama 3.1 405B "
        "serving (FP4 weights, FP8 KV, 128K context) on the 216 GPUs in the other two regions. No hot spares "
        "(7 racks): the missing-spares rule may flag it.")
    expect = dict(racks=7, gpus=504, spares=0)
    return pid, doc, expect


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
    if d["format"] != "clustertwin-design" or d["schema_version"] != 1:
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

    # GPU totals and workloads.
    gpus = sum(cv(r["rack_type"], "gpus") for r in d["racks"])
    spare_racks = sum(1 for r in d["racks"] if r["spare"])
    site_gpus = {}
    for r in d["racks"]:
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
        for r in d["racks"]:
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
        route = l["route_length_m"] or gc * l["route_factor"]
        lat = route / 1000 * 4.9e-6
        if lat > l["latency_budget_s"]:
            fail("link %s: one-way latency %.1f ms > budget" % (l["id"], lat * 1e3))
        link_info.append((l["id"], gc, route, lat))
    if expect:
        if len(d["racks"]) != expect["racks"] or gpus != expect["gpus"] or spare_racks != expect["spares"]:
            fail("totals racks %d gpus %d spares %d, expected %s" % (len(d["racks"]), gpus, spare_racks, expect))
    it = sum(cv(r["rack_type"], "power_load_w") for r in d["racks"])
    return dict(file=name, racks=len(d["racks"]), gpus=gpus, spares=spare_racks, buildings=len(d["buildings"]),
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
    "two-site-wan": "Two GB200 sites 1,100 km apart (Wisconsin - Atlanta, Fairwater-like), 72K GPUs, "
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
    for fn in DESIGNS:
        pid, doc, expect = fn()
        fname = pid + ".json"
        expects[fname] = expect
        if not check_only:
            doc.write(os.path.join(HERE, fname))
        index.append({"file": fname, "name": doc.project["name"], "summary": SUMMARIES[pid]})
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
