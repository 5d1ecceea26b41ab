#!/usr/bin/env bash
# MPI speed-up of `clustertwin-cli explore` from 1 to 2 ranks (issue 16), one thread per rank, on a spec
# (default: tests/bench/explore-100k.json with 2,000 Latin hypercube points). Prints the wall times and the
# ratio; checks the two results are identical. Usage: explore_mpi_speedup.sh CLI [SPEC]
set -euo pipefail
cli=${1:?usage: explore_mpi_speedup.sh path/to/clustertwin-cli [SPEC]}
here=$(cd "$(dirname "$0")" && pwd)
spec=${2:-}
if [ -z "$spec" ]; then
  spec=$(mktemp --suffix=.json)
  sed 's/"points": 10000/"points": 2000/; s|"base": "../../|"base": "'"$here"'/../../|' "$here/explore-100k.json" > "$spec"
fi
root=(); [ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
t() { local s e; s=$(date +%s.%N); "$@" > "$out"; e=$(date +%s.%N); echo "$e - $s" | bc; }
out=$(mktemp); one=$(t mpirun -n 1 "${root[@]}" "$cli" explore "$spec" --mpi --json --threads 1); cp "$out" "$out.1"
two=$(t mpirun -n 2 --oversubscribe "${root[@]}" "$cli" explore "$spec" --mpi --json --threads 1)
cmp -s "$out" "$out.1" && same=identical || same=DIFFERENT
echo "1 rank: ${one} s, 2 ranks: ${two} s wall, speed-up $(echo "scale=2; $one / $two" | bc) (results $same); stderr shows the processor time per rank"
