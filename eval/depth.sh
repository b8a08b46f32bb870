#!/bin/bash
# depth.sh - what kernel operations cost against the depth of the subsystem that makes them
# (HiRES's claim: the same at any depth).  Boots depth-d0 .. depth-d16 (--quick: d0, d1
# and d16), echoes every `bench` line, writes EVAL_OUT/NAME-depth.dat (depth median max
# p99; p99 is `?` for a line without one) and a plot per figure (median, p99, max),
# depth.png with every figure's median relative to the shallowest depth, and one line per
# figure: `summary NAME depth=16 vs depth=0 ratio=R` (ratio of medians).
# The claim is checked, not only plotted (`check ... ok|FAIL` lines; the experiment fails on
# any FAIL): below the root the cost is flat, the median at the deepest depth within
# DEPTH_FLAT_SLACK (default 0.02) of depth 1's; and the root, which has no parent to tell,
# is at most DEPTH_ROOT_SLACK (default 0.03: the timer at depth 16 is 1.4% above the root,
# its child's wake notice and the ancestors noted to tell later) cheaper.  Under icount the
# counts are exact, so this is not a timing test.
# DEPTH_CHECK=max makes the checks compare maxima instead (walk.sh: its samples sweep the
# work they meet on purpose, so the median says how long that work is, the max how long an
# interrupt waits for it).
# DEPTH_BY_IMAGE=1 takes each line's depth from its image's name (NAME-dD), not from the
# line; DEPTH_XLABEL and DEPTH_AGAINST then say in the plots what that depth is.
# DEPTH_IMAGE=NAME sweeps another image generated for depths (NAME-d0 ..); its overall files
# are then NAME.lines and NAME.png instead of depth.*; DEPTH_SUFFIX=S names its per-figure
# files ID-S.dat (default ID-depth.dat) so that they do not replace another sweep's.  DEPTH_TARGET=R also prints, for the
# record, whether each figure's median and max at the deepest depth are within R of depth 0
# (`target ... met|not met`): a goal, not a check.  The goals of a constant worst case are
# printed the same way for every figure: max and p99 at the deepest depth within
# DEPTH_TAIL_GOAL (0.05) of depth 1's, the median within DEPTH_MEDIAN_GOAL (0.02) of
# depth 0's.
# DEPTH_HI=N sweeps NAME-d0 .. NAME-dN (default 16; --quick: d0, d1 and dN), and
# DEPTH_OFFSET=K, with DEPTH_BY_IMAGE=1, says each line's depth is D + K (walk-two.sh: two
# subsystems one level below the D levels).
# DEPTH_RECORDED="NAME ..." names figures that are measured, plotted and given their goal
# lines but not checked (walk-side.sh: walk_wake, how late the deep task's own wake runs,
# whose max is not flat yet; eval/expected.txt bounds its median).
# shellcheck source=eval/lib.sh
. "$(dirname "$0")/lib.sh"
eval_args "$@"

hi=${DEPTH_HI:-16}
depths=$(seq 0 "$hi")
[ "$EVAL_QUICK" = 1 ] && depths="0 1 $hi"
image=${DEPTH_IMAGE:-depth}
suffix=${DEPTH_SUFFIX:-depth}
# shellcheck disable=SC2046
need_images $(for d in $depths; do echo "$image-d$d"; done)
boot_images "${IMAGES[@]}"

# by_image D: the lines as read; with DEPTH_BY_IMAGE=1, their depth= says the image's D
# instead (preempt.sh: the root measures, and D is how deep the thread it preempts is)
by_image() {
	if [ "${DEPTH_BY_IMAGE:-0}" = 1 ]; then
		sed -E "s/ depth=[0-9]+/ depth=$(($1 + ${DEPTH_OFFSET:-0}))/"
	else
		cat
	fi
}

# every figure line as read; the data get depth=D where a line does not say it
lines=$EVAL_OUT/$image.lines
: >"$lines"
for n in "${IMAGES[@]}"; do
	console_lines bench "$EVAL_LOGS/$n.log" | by_image "${n##*-d}" | tee "$lines.one"
	awk -v d="$((${n##*-d} + ${DEPTH_OFFSET:-0}))" '/ depth=/ { print; next } { print $0 " depth=" d }' \
		"$lines.one" >>"$lines"
done
rm -f "$lines.one"
[ -s "$lines" ] || { echo "error: no bench lines in the depth images' consoles" >&2; exit 1; }

# both kinds of plot: depth along x, from zero up on y
axes='set xlabel "'"${DEPTH_XLABEL:-depth of the subsystem (0 = root)}"'"
set xrange [-0.5:16.5]; set xtics 0,2,16
set yrange [0:*]; set offsets 0, 0, graph 0.08, 0
set key bottom right'

# check LABEL WHAT RATIO SLACK: one check line; a ratio above 1 + SLACK fails the experiment.
failed=0
check() {
	if awk -v r="$3" -v s="$4" 'BEGIN { exit !(r <= 1 + s) }'; then
		echo "check $1 $2 within $4: ok (ratio $3)"
	else
		echo "check $1 $2 within $4: FAIL (ratio $3)"
		failed=1
	fi
}

# target LABEL DAT R: is the deepest depth's median and max within R of depth 0's?
target() {
	local d0 m0 x0 dn mn xn
	read -r d0 m0 x0 < <(grep -v '^#' "$2" | head -1)
	read -r dn mn xn < <(grep -v '^#' "$2" | tail -1)
	target_one "$1" median "$mn" "$m0" "$3" "$dn" "$d0"
	target_one "$1" max "$xn" "$x0" "$3" "$dn" "$d0"
}

# goals LABEL DAT: the target lines of a constant worst case (see the top of this file).
goals() {
	local d0 m0 dn mn xn pn d1 x1 p1
	read -r d0 m0 _ < <(grep -v '^#' "$2" | head -1)
	read -r dn mn xn pn < <(grep -v '^#' "$2" | tail -1)
	read -r d1 _ x1 p1 < <(grep -v '^#' "$2" | awk '$1 == 1')
	if [ -n "$d1" ] && [ "$dn" != 1 ]; then
		target_one "$1" max "$xn" "$x1" "${DEPTH_TAIL_GOAL:-0.05}" "$dn" 1
		[ "$pn" != "?" ] && [ "$p1" != "?" ] &&
			target_one "$1" p99 "$pn" "$p1" "${DEPTH_TAIL_GOAL:-0.05}" "$dn" 1
	fi
	target_one "$1" median "$mn" "$m0" "${DEPTH_MEDIAN_GOAL:-0.02}" "$dn" "$d0"
}

# target_one LABEL WHAT DEEP BASE R DN D0: one target line.
target_one() {
	local verdict="not met"
	awk -v a="$3" -v b="$4" -v r="$5" 'BEGIN { exit !(a <= b * (1 + r)) }' && verdict=met
	echo "target $1 $2 depth=$6 within $5 of depth=$7: $verdict (ratio $(ratio "$3" "$4"))"
}

relative=()
while read -r id label; do
	dat=$EVAL_OUT/$id-$suffix.dat
	read -r d0 m0 x0 _ < <(grep -v '^#' "$dat" | head -1)
	read -r dn mn xn _ < <(grep -v '^#' "$dat" | tail -1)
	read -r _ m1 x1 _ < <(grep -v '^#' "$dat" | awk '$1 == 1')
	r=$(ratio "$mn" "$m0")
	echo "summary $label depth=$dn vs depth=$d0 ratio=$r"
	[ -n "${DEPTH_TARGET:-}" ] && target "$label" "$dat" "$DEPTH_TARGET"
	goals "$label" "$dat"
	if [ "${DEPTH_CHECK:-median}" = max ]; then
		fig=max c0=$x0 cn=$xn c1=$x1
	else
		fig=median c0=$m0 cn=$mn c1=$m1
	fi
	if [[ " ${DEPTH_RECORDED:-} " == *" $label "* ]]; then
		echo "record $label: measured, not checked (DEPTH_RECORDED)"
	else
		check "$label" "$fig depth=$dn vs depth=$d0" "$(ratio "$cn" "$c0")" \
			"${DEPTH_ROOT_SLACK:-0.03}"
		[ -n "$c1" ] && check "$label" "$fig depth=$dn vs depth=1" "$(ratio "$cn" "$c1")" \
			"${DEPTH_FLAT_SLACK:-0.02}"
	fi
	relative+=("'$dat' using 1:(\$2/$m0) with linespoints lw 2 title '$label'")
	plot "$EVAL_OUT/$id-$suffix" <<EOF
set title "$label: cost against ${DEPTH_AGAINST:-subsystem depth}"
set ylabel "instructions"
$axes
plot '$dat' using 1:2 with linespoints lw 2 pt 7 title 'median', \\
     '' using 1:4 with linespoints dt 3 pt 4 title 'p99', \\
     '' using 1:3 with linespoints dt 2 pt 6 title 'max'
EOF
done < <(split_series "$suffix" depth median max p99 <"$lines")

plot "$EVAL_OUT/$image" <<EOF
set title "Cost against ${DEPTH_AGAINST:-subsystem depth}, relative to the shallowest depth (medians)"
set ylabel "median / median at the shallowest depth"
$axes
plot $(IFS=,; echo "${relative[*]}")
EOF
[ "$failed" = 0 ]
