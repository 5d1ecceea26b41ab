#!/usr/bin/env bash
# ctest package_lintian (issue 18): lintian on the .deb the package_contents test built. No error and no
# warning may remain (none is overridden today; a warning that must be accepted goes, with its reason, into
# packaging/clustertwin.lintian-overrides installed as /usr/share/lintian/overrides/clustertwin). Info tags
# are printed, not failed. Skipped (77) when lintian is absent: ./dev test, ./dev package and ./dev tools
# install it.
# usage: check_lintian.sh DIR_WITH_THE_DEB
set -uo pipefail
if ! command -v lintian >/dev/null; then
  echo "SKIP: lintian is not installed (./dev tools installs it)"; exit 77
fi
shopt -s nullglob
debs=("$1"/clustertwin_*.deb)
if [ ${#debs[@]} -ne 1 ]; then
  echo "FAIL: expected one clustertwin_*.deb in $1 (the package_contents test builds it), found ${#debs[@]}"
  exit 1
fi
echo "$(basename "${debs[0]}"): $(du -k "${debs[0]}" | cut -f1) KiB, Installed-Size $(dpkg-deb -f "${debs[0]}" Installed-Size) KiB"
# Root is what CI runs as; lintian only warns about it.
lintian --fail-on error,warning --display-info --show-overrides "${debs[0]}" 2>&1 |
  grep -v "running with root privileges is not recommended"
rc=${PIPESTATUS[0]}
[ "$rc" -eq 0 ] && echo "lintian: no errors or warnings" || echo "FAIL: lintian exit $rc"
exit "$rc"
