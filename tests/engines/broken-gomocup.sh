#!/bin/sh
# A deliberately broken Gomocup brain for the arena's tests. $1 chooses how it misbehaves when a
# move is due (BEGIN, TURN, or DONE after BOARD):
#   garbage  answers "banana"
#   late     sleeps 600 s before answering (past any test's watchdog: only a kill ends it)
#   exits    plays 0,0, then exits at its next move, in the middle of the game
#   refuse   answers START with ERROR
mode=$1
n=0
while IFS= read -r line; do
  line=$(printf '%s' "$line" | tr -d '\r')
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
        *) echo "0,0" ;;
      esac ;;
    END*) exit 0 ;;
  esac
done
