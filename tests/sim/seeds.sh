#!/bin/sh
# make sim-seeds: the scenario matrix on other draws of the fabric (ECMP hash, jitter, random
# loss). make sim judges seed 1 only; this shows which scenarios hold on every draw and which
# pass by the luck of one. Not in make check: it prints, it does not judge.
#   tests/sim/seeds.sh MRC_SIM [SEEDS]
set -eu
sim=$1
seeds=${2:-8}
out=$(mktemp)
trap 'rm -f "$out"' EXIT

s=1
while [ "$s" -le "$seeds" ]; do
	"$sim" --seed "$s" | grep '^SIM ' | awk -v s="$s" '{ print s, $2, $NF == "PASS" ? "pass" : "fail" }' >>"$out" || true
	s=$((s + 1))
done
echo "scenarios that failed on some of $seeds seeds (failures/seeds):"
awk '$3 == "fail" { n[$2]++ } END { for (k in n) printf "  %-40s %d/%d\n", k, n[k], seeds }' \
	seeds="$seeds" "$out" | sort
awk '{ t[$1]++; if ($3 == "pass") p[$1]++ } END { for (s in t) printf "seed %s: %d of %d passed\n", s, p[s], t[s] }' \
	"$out" | sort -n -k2
