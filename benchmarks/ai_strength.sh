#!/usr/bin/env bash
# Strength and speed targets of issue 12, measured with the tournament (single deals, 4 players).
#   hard vs 3 medium: President rate >= 40% (fair 25%), mean points >= 3.0 (fair 2.5),
#                     decision time p50 <= 50 ms, p99 <= 250 ms (in the JSON: decision_ms_p50/p99)
#   medium vs 3 easy: President rate >= 35% (must not regress)
# Usage: benchmarks/ai_strength.sh [GAMES] [JOBS]   (GAMES should be a multiple of 4: seats rotate)
# CLUSTER=tcp://host:8786 plays them on a Dask cluster instead of JOBS local processes.
set -euo pipefail
games=${1:-1000}
jobs=${2:-2}
out=${OUT:-benchmarks/results}
mkdir -p "$out"
where=(--jobs "$jobs")
if [ -n "${CLUSTER:-}" ]; then where=(--cluster "$CLUSTER"); fi
president tournament --seats hard,medium,medium,medium --games "$games" --seed 1 "${where[@]}" --json "$out/hard_vs_medium.json"
president tournament --seats medium,easy,easy,easy --games "$((games * 10))" --seed 1 "${where[@]}" --json "$out/medium_vs_easy.json"
president tournament --ladder easy,medium,hard --games "$games" --seed 1 "${where[@]}" --json "$out/ladder.json" --plot "$out/ladder.svg"
# how much of hard's gap to the targets is information (a diagnostic that reads hidden hands on purpose)
python benchmarks/hard_information.py "$games" --jobs "$jobs" | tee "$out/hard_information.txt"
