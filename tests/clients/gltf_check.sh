#!/usr/bin/env bash
# ctest gltf_validator (issue 18): `clustertwin-cli render --out X.gltf|X.glb` of two reference designs,
# checked by the Khronos glTF validator (no errors allowed), and the bad inputs of render --out: an unknown
# extension, a missing folder and a design with nothing to draw exit 3 or 4 with a clear message and leave
# no file (not even a temporary).
# usage: gltf_check.sh CLI REFERENCE_DIR NODE_MODULES_DIR WORKDIR
set -uo pipefail
cli=$1 ref=$2 modules=$3 work=$4
if ! command -v node >/dev/null; then
  echo "SKIP: node is not installed"; exit 77
fi
if [ ! -f "$modules/gltf-validator/package.json" ]; then
  echo "SKIP: gltf-validator is not installed in $modules; ./dev test (or ./dev tools) installs it"; exit 77
fi
rm -rf "$work" && mkdir -p "$work"
fail=0
files=()
for design in vera-rubin-504 two-site-wan; do
  for ext in gltf glb; do
    out="$work/$design.$ext"
    if ! "$cli" render "$ref/$design.json" --out "$out" >"$work/log" 2>&1; then
      echo "FAIL: render $design.$ext: $(cat "$work/log")"; fail=1; continue
    fi
    files+=("$out")
  done
done
[ ${#files[@]} -gt 0 ] && { node "$(dirname "$0")/validate_gltf.mjs" "$modules" "${files[@]}" || fail=1; }
# The binary container starts with the magic "glTF" and version 2 (glTF 2.0 §4.4.3).
if [ "$(head -c 4 "$work/vera-rubin-504.glb" 2>/dev/null)" != "glTF" ]; then
  echo "FAIL: vera-rubin-504.glb does not start with the glTF magic"; fail=1
fi

# expect CODE FRAGMENT OUT ARGS...: the command exits CODE, says FRAGMENT, and OUT does not exist after.
expect() {
  local code=$1 fragment=$2 out=$3; shift 3
  "$cli" "$@" >"$work/log" 2>&1
  local rc=$?
  if [ "$rc" -ne "$code" ] || ! grep -qF -- "$fragment" "$work/log"; then
    echo "FAIL: $* -> exit $rc (want $code), message: $(cat "$work/log") (want '$fragment')"; fail=1
  else
    echo "ok: exit $rc: $(head -1 "$work/log")"
  fi
  if [ -e "$out" ] || ls "$(dirname "$out")"/."$(basename "$out")".tmp-* >/dev/null 2>&1; then
    echo "FAIL: $* left $out (or a temporary) behind"; fail=1
  fi
}
expect 3 "unknown file type" "$work/campus.obj" render "$ref/vera-rubin-504.json" --out "$work/campus.obj"
expect 4 "does not exist" "$work/missing/campus.glb" render "$ref/vera-rubin-504.json" --out "$work/missing/campus.glb"
mkdir -p "$work/readonly" && chmod 555 "$work/readonly"
if [ "$(id -u)" -ne 0 ]; then # root writes anywhere
  expect 4 "campus.gltf" "$work/readonly/campus.gltf" render "$ref/vera-rubin-504.json" --out "$work/readonly/campus.gltf"
fi
printf '{"format":"clustertwin-design","schema_version":2,"project":{"id":"empty"}}' >"$work/empty.json"
expect 3 "nothing to draw" "$work/empty.glb" render "$work/empty.json" --out "$work/empty.glb"
expect 2 "site map renders to PNG only" "$work/map.glb" render "$ref/vera-rubin-504.json" --view map --out "$work/map.glb"
exit $fail
