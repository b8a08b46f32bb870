#!/bin/bash
# report.sh - the evaluation on one page, EVAL_OUT/report.html (`make report`, after
# `make eval`): every experiment's outcome, its table of figures, its plots (the PNGs beside
# the page, each linked to its SVG) and its checks, each figure and table with a paragraph:
# what it measures, the paper's counterpart (Parmer and West, RTAS 2011, section IV), ours,
# the ratio and whether the target held; then the machine, QEMU and the commit.
# It reads only what eval/run.sh left in EVAL_OUT: logs/E.out (an experiment's lines),
# logs/E.exit (its exit status; 77 is skipped) and the plots' .gp/.dat files.  An experiment
# without a log is "not run".  Text from logs is escaped (esc); eval/test.sh checks the page
# with eval/htmlcheck.py.  Usage: eval/report.sh
# shellcheck source=eval/lib.sh
. "$(dirname "$0")/lib.sh"
[ $# = 0 ] || { echo "usage: eval/report.sh (no arguments; EVAL_OUT says where)" >&2; exit 2; }

PAGE=$EVAL_OUT/report.html

# The experiments in the order eval/run.sh runs them, each "name|what it measures|the
# paper's counterpart".  A log of another experiment gets a section too, without the words.
CATALOGUE="micro|the round trip of an invocation into a component that returns at once (two page-table switches, four user/kernel crossings) and one switch between two threads of a subsystem, in image bench|section IV opens with the invocation: 0.815 µs on an Atom N330, against 10.305 µs for a pipe round trip between Linux threads (HiRES/Linux 0.079)
depth|what kernel operations cost in a subsystem at depth 0 (the root) to 16 of the hierarchy, in images depth-dD: the figures below say which|Fig. 4 (a) event and (c) alias, alias and zero, remove: flat at every depth; Fig. 5 timer: grows with depth
depth-busy|the depth experiment's figures while a busy best-effort task, the least urgent, spins in the root and in every level between it and the measuring subsystem, in images depth-busy-dD|none: the paper measured its hierarchy idle
preempt|the depth experiment's figures measured in the root while a busy best-effort task spins D levels below it (images preempt-dD): each timer wake-up preempts that thread and closes its levels 0 .. D, the worst case of a dispatch across levels, while the scheduler there takes a turn at every tick; the other figures are the root's own|none: the paper measured its hierarchy idle
walk|how late the root's timer runs when it falls in the work a subsystem D levels down does at every tick (its task wakes and sleeps, its scheduler idles, its ancestors hear of it), its samples swept across that work (images walk-dD): the median is how long the work is, the max how long an interrupt waits for a kernel path in it|none: the paper measured its hierarchy idle
walk-side|walk with a subsystem at depth 1 beside the levels, at their priority, ticking too (images walkside-dD): what a scheduler beside the deep one's path costs its work, and how late the deep task's own wake runs (walk_wake, recorded; a wake behind the one beside once made every level take a turn)|none: the paper measured its hierarchy idle
walk-two|walk with two subsystems side by side below the levels, at depth 1 to 16, both ticking (images walktwo-dD): at every tick one idles first and their parent takes a turn, and the other's idle walks every level; the root timer's max, recorded, not checked: it grows with the depth|none: the paper measured its hierarchy idle
irq|from a frame's interrupt arriving in the kernel to the first instruction of the event thread of the subsystem owning its port, at depth 0 to 16, in images irq-dD (a datagram from a second card every quarter tick); the target lines hold the goal of 5% at depth 16|Fig. 4 (b), I/O event latency from the NIC's interrupt to the event thread: little variation across depths (maxima 29.91 to 40.48 µs, the timer tick's interference)
web|HTTP connections per virtual second to the web server (lwIP) in the subsystem at depth 0 to 16 (images web-depth-dD): a client on a second card keeps 20 connections at once until 300 have ended; the Linux guest's servers beside it when a Linux kernel is at hand|Table III: 6356 connections/s at depth 0, 6294 at depth 1 (1% less; 0.990)
util|each reservation's share of the CPU in image rtmix: hard servers of 4/25, 3/20 and 1/10 ticks under EDF beside a best-effort subsystem in a deferrable server of budget 4 whose period goes from 8 to 16 to 32 ticks|Fig. 6, the same reservations with a web server as the best-effort subsystem: every share stays at its reservation in every phase
soak|each hard real-time reservation's share and missed periods while four children make a million random system calls and a rogue child invokes its parent at random|none: it tests isolation (goals G2 and G3) under attack
servers|the worst response of a low-priority job beside a 2/10 server whose work arrives at each phase of its period, for the deferrable (ds) and the sporadic (fprr) server, on a fake CPU|none: the classic deferrable against sporadic server comparison (Sprunt, Sha and Lehoczky)
perf|this run's medians of micro, depth, depth-busy (its timer and event), irq, preempt (its timer) and walk against eval/expected.txt, within 2% either way|none: the regression check
linux|the same operations on Linux (eval/linux/lbench.c as /init; for irq, eval/linux/lirq.c: a datagram from a second card to a process blocked in recvfrom, from the e1000 interrupt handler's entry) in the same QEMU, as medians against HiRES's|section IV: an invocation 0.815 µs against a Linux pipe's 10.305 µs (0.079); Fig. 4 (a) and (c) put Linux's pthread event and mmap/munmap beside HiRES"

# The paper's results no experiment measures (yet): "name|the paper's result".
UNMEASURED=""

esc() {
	sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g'
}

# lines E PREFIX: the lines of experiment E's log that begin with PREFIX (none without a log).
lines() {
	grep -a -e "^$2" "$EVAL_LOGS/$1.out" 2>/dev/null || true
}

# status E: ok, FAILED (exit N), skipped: reason, or not run.
status() {
	local e=$1 code
	[ -f "$EVAL_LOGS/$e.out" ] || { echo "not run"; return; }
	code=$(cat "$EVAL_LOGS/$e.exit" 2>/dev/null || echo "?")
	case $code in
	0) echo ok ;;
	"$EVAL_SKIP") echo "skipped: $(lines "$e" 'skipped: ' | sed 's/^skipped: //' | paste -s -d ';' -)" ;;
	"?") echo "ran, exit status unknown (run it with eval/run.sh)" ;;
	*) echo "FAILED (exit $code)" ;;
	esac
}

ran() {
	case $(status "$1") in ok | FAILED*) return 0 ;; *) return 1 ;; esac
}

# verdict CHECK-LINES...: whether the target held, from `check ... ok|FAIL` lines.
verdict() {
	local all=$1 n bad
	[ -n "$all" ] || { echo "no check in this run"; return; }
	n=$(grep -c . <<<"$all")
	bad=$(grep -c ': FAIL' <<<"$all" || true)
	if [ "$bad" = 0 ]; then
		echo "held ($n of $n checks ok)"
	else
		echo "did not hold ($bad of $n checks FAIL; first: $(grep -m1 ': FAIL' <<<"$all"))"
	fi
}

# kv KEY LINE: KEY's value in a `word NAME key=value ...` line.
kv() {
	tr ' ' '\n' <<<"$2" | sed -n "s/^$1=//p" | head -1
}

# The facts of a table or figure, set by facts_*: what it measures, the paper's counterpart,
# ours, the ratio, whether the target held.
F_WHAT="" F_PAPER="" F_OURS="" F_RATIO="" F_TARGET=""

# facts_experiment E: the facts of experiment E's table (its lines).
facts_experiment() {
	local e=$1 entry l
	entry=$(grep "^$e|" <<<"$CATALOGUE" || echo "$e|$e|none known")
	IFS='|' read -r _ F_WHAT F_PAPER <<<"$entry"
	F_OURS="" F_RATIO="" F_TARGET=$(verdict "$(lines "$e" 'check ')")
	case $e in
	micro)
		F_OURS=$(lines micro 'bench ' | awk '{ printf "%s%s median %s", (NR > 1 ? ", " : ""), $2, substr($3, 8) } END { print " instructions" }')
		l=$(lines linux 'compare invoke_rt ')
		F_RATIO=${l:+invocation HiRES/Linux $(kv ratio "$l") (paper 0.079)}
		F_TARGET="perf: $(verdict "$(lines perf 'check perf \(invoke_rt\|thd_switch\) ')")"
		;;
	depth) facts_depth_all ;;
	util | soak)
		F_OURS=$(lines "$e" 'bench ' | awk '/measured=/ {
			for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			d = v["measured"] - v["expected"]; if (d < 0) d = -d
			if (d >= max) max = d; n++; if (v["misses"] > miss) miss = v["misses"]
			lo = (n == 1 || v["measured"] / v["expected"] < lo) ? v["measured"] / v["expected"] : lo
			hi = (n == 1 || v["measured"] / v["expected"] > hi) ? v["measured"] / v["expected"] : hi
		} END { if (n) printf "%d shares measured, the furthest %.2f points from its reservation, at most %d missed periods|measured/reserved %.3f to %.3f\n", n, max, miss, lo, hi }')
		F_RATIO=${F_OURS#*|} F_OURS=${F_OURS%|*}
		[ "$e" = soak ] && [ "$(status soak)" = ok ] && F_TARGET="held (the image checks every share within 0.5 points and no misses)"
		;;
	servers)
		F_OURS=$(lines servers 'bench servers ' | awk '{ printf "%s%s worst %s ticks (bound %s)", (NR > 1 ? ", " : ""), substr($4, 8), substr($5, 7), substr($6, 7) } END { print "" }')
		F_RATIO=$(lines servers 'bench servers ' | awk '{ w[NR] = substr($5, 7) } END { if (w[1]) printf "sporadic/deferrable worst %.3f\n", w[2] / w[1] }')
		ran servers && F_TARGET="$( [ "$(status servers)" = ok ] && echo held || echo "did not hold") (each worst case at its bound, the sporadic server's below the deferrable's)"
		;;
	perf) F_OURS=$(lines perf 'perf: ') ;;
	web)
		F_OURS=$(lines web 'bench web ' | awk '{ printf "%s%s %s/s", (NR > 1 ? ", " : ""), $3, substr($4, 13) } END { if (NR) print "" }')
		l=$(lines web 'summary web ')
		F_RATIO=${l:+deepest/depth 0 $(kv ratio "$l") (paper 0.990 at depth 1)}
		;;
	linux) facts_compare ;;
	esac
	ran "$e" || F_TARGET="$(status "$e")"
}

# facts_depth_all: depth's ratios, depth 16 against depth 0, of every figure.
facts_depth_all() {
	F_OURS=$(lines depth 'summary ' | sed -E 's/^summary (.*) depth=([0-9]+) vs depth=([0-9]+) ratio=(.*)/\1 \4/' |
		paste -s -d ',' - | sed 's/,/, /g')
	F_OURS=${F_OURS:+median at the deepest depth over the shallowest: $F_OURS}
	F_RATIO=$(lines depth 'summary ' | sed 's/.*ratio=//' | sort -g | tail -1)
	F_RATIO=${F_RATIO:+largest $F_RATIO}
}

# facts_compare: HiRES against Linux, from linux's `compare` lines.
facts_compare() {
	F_OURS=$(lines linux 'compare ' | awk '{ printf "%s%s %s against %s", (NR > 1 ? ", " : ""), $2, substr($3, 7), substr($4, 7) } END { if (NR) print " instructions (HiRES against Linux)" }')
	F_RATIO=$(lines linux 'compare ' | awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $2, substr($5, 7) } END { print "" }')
	F_TARGET="no target: reported (below 1, HiRES does less work)"
	ran linux || F_TARGET=$(status linux)
}

# facts_figure E BASE: the facts of figure BASE.png of experiment E.
facts_figure() {
	local e=$1 base=$2 label d0 m0 dn mn
	facts_experiment "$e"
	F_WHAT="$(sed -n 's/^set title "\(.*\)"$/\1/p' "$EVAL_OUT/$base.gp" | head -1)"
	case $e:$base in
	depth:depth)
		F_WHAT="$F_WHAT: every figure's median divided by its median at the shallowest depth"
		;;
	depth:*-depth)
		label=$(sed -n '1s/^# generated by [^:]*: \(.*\) against depth.*/\1/p' "$EVAL_OUT/$base.dat")
		F_PAPER=$(depth_paper "${label%% *}")
		read -r d0 m0 _ < <(grep -v '^#' "$EVAL_OUT/$base.dat" | head -1)
		read -r dn mn _ < <(grep -v '^#' "$EVAL_OUT/$base.dat" | tail -1)
		F_WHAT="$F_WHAT ($(depth_what "${label%% *}")); solid the median, dotted the p99, dashed the maximum"
		F_OURS="median $m0 instructions at depth $d0, $mn at depth $dn"
		F_RATIO="depth $dn/depth $d0 $(lines depth "summary $label depth=" | sed 's/.*ratio=//')"
		F_TARGET=$(verdict "$(lines depth "check $label median ")")
		;;
	esac
}

depth_what() {
	case $1 in
	alias) echo "map one page into a child" ;;
	alias_zero) echo "map one page into a child and zero it" ;;
	remove) echo "unmap that page" ;;
	event) echo "thread A triggers an event that wakes a higher-priority thread B; from the trigger to B running" ;;
	timer) echo "from a deadline between two ticks, when the one-shot timer interrupt arrives, to the thread waiting for it running" ;;
	*) echo "see the benchmark program in subsystems/" ;;
	esac
}

depth_paper() {
	case $1 in
	alias | alias_zero | remove) echo "Fig. 4 (c), alias, alias and zero, remove against depth: flat" ;;
	event) echo "Fig. 4 (a), event latency between two threads against depth: flat (Linux's pthreads beside it)" ;;
	timer) echo "Fig. 5, timer notification against depth: grows in proportion to depth in the paper (the tick travels through every child scheduler thread); the target here is flat" ;;
	*) echo "none" ;;
	esac
}

# paragraph: the facts as one paragraph.
paragraph() {
	printf '<p><b>Measures:</b> %s. <b>Paper:</b> %s. <b>Ours:</b> %s. <b>Ratio:</b> %s. <b>Target:</b> %s.</p>\n' \
		"$(esc <<<"$F_WHAT")" "$(esc <<<"$F_PAPER")" "$(esc <<<"${F_OURS:-nothing measured}")" \
		"$(esc <<<"${F_RATIO:-none}")" "$(esc <<<"${F_TARGET:-none}")"
}

# row ITEM: the facts as a row of the summary table.
row() {
	printf '<tr><td>%s</td>' "$1"
	printf '<td>%s</td>' "$(esc <<<"$F_PAPER")" "$(esc <<<"${F_OURS:--}")" "$(esc <<<"${F_RATIO:--}")" \
		"$(esc <<<"${F_TARGET:--}")"
	echo "</tr>"
}

# figures E: the plots experiment E made (their .gp files name it), the overview first.
figures() {
	local gp
	grep -l "^# generated by eval/$1.sh;" "$EVAL_OUT"/*.gp 2>/dev/null | while read -r gp; do
		[ ! -f "${gp%.gp}.png" ] || basename "${gp%.gp}"
	done | awk -v e="$1" '$0 == e { print; next } { rest[++n] = $0 } END { for (i = 1; i <= n; i++) print rest[i] }'
}

# table E: experiment E's figure lines (bench, compare) as a table: one column per key (the
# summary lines' ratios are in the paragraphs).
table() {
	lines "$1" '\(bench\|compare\) ' | esc | awk '
		{
			row[NR] = $1 " " $2
			for (i = 3; i <= NF; i++) {
				eq = index($i, "="); k = eq ? substr($i, 1, eq - 1) : "note"
				if (!(k in col)) { col[k] = ++ncol; name[ncol] = k }
				cell[NR, col[k]] = eq ? substr($i, eq + 1) : cell[NR, col[k]] " " $i
			}
		}
		END {
			if (!NR) exit
			printf "<table><tr><th>line</th>"
			for (c = 1; c <= ncol; c++) printf "<th>%s</th>", name[c]
			print "</tr>"
			for (r = 1; r <= NR; r++) {
				printf "<tr><td>%s</td>", row[r]
				for (c = 1; c <= ncol; c++) printf "<td>%s</td>", cell[r, c]
				print "</tr>"
			}
			print "</table>"
		}'
}

# checks E: experiment E's check lines, the failures marked.
checks() {
	local all
	all=$(lines "$1" 'check ')
	[ -n "$all" ] || return 0
	echo "<ul class=\"checks\">"
	esc <<<"$all" | sed -E -e 's|^(.*: FAIL.*)$|<li class="fail">\1</li>|' -e '/^<li/!s|^(.*)$|<li>\1</li>|'
	echo "</ul>"
}

section() {
	local e=$1 st base
	st=$(status "$e")
	echo "<section id=\"$e\"><h2>$e: $(esc <<<"$st")</h2>"
	[ -f "$EVAL_LOGS/$e.out" ] &&
		echo "<p class=\"when\">log: logs/$e.out, $(date -r "$EVAL_LOGS/$e.out" '+%F %T')</p>"
	facts_experiment "$e"
	paragraph
	if ran "$e"; then
		table "$e"
		checks "$e"
		for base in $(figures "$e"); do
			facts_figure "$e" "$base"
			echo "<figure id=\"fig-$base\"><a href=\"$base.svg\"><img src=\"$base.png\" alt=\"$base: $(esc <<<"$F_WHAT")\"></a>"
			echo "<figcaption><b>$base</b>"
			paragraph
			echo "</figcaption></figure>"
		done
	fi
	echo "</section>"
}

# every experiment of the catalogue, then those with a log the catalogue does not name
experiments() {
	cut -d'|' -f1 <<<"$CATALOGUE"
	for f in "$EVAL_LOGS"/*.out; do
		[ -f "$f" ] || continue
		f=$(basename "$f" .out)
		[ "$f" = selftest ] || grep -q "^$f|" <<<"$CATALOGUE" || echo "$f"
	done
}

# summary_table: a row per experiment, and one per figure with figures of its own.
summary_table() {
	local e base name result same
	echo "<table><tr><th>item</th><th>paper</th><th>ours</th><th>ratio</th><th>target</th></tr>"
	for e in $(experiments); do
		facts_experiment "$e"
		row "<a href=\"#$e\">$e</a>"
		same="$F_OURS|$F_RATIO|$F_TARGET"
		ran "$e" || continue
		for base in $(figures "$e"); do
			facts_figure "$e" "$base"
			[ "$F_OURS|$F_RATIO|$F_TARGET" = "$same" ] || row "<a href=\"#fig-$base\">$base</a>"
		done
	done
	while IFS='|' read -r name result; do
		[ -n "$name" ] || continue
		F_PAPER="$name: $result" F_OURS="" F_RATIO="" F_TARGET="not run: no experiment measures it"
		row "$(esc <<<"$name")"
	done <<<"$UNMEASURED"
	echo "</table>"
}

machine() {
	local commit
	commit=$(git rev-parse HEAD 2>/dev/null || echo unknown)
	git diff --quiet HEAD 2>/dev/null || commit="$commit (with uncommitted changes)"
	echo "<table>"
	printf '<tr><th>%s</th><td>%s</td></tr>\n' \
		made "$(date '+%F %T %Z')" \
		commit "$(esc <<<"$commit")" \
		machine "$(uname -srmo | esc)" \
		CPU "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | sort | uniq -c | sed 's/^ *\([0-9]*\) /\1 x /' | paste -s -d ';' - | esc)" \
		QEMU "$(qemu-system-x86_64 --version 2>/dev/null | head -1 | esc)" \
		gnuplot "$(gnuplot --version 2>/dev/null | esc)"
	echo "</table>"
}

page() {
	cat <<'EOF'
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>HiRES evaluation</title>
<style>
body { font-family: sans-serif; max-width: 70em; margin: 1em auto; padding: 0 1em; }
table { border-collapse: collapse; margin: 0.5em 0; font-size: 90%; }
th, td { border: 1px solid #bbb; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
img { max-width: 100%; }
.fail, .checks .fail { color: #b00; font-weight: bold; }
.when { color: #666; }
</style>
</head>
<body>
<h1>HiRES evaluation</h1>
<p>Made by eval/report.sh from what eval/run.sh left in this directory; docs/EVAL.md says
how each experiment works.  Every figure counts instructions under QEMU's
<code>-icount shift=0,sleep=off</code>, so runs repeat exactly and only ratios within one run
carry over to other machines; the paper's figures are microseconds on an Atom N330.</p>
EOF
	echo "<h2>Against the paper</h2>"
	summary_table
	for e in $(experiments); do
		section "$e"
	done
	echo "<h2>Where it ran</h2>"
	machine
	echo "</body>"
	echo "</html>"
}

page >"$PAGE.tmp"
mv "$PAGE.tmp" "$PAGE"
echo "report: $PAGE"
