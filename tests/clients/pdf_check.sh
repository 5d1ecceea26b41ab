#!/usr/bin/env bash
# ctest pdf_clients (issue 18): the PDF finance report as poppler reads it (pdfinfo, pdffonts): every font
# embedded, the page size asked for (A4 by default, US Letter with --page-size letter), the Title metadata
# set, and every page of that size.
# usage: pdf_check.sh CLI DESIGN WORKDIR
set -uo pipefail
cli=$1 design=$2 work=$3
for t in pdfinfo pdffonts; do
  command -v $t >/dev/null || { echo "SKIP: $t is not installed (Debian poppler-utils; ./dev installs it)"; exit 77; }
done
rm -rf "$work" && mkdir -p "$work"
fail=0
# check SIZE_OPTION PAGE_NAME WIDTH_PT HEIGHT_PT
check() {
  local option=$1 name=$2 w=$3 h=$4 pdf="$work/report-$1.pdf"
  local args=()
  [ "$option" != default ] && args=(--page-size "$option")
  if ! "$cli" report "$design" --pdf "$pdf" --samples 20 "${args[@]}" >"$work/log" 2>&1; then
    echo "FAIL: report --pdf ${args[*]}: $(cat "$work/log")"; fail=1; return
  fi
  local info pages
  info=$(pdfinfo "$pdf") || { echo "FAIL: pdfinfo cannot read $pdf"; fail=1; return; }
  pages=$(sed -n 's/^Pages: *//p' <<<"$info")
  echo "$option: $(grep -E '^(Title|Creator|Producer|Pages|Page size|PDF version):' <<<"$info" | tr -s ' ' | paste -sd';')"
  grep -qE '^Title: +Finance report: .+' <<<"$info" || { echo "FAIL: $option: no Title metadata"; fail=1; }
  # Page size of every page: pdfinfo -f 1 -l N lists "Page    i size: W x H pts".
  local sizes
  sizes=$(pdfinfo -f 1 -l "$pages" "$pdf" | sed -n 's/^Page *[0-9]* size: *\([0-9.]*\) x \([0-9.]*\) pts.*/\1 \2/p' | sort -u)
  if [ "$(wc -l <<<"$sizes")" -ne 1 ] ||
     ! awk -v w="$w" -v h="$h" '{ exit !(($1 - w) ^ 2 < 1 && ($2 - h) ^ 2 < 1) }' <<<"$sizes"; then
    echo "FAIL: $option: page sizes '$sizes' (pts), want $w x $h ($name)"; fail=1
  fi
  # pdffonts: two header lines, then one line per font; column "emb" must be "yes" for all.
  local fonts not
  fonts=$(pdffonts "$pdf" | tail -n +3)
  not=$(awk '{ n = NF; if ($(n-4) != "yes") print }' <<<"$fonts")
  echo "$option: $(wc -l <<<"$fonts") fonts: $(awk '{print $1}' <<<"$fonts" | sort -u | paste -sd' ')"
  [ -z "$fonts" ] && { echo "FAIL: $option: pdffonts lists no font"; fail=1; }
  [ -n "$not" ] && { echo "FAIL: $option: fonts not embedded:"; echo "$not"; fail=1; }
}
check default A4 595.276 841.89
check a4 A4 595.276 841.89
check letter Letter 612 792
# A size the report does not offer is a usage error naming the choices.
"$cli" report "$design" --pdf "$work/x.pdf" --page-size tabloid >"$work/log" 2>&1
rc=$?
if [ $rc -ne 2 ] || ! grep -q "a4 or letter" "$work/log" || [ -e "$work/x.pdf" ]; then
  echo "FAIL: --page-size tabloid: exit $rc, $(cat "$work/log")"; fail=1
fi
exit $fail
