#!/bin/sh
# A GTP engine for the arena's seeding tests: it appends every command it gets (without its id)
# to the file $2 and resigns at every genmove; fixed_handicap always places G7 C3 (9x9's two
# stones, whatever was asked, so that the arena's check can be seen to refuse). $1 says whether it has GNU Go's set_random_seed:
#   lists   lists it in list_commands and accepts it
#   silent  does not list it and answers it "? unknown command"
mode=$1
log=$2
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
  printf '%s\n' "$*" >> "$log"
  case "$1" in
    protocol_version) printf '=%s 2\n\n' "$id" ;;
    name) printf '=%s seed-%s\n\n' "$id" "$mode" ;;
    list_commands)
      printf '=%s protocol_version\nname\nlist_commands\nboardsize\nclear_board\nkomi\nplay\ngenmove\nquit\n' "$id"
      if [ "$mode" = lists ]; then printf 'set_random_seed\n'; fi
      printf '\n' ;;
    set_random_seed)
      if [ "$mode" = lists ]; then printf '=%s \n\n' "$id"; else printf '?%s unknown command\n\n' "$id"; fi ;;
    genmove) printf '=%s resign\n\n' "$id" ;;
    fixed_handicap) printf '=%s G7 C3\n\n' "$id" ;;
    quit) printf '=%s \n\n' "$id"; exit 0 ;;
    *) printf '=%s \n\n' "$id" ;;
  esac
done
