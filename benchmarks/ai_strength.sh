#!/usr/bin/env bash
# Strength targets of issue 5, measured with the tournament (single deals, 4 players).
#   hard vs 3 medium: President rate >= 40% (fair 25%), mean points >= 3.0 (fair 2.5)
#   medium vs 3 easy: President rate >= 35%
# Usage: benchmarks/ai_strength.sh [GAMES] [JOBS]   (GAMES should be a multiple of 4: seats rotate)
set -euo pipefail
games=${1:-1000}
jobs=${2:-2}
out=${OUT:-benchmarks/results}
mkdir -p "$out"
president tournament --seats hard,medium,medium,medium --games "$games" --seed 1 --jobs "$jobs" --json "$out/hard_vs_medium.json"
president tournament --seats medium,easy,easy,easy --games "$((games * 10))" --seed 1 --jobs "$jobs" --json "$out/medium_vs_easy.json"
