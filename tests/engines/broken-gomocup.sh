#!/bin/sh
# A deliberately broken Gomocup brain for the arena's tests. $1 chooses how it misbehaves when a
# move is due (BEGIN, TURN, or DONE after BOARD):
#   garbage  answers "banana"
#   late     sleeps 600 s before answering (past any test's watchdog: only a kill ends it)
#   exits    plays 0,0, then exits at its next move, in the middle of the game
#   refuse   answers START with ERROR
#   stray    answers its first move with two lines, ERROR busy and ERROR stray (an engine
#            out of step, as Rapfi is after a dropped command)
#   hasty    refuses (ERROR too soon) any line that arrives within 100 ms of its last move,
#            as Rapfi drops a command that comes while its search winds down; plays 0,n
mode=$1
n=0
moved_ns=0
while IFS= read -r line; do
  line=$(printf '%s' "$line" | tr -d '\r')
  if [ "$mode" = hasty ] && [ "$moved_ns" -gt 0 ] &&
    [ $(( $(date +%s%N) - moved_ns )) -lt 100000000 ]; then
    echo "ERROR too soon: $line"
    moved_ns=0
    continue
  fi
  case "$line" in
    ABOUT*) echo "name=\"broken-$mode\"" ;;
    START*)
      if [ "$mode" = refuse ]; then echo "ERROR unsupported size"; else echo OK; fi
      n=0 ;;
    BEGIN*|TURN*|DONE*)
      case "$mode" in
        garbage) echo "MESSAGE thinking hard"; echo banana ;;
        late) sleep 600; echo "0,0" ;;
        exits)
          if [ "$n" -ge 1 ]; then exit 1; fi
          echo "0,$n"; n=$((n + 1)) ;;
        stray) echo "ERROR busy"; echo "ERROR stray" ;;
        hasty) echo "0,$n"; n=$((n + 1)); moved_ns=$(date +%s%N) ;;
        *) echo "0,0" ;;
      esac ;;
    END*) exit 0 ;;
  esac
done
