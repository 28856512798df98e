#!/usr/bin/env bash
# Compares the signatures of `sente bench` (gomoku, go, ttt) with the committed bench.sig and
# exits non-zero on any difference, printing both. Usage: scripts/bench_check.sh [path/to/sente]
set -euo pipefail
cd "$(dirname "$0")/.."
sente=${1:-target/release/sente}
status=0
while read -r game expected; do
  case "$game" in ''|'#'*) continue ;; esac
  if [ "$game" = gomoku ]; then args=(bench); else args=(bench "$game"); fi
  got=$("$sente" "${args[@]}" 2>/dev/null | sed -n 's/^signature: //p' | tail -1)
  if [ "$got" = "$expected" ]; then
    echo "bench $game: signature $got as committed"
  else
    echo "bench $game: signature '${got}' differs from bench.sig's $expected" >&2
    status=1
  fi
done < bench.sig
exit $status
