# shellcheck shell=bash disable=SC2034 # EVAL_QUICK and IMAGES are for the experiments
# eval/lib.sh - helpers every experiment script sources: boot an image under icount and keep
# its console log, pick the `bench`/`series` lines out of it, write data files, plot them.
# The experiments (depth.sh, util.sh, micro.sh, linux.sh) only say what to boot and plot;
# eval/run.sh runs them.  Environment (all optional):
#   EVAL_OUT     where data, plots and logs go (build/eval)
#   EVAL_JOBS    QEMUs booted at once (2)
#   EVAL_STAMP   a file: a log newer than it and from a clean run is reused (run.sh sets it)
#   EVAL_REPLAY  a directory of console logs NAME.log to read instead of booting (eval/test.sh)
#   EVAL_AS      the script to name in generated files (a wrapper that execs another one)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
EVAL_OUT=${EVAL_OUT:-build/eval}
EVAL_LOGS=$EVAL_OUT/logs
EVAL_JOBS=${EVAL_JOBS:-2}
EVAL_STAMP=${EVAL_STAMP:-}
EVAL_REPLAY=${EVAL_REPLAY:-}
EVAL_SCRIPT=${EVAL_AS:-eval/$(basename "$0")}
EVAL_SKIP=77 # an experiment's exit status when it had nothing to run
EVAL_QUICK=0
mkdir -p "$EVAL_LOGS"

# eval_args "$@": the options every experiment takes.
eval_args() {
	while [ $# -gt 0 ]; do
		case $1 in
		--quick) EVAL_QUICK=1 ;;
		*)
			echo "usage: $EVAL_SCRIPT [--quick]" >&2
			exit 2
			;;
		esac
		shift
	done
}

skipped() {
	echo "skipped: $*"
}

# image_known NAME: true if MANIFEST has the image (or, replaying, a log of it exists).
image_known() {
	if [ -n "$EVAL_REPLAY" ]; then
		[ -f "$EVAL_REPLAY/$1.log" ]
		return
	fi
	if [ -z "${manifest_images:-}" ]; then
		make -s --no-print-directory build/host/hrimage
		manifest_images=" $(build/host/hrimage MANIFEST --programs build/mod --list | tr '\n' ' ') "
	fi
	[[ $manifest_images == *" $1 "* ]]
}

# known_images NAME...: IMAGES=( the names MANIFEST has ), a "skipped:" line for each other.
known_images() {
	local n
	IMAGES=()
	for n; do
		if image_known "$n"; then IMAGES+=("$n"); else skipped "image $n not in MANIFEST"; fi
	done
}

# need_images NAME...: known_images, and the experiment ends as skipped if none is known.
need_images() {
	known_images "$@"
	[ ${#IMAGES[@]} -gt 0 ] || exit "$EVAL_SKIP"
}

# console_run NAME CMD...: run CMD with its console (stdout and stderr) in the log of NAME
# and its exit status in NAME.status; a log of this run (EVAL_STAMP) is reused.
console_run() {
	local name=$1 log=$EVAL_LOGS/$1.log status
	shift
	if [ -n "$EVAL_STAMP" ] && [ "$EVAL_LOGS/$name.status" -nt "$EVAL_STAMP" ] &&
		[ "$(cat "$EVAL_LOGS/$name.status")" = 0 ]; then
		return 0
	fi
	if [ -n "$EVAL_REPLAY" ]; then
		cp "$EVAL_REPLAY/$name.log" "$log"
		status=0
	else
		status=0
		"$@" >"$log" 2>&1 </dev/null || status=$?
	fi
	echo "$status" >"$EVAL_LOGS/$name.status"
	if [ "$status" != 0 ]; then
		echo "error: $name exited with status $status (console: $log)" >&2
		return 1
	fi
}

# boot_images NAME...: build each image's ISO, then boot them, EVAL_JOBS at a time, under
# icount; each run's timeout is the image's own TIMEOUT_S.  Fails if any run failed.
boot_images() {
	local n timeout_s failed=0
	if [ -z "$EVAL_REPLAY" ]; then
		for n; do
			make -s --no-print-directory image IMAGE="$n" >/dev/null
		done
	fi
	for n; do
		while [ "$(jobs -rp | wc -l)" -ge "$EVAL_JOBS" ]; do
			wait -n || true
		done
		# shellcheck source=/dev/null
		timeout_s=$(TIMEOUT_S=600 && . "build/images/$n/image.env" 2>/dev/null; echo "$TIMEOUT_S")
		console_run "$n" bash images/run.sh "build/images/$n/$n.iso" --icount \
			--timeout "$timeout_s" &
	done
	wait
	for n; do
		[ "$(cat "$EVAL_LOGS/$n.status")" = 0 ] || failed=1
	done
	return $failed
}

# console_lines KIND LOG: the `bench` or `series` lines of a console log, without the
# carriage returns and terminal escapes around them (the BIOS's, GRUB's).
console_lines() {
	tr -d '\r' <"$2" | sed -E 's/\x1b(\[[0-9;?]*[A-Za-z]|[@-Z\\^_`a-z])//g' |
		sed -nE 's/^(.*[^A-Za-z0-9_])?('"$1"' [A-Za-z0-9_]+( [A-Za-z0-9_.]+=[^ ]+)+) *$/\2/p'
}

# figure NAME KEY FILE...: KEY's value in the first `bench NAME` line of the given logs.
figure() {
	local name=$1 key=$2 f
	shift 2
	for f; do
		[ -f "$f" ] || continue
		console_lines bench "$f" | awk -v n="$name" -v k="$key" '
			$2 == n {
				for (i = 3; i <= NF; i++) if (index($i, k "=") == 1) { print substr($i, length(k) + 2); exit }
			}' | head -1 | grep . && return 0
	done
	return 1
}

# ratio A B: A/B to three decimals.
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f\n", b ? a / b : 0 }'
}

# split_series SUFFIX XKEY YKEY...: reads `bench`/`series` lines on stdin and writes one
# data file EVAL_OUT/ID-SUFFIX.dat per series: columns XKEY YKEY..., rows in input order.
# A series is a line's NAME with the values of its other keys (not XKEY, YKEYs, unit),
# so `series util t=5 res=rt1 pct=3` is series util-rt1.  Prints "ID LABEL" per series;
# LABEL is the NAME and those keys as they were written ("util res=rt1").  The files of an
# earlier run's series (ID-SUFFIX.*, plots too) go first, so only this run's remain; only
# this script's, so that irq (depth.sh as eval/irq.sh) leaves depth's alone.
split_series() {
	local suffix=$1 f
	shift
	for f in "$EVAL_OUT"/*-"$suffix".dat; do
		if [ -f "$f" ] && head -1 "$f" | grep -qF "# generated by $EVAL_SCRIPT: "; then
			rm -f "${f%.dat}".{dat,gp,png,svg}
		fi
	done
	awk -v dir="$EVAL_OUT" -v suffix="$suffix" -v keys="$*" -v by="$EVAL_SCRIPT" '
		BEGIN { nk = split(keys, k, " ") }
		{
			id = $2; label = $2; delete v
			for (i = 3; i <= NF; i++) {
				eq = index($i, "="); key = substr($i, 1, eq - 1); v[key] = substr($i, eq + 1)
				if (key == "unit") unit = v[key]
				else if (!(" " keys " " ~ " " key " ")) { id = id "-" v[key]; label = label " " $i }
			}
			row = ""
			for (j = 1; j <= nk; j++) row = row (j > 1 ? " " : "") (k[j] in v ? v[k[j]] : "?")
			f = dir "/" id "-" suffix ".dat"
			if (!(f in seen)) {
				seen[f] = 1
				print "# generated by " by ": " label " against " k[1] (unit != "" ? ", unit " unit : "") > f
				print "# " keys > f
				print id, label
			}
			print row > f
		}'
}

# The PNG terminal: pngcairo (antialiased) where this gnuplot has it.
plot_terminal() {
	if gnuplot -e 'set terminal pngcairo' </dev/null >/dev/null 2>&1; then
		echo "pngcairo size 900,560 font 'sans,11'"
	else
		echo "png size 900,560"
	fi
}

# plot BASE: the gnuplot commands on stdin go to BASE.gp, which makes BASE.png and BASE.svg.
plot() {
	local base=$1
	{
		echo "# generated by $EVAL_SCRIPT; gnuplot -e \"set terminal svg; set output 'x.svg'\" $base.gp"
		# noenhanced: figure names have underscores, which are not subscripts here
		echo "set termoption noenhanced; set grid; set key box opaque; set border 3; set tics nomirror"
		echo "set datafile missing '?'"
		cat
	} >"$base.gp"
	gnuplot -e "set terminal $(plot_terminal); set output '$base.png'" "$base.gp"
	gnuplot -e "set terminal svg size 900,560 dynamic font 'sans,11'; set output '$base.svg'" "$base.gp"
}
