#!/usr/bin/env python3
"""ctest xlsx_recalc (issue 18): the XLSX finance report recalculated by a real spreadsheet engine.

LibreOffice Calc (headless) loads the workbook with "recalculate on load: always" (a private user profile),
and converts it back to XLSX; this script then reads both workbooks with the standard library (zipfile and
ElementTree) and checks:
  1. every formula cell's recalculated value equals the value ClusterTwin cached, to 1e-9 relative; the
     cached values are stripped from the copy LibreOffice opens, so a value can only come from recalculation;
  2. with the GPU-hour price changed on the Assumptions sheet, every Summary figure that is a formula equals
     the engine's own figure for that override (`clustertwin-cli evaluate --json --set
     assumptions.gpu_hour_price_usd=...`), to 1e-9 relative, and the dependent figures did move.
Exits 77 (ctest SKIP_RETURN_CODE) with a message when LibreOffice is not installed (CTWIN_SOFFICE names
another soffice).

usage: xlsx_recalc.py CLI WORKDIR DESIGN [DESIGN ...]
"""
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
import xml.etree.ElementTree as ET

NS = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
      "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
      "rel": "http://schemas.openxmlformats.org/package/2006/relationships"}
M = "{%s}" % NS["m"]
REL_TOL = 1e-9
SKIP = 77

# LibreOffice's Calc option Tools > Options > Formula > "Recalculation on file load", Excel 2007 and newer
# and ODF: 0 = always recalculate (officecfg/registry/schema/org/openoffice/Office/Calc.xcs, Formula/Load).
PROFILE_XCU = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema"
 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="ODFRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
"""


def same(a, b):
    return abs(a - b) <= REL_TOL * max(1.0, abs(a), abs(b))


def sheet_paths(z):
    """Sheet name -> part name inside the zip, in workbook order."""
    wb = ET.fromstring(z.read("xl/workbook.xml"))
    rels = ET.fromstring(z.read("xl/_rels/workbook.xml.rels"))
    target = {r.get("Id"): r.get("Target") for r in rels.findall("rel:Relationship", NS)}
    out = {}
    for s in wb.find("m:sheets", NS).findall("m:sheet", NS):
        t = target[s.get("{%s}id" % NS["r"])]
        t = t.lstrip("/")
        out[s.get("name")] = t if t.startswith("xl/") else "xl/" + t
    return out


def shared_strings(z):
    if "xl/sharedStrings.xml" not in z.namelist():
        return []
    root = ET.fromstring(z.read("xl/sharedStrings.xml"))
    return ["".join(t.text or "" for t in si.iter(M + "t")) for si in root.findall("m:si", NS)]


def read_cells(path):
    """{sheet: {ref: (formula or None, type, value)}} with strings resolved."""
    with zipfile.ZipFile(path) as z:
        strings = shared_strings(z)
        book = {}
        for name, part in sheet_paths(z).items():
            cells = {}
            for c in ET.fromstring(z.read(part)).iter(M + "c"):
                f = c.find("m:f", NS)
                v = c.find("m:v", NS)
                t = c.get("t", "n")
                value = v.text if v is not None else None
                if t == "s" and value is not None:
                    value = strings[int(value)]
                elif t == "inlineStr":
                    value = "".join(x.text or "" for x in c.iter(M + "t"))
                cells[c.get("r")] = (f.text if f is not None else None, t, value)
            book[name] = cells
    return book


def rewrite(src, dst, edit):
    """Copies the workbook, passing each sheet's XML text through edit(sheet_name, xml) -> xml."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        parts = {v: k for k, v in sheet_paths(zin).items()}
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename in parts:
                data = edit(parts[item.filename], data.decode("utf-8")).encode("utf-8")
            zout.writestr(item, data)


def strip_cached(_sheet, xml):
    # <c ...><f>...</f><v>cached</v></c>: drop the cached value of formula cells only.
    return re.sub(r"(</f>|<f[^>]*/>)<v>[^<]*</v>", r"\1", xml)


def set_number(ref):
    def edit(sheet, xml):
        if sheet != "Assumptions":
            return xml
        new, n = re.subn(r'(<c r="%s"[^>]*>)<v>[^<]*</v>' % ref[0], r"\g<1><v>%r</v>" % ref[1], xml)
        if n != 1:
            sys.exit("xlsx_recalc: cannot set Assumptions!%s (found %d cells)" % (ref[0], n))
        return new
    return edit


def recalc(soffice, profile, sources, outdir):
    """Opens each workbook in LibreOffice (recalculating on load) and saves it again as XLSX into outdir:
    one LibreOffice start for all of them. Returns the output paths."""
    os.makedirs(outdir, exist_ok=True)
    cmd = [soffice, "-env:UserInstallation=file://" + profile, "--headless", "--norestore",
           "--convert-to", "xlsx:Calc MS Excel 2007 XML", "--outdir", outdir] + sources
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    outs = [os.path.join(outdir, os.path.basename(src)) for src in sources]
    if p.returncode != 0 or not all(os.path.exists(o) for o in outs):
        sys.exit("xlsx_recalc: LibreOffice failed (%d): %s %s" % (p.returncode, p.stdout, p.stderr))
    return outs


def compare_formulas(original, recalculated, label):
    """Every formula cell of `original` against the same cell of `recalculated`; returns (count, bad)."""
    count, bad = 0, []
    for sheet, cells in original.items():
        for ref, (f, t, cached) in cells.items():
            if f is None:
                continue
            count += 1
            got = recalculated.get(sheet, {}).get(ref)
            if got is None or got[2] is None:
                bad.append("%s!%s =%s: no value after recalculation" % (sheet, ref, f))
                continue
            if got[1] == "e":
                bad.append("%s!%s =%s: error %s" % (sheet, ref, f, got[2]))
            elif t in ("str", "s", "inlineStr") or got[1] in ("str", "s", "inlineStr"):
                if got[2] != cached:
                    bad.append("%s!%s =%s: '%s' cached, '%s' recalculated" % (sheet, ref, f, cached, got[2]))
            elif not same(float(got[2]), float(cached)):
                bad.append("%s!%s =%s: %s cached, %s recalculated (rel. diff %.3g)" %
                           (sheet, ref, f, cached, got[2],
                            abs(float(got[2]) - float(cached)) / max(1.0, abs(float(cached)))))
    print("%s: %d formula cells recalculated, %d differ from the cached values" % (label, count, len(bad)))
    return count, bad


def flatten(tree, prefix=""):
    """`evaluate --json` nests figures by area ({"finance": {"npv_usd": ...}}): dotted key -> number."""
    out = {}
    for k, v in tree.items():
        if isinstance(v, dict):
            out.update(flatten(v, prefix + k + "."))
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            out[prefix + k] = float(v)
    return out


def summary_figures(book):
    """Summary sheet: figure key -> (value, kind) from columns A (key), C (value), E (kind)."""
    cells = book["Summary"]
    out = {}
    for ref, (_f, _t, value) in cells.items():
        m = re.fullmatch(r"A(\d+)", ref)
        if not m or value is None:
            continue
        row = m.group(1)
        v = cells.get("C" + row)
        kind = cells.get("E" + row)
        if v is None or v[2] is None or v[1] in ("s", "str", "inlineStr"):
            continue
        out[value] = (float(v[2]), kind[2] if kind else None)
    return out


KEY = "gpu_hour_price_usd"


def prepare(cli, design, work):
    """Writes the design's report and its two copies; returns what check() needs."""
    name = os.path.splitext(os.path.basename(design))[0]
    report = os.path.join(work, name + ".xlsx")
    subprocess.run([cli, "report", design, "--xlsx", report, "--samples", "50"], check=True,
                   stdout=subprocess.DEVNULL)
    original = read_cells(report)
    # 1. A copy without the cached values of formula cells, so every value LibreOffice saves is its own.
    stripped = os.path.join(work, name + "-stripped.xlsx")
    rewrite(report, stripped, strip_cached)
    assert all(v[2] is None for s in read_cells(stripped).values() for v in s.values() if v[0]), \
        "cached values were not stripped"
    # 2. A copy with one input moved: the GPU-hour price, +25%.
    row = next((ref[1:] for ref, v in original["Assumptions"].items() if ref.startswith("A") and v[2] == KEY),
               None)
    if row is None:
        sys.exit("xlsx_recalc: no %s row on the Assumptions sheet of %s" % (KEY, report))
    base = float(original["Assumptions"]["B" + row][2])
    price = round(base * 1.25, 6)
    changed = os.path.join(work, name + "-changed.xlsx")
    rewrite(report, changed, set_number(("B" + row, price)))
    return {"name": name, "design": design, "original": original, "stripped": stripped, "changed": changed,
            "base": base, "price": price}


def check(cli, d, recalculated_path, changed_path):
    """Returns the failures for one design."""
    # Recalculation from scratch equals the cached values.
    count, bad = compare_formulas(d["original"], read_cells(recalculated_path), d["name"] + ": recalculation")
    failures = bad[:]
    if count < 50:
        failures.append("only %d formula cells: the workbook lost its formulas" % count)
    # The moved input moves the Summary figures as the engine does.
    base, price = d["base"], d["price"]
    moved = summary_figures(read_cells(changed_path))
    before = summary_figures(d["original"])
    engine = flatten(json.loads(subprocess.run(
        [cli, "evaluate", d["design"], "--json", "--set", "assumptions.%s=%r" % (KEY, price)], check=True,
        capture_output=True, text=True).stdout))
    checked = moved_count = 0
    for k, (value, kind) in sorted(moved.items()):
        if kind != "formula" or k not in engine or engine[k] is None:
            continue
        checked += 1
        if not same(value, before[k][0]):
            moved_count += 1
        if not same(value, engine[k]):
            failures.append("%s: price %s -> %s: Summary %s = %.12g after recalculation, the engine says %.12g" %
                            (d["name"], base, price, k, value, engine[k]))
    # Figures written as values cannot follow the input: list those the engine moves (informative).
    static_moved = [k for k, (value, kind) in moved.items()
                    if kind == "value" and k in engine and engine[k] is not None and not same(value, engine[k])]
    print("%s: input change %s %s -> %s; %d Summary formula figures checked against the engine, %d moved; "
          "%d value-only figures the engine moves: %s" % (d["name"], KEY, base, price, checked, moved_count,
                                                           len(static_moved), ", ".join(static_moved) or "none"))
    if moved_count == 0:
        failures.append("%s: no Summary figure moved with the GPU-hour price: recalculation did not happen" %
                        d["name"])
    return failures


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    cli, work, designs = sys.argv[1], sys.argv[2], sys.argv[3:]
    soffice = os.environ.get("CTWIN_SOFFICE") or shutil.which("soffice") or shutil.which("libreoffice")
    if not soffice or not os.path.exists(soffice):
        print("SKIP: LibreOffice (soffice) is not installed; `./dev test` installs libreoffice-calc-nogui")
        return SKIP
    shutil.rmtree(work, ignore_errors=True)
    profile = os.path.join(work, "profile")
    os.makedirs(os.path.join(profile, "user"))
    with open(os.path.join(profile, "user", "registrymodifications.xcu"), "w") as f:
        f.write(PROFILE_XCU)
    prepared = [prepare(cli, design, work) for design in designs]
    # One LibreOffice start for every workbook.
    sources = [p for d in prepared for p in (d["stripped"], d["changed"])]
    outputs = recalc(soffice, profile, sources, os.path.join(work, "recalc"))
    failures = []
    for i, d in enumerate(prepared):
        failures += check(cli, d, outputs[2 * i], outputs[2 * i + 1])
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
