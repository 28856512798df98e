#!/bin/sh
# A deliberately broken GTP engine for the arena's tests. $1 chooses how it misbehaves at
# genmove:
#   garbage  answers "= banana"
#   late     sleeps 600 s before answering (past any test's watchdog: only a kill ends it)
#   exits    exits at the first genmove that comes after a play (in the middle of a game)
#   wrongid  answers genmove with another command id
#   noblank  answers genmove without the empty line that ends a response
#   stubborn always answers A1 (illegal once A1 is taken)
mode=$1
n=0
while IFS= read -r line; do
  line=$(printf '%s' "$line" | tr -d '\r')
  set -f
  # shellcheck disable=SC2086
  set -- $line
  set +f
  id=""
  case "$1" in
    '' | *[!0-9]*) ;;
    *) id=$1; shift ;;
  esac
  case "$1" in
    protocol_version) printf '=%s 2\n\n' "$id" ;;
    name) printf '=%s broken-%s\n\n' "$id" "$mode" ;;
    clear_board) n=0; printf '=%s \n\n' "$id" ;;
    genmove)
      case "$mode" in
        garbage) printf '=%s banana\n\n' "$id" ;;
        late) sleep 600; printf '=%s A1\n\n' "$id" ;;
        exits)
          if [ "$n" -gt 0 ]; then exit 1; fi
          printf '=%s A1\n\n' "$id" ;;
        wrongid) printf '=999 A1\n\n' ;;
        noblank) printf '=%s A1\n' "$id" ;;
        *) printf '=%s A1\n\n' "$id" ;;
      esac ;;
    play) n=$((n + 1)); printf '=%s \n\n' "$id" ;;
    quit) printf '=%s \n\n' "$id"; exit 0 ;;
    *) printf '=%s \n\n' "$id" ;;
  esac
done
