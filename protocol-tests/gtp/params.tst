# KataGo's parameter commands over the playing level's tunable settings (the names of
# `sente params go`): list them, read one, set one; a name the level does not have or a value
# outside the setting's range is refused and changes nothing.

1 known_command kata-set-param
#? [true]
2 kata-list-params
#? [resign_winrate resign_min_visits claim_winrate .* explore .* crit_min_sims score_weight score_scale]
3 kata-get-param explore
#? [0.1]
4 kata-set-param explore 0.25
#? []
5 kata-get-param explore
#? [0.25]
6 kata-set-param explore many
#? ?[.*explore=many.*]
7 kata-set-param explore 1000
#? ?[.*outside 0 ..= 100.*]
8 kata-get-param explore
#? [0.25]
9 kata-get-param nosuch
#? ?[unknown parameter nosuch of mcts]
10 kata-set-param nosuch 1
#? ?[unknown parameter nosuch of mcts]
11 kata-set-param explore
#? ?[.*kata-set-param NAME VALUE.*]
12 kata-set-param resign_winrate 0.1
#? []
13 genmove b
#? [[A-HJ-T][1-9][0-9]?|pass|resign]

# The heuristic level has settings of its own.
20 sente-level heuristic
#? []
21 kata-list-params
#? [pass_threshold dead_stone_playouts]
22 kata-set-param explore 0.1
#? ?[unknown parameter explore of heuristic]
