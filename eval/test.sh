#!/bin/bash
# test.sh - the evaluation scripts against synthetic consoles (EVAL_REPLAY), so they are
# tested before the images they read exist: parsing through escapes and carriage returns,
# data files, plots, ratios, missing images.  One line per case, then "N passed, N failed".
# Output goes to build/eval/selftest.  Run by eval/run.sh --quick.
set -euo pipefail

cd "$(dirname "$0")/.."
dir=build/eval/selftest
consoles=$dir/consoles
passed=0 failed=0
rm -rf "$dir"
mkdir -p "$consoles"

# a console as QEMU shows it: BIOS and GRUB escapes, \r\n line ends, noise around the lines
console() {
	printf '\033c\033[?7l\033[2JSeaBIOS\r\n\033[0;30;47mWelcome to GRUB\033[H\033[J\r\n'
	printf 'Booting from ROM..\033c\033[?7l\033[2J'
	printf '%s\r\n' "[root] child 'bench' exited" "bench broken" "$@"
}

# alias, alias_zero and event with a p99, remove and timer in the older form without one
for d in $(seq 0 16); do
	console "bench alias depth=$d median=$((400 + d)) p99=$((410 + d)) max=$((420 + d)) unit=instr" \
		"bench alias_zero depth=$d median=1400 p99=1450 max=1500 unit=instr" \
		"[k] noise bench remove depth=$d median=300 max=310 unit=instr" \
		"bench event depth=$d res=rt1 median=$((1000 + 10 * d)) p99=$((1500 + 20 * d)) max=2000 unit=instr" \
		"bench timer median=500 max=$((600 + d)) unit=instr" >"$consoles/depth-d$d.log"
	console "bench irq depth=$d median=1200 p99=1300 max=1400 unit=instr" >"$consoles/irq-d$d.log"
	# under load: flat but for the timer's p99, which grows
	console "bench event depth=$d median=1000 p99=1100 max=2000 unit=instr" \
		"bench timer depth=$d median=500 p99=$((600 + 10 * d)) max=3000 unit=instr" \
		>"$consoles/depth-busy-d$d.log"
	# the root measures, every line says depth=0; its timer grows with the image's D
	console "bench event depth=0 median=900 p99=900 max=1000 unit=instr" \
		"bench timer depth=0 median=$((1000 + 10 * d)) p99=$((1010 + 10 * d)) max=1100 unit=instr" \
		>"$consoles/preempt-d$d.log"
	# walk: a median that grows passes; the max is what the checks bound
	console "bench walk_timer depth=0 median=$((960 + 20 * d)) p99=1900 max=$((2000 + 5 * d)) unit=instr" \
		>"$consoles/walk-d$d.log"
	# walk-side: the same sweep, its own images and files; a max that grows fails; from
	# depth 1 the deep task's wake too, recorded (its max grows and fails nothing)
	wake=()
	[ "$d" -gt 0 ] &&
		wake=("bench walk_wake depth=$d median=4000 p99=7000 max=$((7000 + 200 * d)) unit=instr")
	console "bench walk_timer depth=0 median=1200 p99=2300 max=$((2300 + 20 * d)) unit=instr" \
		"${wake[@]}" >"$consoles/walkside-d$d.log"
	# walk-two: images d0 .. d15, each line at depth D + 1; its max grows and fails nothing
	[ "$d" -lt 16 ] &&
		console "bench walk_timer depth=0 median=1500 p99=2250 max=$((2300 + 60 * d)) unit=instr" \
			>"$consoles/walktwo-d$d.log"
done
console "bench invoke_rt median=384 max=384 unit=instr" \
	"bench thd_switch median=331 max=7490 unit=instr" >"$consoles/bench.log"
{
	console "bench util res=rt1 period=25 phase=1 expected=16.00 measured=15.98 unit=pct"
	for t in $(seq 0 10 200); do
		printf 'series util t=%s res=rt1 pct=%s\r\n' "$t" "$((16 + t % 3))"
		printf 'series util t=%s res=rt2 pct=%s\r\n' "$t" "$((40 - t % 5))"
	done
} >"$consoles/rtmix.log"
console "bench linux_pipe_rt median=11543 max=19102 unit=instr" \
	"bench linux_yield median=1598 max=1659 unit=instr" \
	"bench linux_mmap_touch median=10278 max=13258 unit=instr" \
	"bench linux_munmap median=9495 max=25990 unit=instr" \
	"bench linux_event median=3282 max=5902 unit=instr" "lbench: done" >"$consoles/linux.log"
printf '%s\r\n' "lirq: card 0 eth0 (10.0.2.15), card 1 eth1 (no address)" \
	"lirq: untraced run: 1050 sent, 1050 received; eth1 tx_packets +1050, eth0 rx_packets +1050" \
	"bench linux_irq_send median=13206 p99=13858 max=15180 unit=instr" \
	"lirq: traced run: 1250 sent, 1250 received; eth1 tx_packets +1250, eth0 rx_packets +1250" \
	"bench linux_irq_send_traced median=14792 p99=15449 max=17003 unit=instr" \
	"bench linux_irq median=9600 p99=10550 max=12109 unit=instr" "lirq: done" >"$consoles/irq-linux.log"
for d in 0 1 2 4 8 16; do
	console "web-client: conns=300 failed=0 conns_per_s=$((6000 - d)).5 mean=3000000 p95=4000000 unit=instr bytes=9" \
		"web-server: conns=300 instr_per_conn=90000" >"$consoles/web-depth-d$d.log"
done
printf '%s\r\n' "web-linux: server=busybox" \
	"web-client: conns=290 failed=10 conns_per_s=36.3 mean=38211316 p95=16284331 unit=instr bytes=9" \
	"webnet: latency p50=1 p99=2 max=3 instr; 2 connections took a virtual second or more; 0 frames not sent" \
	"web-linux: server=lwip" \
	"web-client: conns=300 failed=0 conns_per_s=10879.2 mean=1764230 p95=1980058 unit=instr bytes=9" \
	"web-linux: done" >"$consoles/web-linux.log"

check() {
	local name=$1
	shift
	if "$@" >/dev/null 2>&1; then
		echo "ok   eval $name"
		passed=$((passed + 1))
	else
		echo "FAIL eval $name"
		failed=$((failed + 1))
	fi
}

# experiment NAME [ARGS]: run eval/NAME.sh on the consoles; its output in $dir/NAME.out
experiment() {
	local status=0
	EVAL_OUT=$dir EVAL_REPLAY=$consoles EVAL_STAMP="" bash "eval/$1.sh" "${@:2}" \
		>"$dir/$1.out" 2>&1 || status=$?
	echo $status >"$dir/$1.status"
}

has() { grep -qxF -- "$2" "$dir/$1"; }
rows() { [ "$(grep -vc '^#' "$dir/$1")" = "$2" ]; }
plotted() { [ -s "$dir/$1.png" ] && [ -s "$dir/$1.svg" ] && head -c 4 "$dir/$1.png" | grep -q PNG; }

experiment micro
check micro_echoes_bench_lines has micro.out "bench invoke_rt median=384 max=384 unit=instr"
check micro_ignores_non_figure_lines bash -c "! grep -q 'broken\|exited' $dir/micro.out"

experiment depth
# event grows by 10 instructions a level: 16% at depth 16, which the experiment must refuse
check depth_fails_a_figure_that_grows_with_depth has depth.status 1
check depth_names_the_figure_that_grows has depth.out "check event res=rt1 median depth=16 vs depth=0 within 0.03: FAIL (ratio 1.160)"
check depth_passes_a_flat_figure has depth.out "check alias_zero median depth=16 vs depth=1 within 0.02: ok (ratio 1.000)"
check depth_echoes_lines_as_read has depth.out "bench alias depth=16 median=416 p99=426 max=436 unit=instr"
check depth_reads_line_after_noise has depth.out "bench remove depth=3 median=300 max=310 unit=instr"
check depth_writes_one_row_per_depth rows alias-depth.dat 17
check depth_row_is_depth_median_max_p99 has alias-depth.dat "16 416 436 426"
check depth_row_without_p99_has_unknown has timer-depth.dat "7 500 607 ?"
check depth_keeps_other_keys_apart has event-rt1-depth.dat "2 1020 2000 1540"
check depth_summarises_ratio has depth.out "summary alias depth=16 vs depth=0 ratio=1.040"
check depth_summary_names_other_keys has depth.out "summary event res=rt1 depth=16 vs depth=0 ratio=1.160"
check depth_plots_each_figure plotted alias-depth
check depth_plots_p99 grep -q "using 1:4 .* title 'p99'" "$dir/alias-depth.gp"
check depth_plots_all_relative plotted depth
check depth_target_max_against_depth1 has depth.out "target alias max depth=16 within 0.05 of depth=1: met (ratio 1.036)"
check depth_target_p99_against_depth1 has depth.out "target alias p99 depth=16 within 0.05 of depth=1: met (ratio 1.036)"
check depth_target_p99_not_met has depth.out "target event res=rt1 p99 depth=16 within 0.05 of depth=1: not met (ratio 1.197)"
check depth_target_median_against_depth0 has depth.out "target alias median depth=16 within 0.02 of depth=0: not met (ratio 1.040)"
check depth_target_median_met has depth.out "target alias_zero median depth=16 within 0.02 of depth=0: met (ratio 1.000)"
check depth_target_max_without_p99 has depth.out "target timer max depth=16 within 0.05 of depth=1: met (ratio 1.025)"
check depth_no_p99_target_without_p99 bash -c "! grep -q 'target timer p99' $dir/depth.out"

experiment depth --quick
check depth_quick_boots_three_depths rows alias-depth.dat 3

experiment depth-busy
check busy_sweeps_its_own_images has depth-busy.out "bench timer depth=16 median=500 p99=760 max=3000 unit=instr"
check busy_writes_its_own_files has timer-depth-busy.dat "16 500 3000 760"
check busy_keeps_the_plain_sweeps_files rows alias-depth.dat 3
check busy_plots plotted depth-busy
check busy_plots_each_figure plotted timer-depth-busy
check busy_names_itself grep -q '^# generated by eval/depth-busy.sh;' "$dir/depth-busy.gp"
experiment preempt --quick
check preempt_takes_depth_from_image has preempt.out "bench timer depth=16 median=1160 p99=1170 max=1100 unit=instr"
check preempt_writes_its_own_files has timer-preempt.dat "16 1160 1100 1170"
check preempt_one_row_per_image rows event-preempt.dat 3
check preempt_says_what_depth_is grep -q 'depth of the busy thread preempted' "$dir/timer-preempt.gp"
check preempt_target_median_not_met has preempt.out "target timer median depth=16 within 0.02 of depth=0: not met (ratio 1.160)"
check preempt_checks_bound_growth has preempt.out "check timer median depth=16 vs depth=1 within 0.03: FAIL (ratio 1.149)"
check preempt_fails_on_growth has preempt.status 1
check preempt_names_itself grep -q '^# generated by eval/preempt.sh;' "$dir/preempt.gp"
experiment walk --quick
check walk_takes_depth_from_image has walk.out "bench walk_timer depth=16 median=1280 p99=1900 max=2080 unit=instr"
check walk_checks_the_max has walk.out "check walk_timer max depth=16 vs depth=1 within 0.05: ok (ratio 1.037)"
check walk_not_the_median has walk.out "target walk_timer median depth=16 within 0.02 of depth=0: not met (ratio 1.333)"
check walk_passes_though_the_median_grows has walk.status 0
check walk_names_itself grep -q '^# generated by eval/walk.sh;' "$dir/walk.gp"
experiment walk-side --quick
check walk_side_sweeps_its_own_images has walk-side.out "bench walk_timer depth=16 median=1200 p99=2300 max=2620 unit=instr"
check walk_side_writes_its_own_files has walk_timer-walk-side.dat "16 1200 2620 2300"
check walk_side_checks_the_max has walk-side.out "check walk_timer max depth=16 vs depth=1 within 0.05: FAIL (ratio 1.129)"
check walk_side_fails_on_a_max_that_grows has walk-side.status 1
check walk_side_names_itself grep -q '^# generated by eval/walk-side.sh;' "$dir/walkside.gp"
check walk_side_records_the_wake has walk-side.out "record walk_wake: measured, not checked (DEPTH_RECORDED)"
check walk_side_does_not_check_the_wake bash -c "! grep -q '^check walk_wake' $dir/walk-side.out"
check walk_side_wake_from_depth_1 has walk_wake-walk-side.dat "1 4000 7200 7000"
check walk_side_wake_goal has walk-side.out "target walk_wake max depth=16 within 0.05 of depth=1: not met (ratio 1.417)"
experiment walk-two --quick
check walk_two_sweeps_d0_to_d15 has walk-two.out "bench walk_timer depth=16 median=1500 p99=2250 max=3200 unit=instr"
check walk_two_puts_each_line_one_below_its_levels has walk_timer-walk-two.dat "1 1500 2300 2250"
check walk_two_records_the_timer has walk-two.out "record walk_timer: measured, not checked (DEPTH_RECORDED)"
check walk_two_goal has walk-two.out "target walk_timer max depth=16 within 0.05 of depth=1: not met (ratio 1.391)"
check walk_two_passes_though_the_max_grows has walk-two.status 0
experiment irq --quick
check irq_writes_its_file has irq-depth.dat "16 1200 1400 1300"
check irq_keeps_the_depth_sweeps_files rows alias-depth.dat 3
check irq_names_itself grep -q '^# generated by eval/irq.sh;' "$dir/irq.gp"
check busy_target_p99 has depth-busy.out "target timer p99 depth=16 within 0.05 of depth=1: not met (ratio 1.246)"
check busy_passes_flat_medians has depth-busy.status 0

experiment util
check util_echoes_bench_util has util.out "bench util res=rt1 period=25 phase=1 expected=16.00 measured=15.98 unit=pct"
check util_writes_series_per_reservation has util-rt2-time.dat "10 40"
check util_writes_every_sample rows util-rt1-time.dat 21
check util_plots plotted util

experiment linux
check linux_echoes_lines has linux.out "bench linux_event median=3282 max=5902 unit=instr"
check linux_compares_medians has linux.out "compare invoke_rt hires=384 linux=11543 ratio=0.033"
check linux_compares_one_linux_figure_twice has linux.out "compare alias_zero hires=1400 linux=10278 ratio=0.136"
check linux_writes_compare_data has compare.dat "invoke_rt pipe_rt 384 11543"
check linux_plots plotted compare
check linux_echoes_irq_lines has linux.out "bench linux_irq median=9600 p99=10550 max=12109 unit=instr"
check linux_echoes_irq_send has linux.out "bench linux_irq_send median=13206 p99=13858 max=15180 unit=instr"
check linux_notes_the_wire has linux.out "note linux_irq: traced run: 1250 sent, 1250 received; eth1 tx_packets +1250, eth0 rx_packets +1250"
check linux_compares_irq has linux.out "compare irq hires=1200 linux=9600 ratio=0.125"
check linux_writes_irq_data has compare.dat "irq irq 1200 9600"
check linux_passes has linux.status 0

experiment web
check web_echoes_hires_rows has web.out "bench web depth=16 conns_per_s=5984.5 mean=3000000 p95=4000000 instr_per_conn=90000 unit=instr"
check web_echoes_linux_busybox has web.out "bench web_linux server=busybox conns_per_s=36.3 mean=38211316 p95=16284331 unit=instr"
check web_echoes_linux_lwip has web.out "bench web_linux server=lwip conns_per_s=10879.2 mean=1764230 p95=1980058 unit=instr"
check web_shows_linux_failures has web.out "note web_linux server=busybox: 10 of 300 connections failed"
check web_compares_with_busybox has web.out "compare web hires_depth16=5984.5 linux_busybox=36.3 ratio=164.862"
check web_says_target has web.out "target web ours >= linux: met (depth 16: 5984.5 connections/s, Linux with busybox httpd: 36.3)"
check web_tables_linux_rows has web-table.md "| Linux guest: busybox httpd | 36.3 | 38211316 | 16284331 | - |"
check web_passes has web.status 0

console "web-client: conns=300 failed=0 conns_per_s=5984.5 mean=3000000 p95=4000000 unit=instr bytes=9" \
	>"$consoles/web-depth-d16.log"
experiment web
check web_fails_when_a_server_does_not_report has web.status 1
check web_still_shows_its_client_row has web.out "bench web depth=16 conns_per_s=5984.5 mean=3000000 p95=4000000 instr_per_conn=? unit=instr"
check web_still_runs_linux has web.out "bench web_linux server=lwip conns_per_s=10879.2 mean=1764230 p95=1980058 unit=instr"

experiment web --quick
check web_quick_skips_linux has web.out "skipped: the Linux side (web_linux: not with --quick)"

rm "$consoles/rtmix.log"
experiment util
check missing_image_is_skipped_not_failed has util.status 77
check missing_image_says_so has util.out "skipped: image rtmix not in MANIFEST"

grep -v 'lirq: done' "$consoles/irq-linux.log" >"$dir/unfinished.log"
mv "$dir/unfinished.log" "$consoles/irq-linux.log"
experiment linux
check linux_fails_when_lirq_does_not_finish has linux.status 1
check linux_still_compares_unfinished_irq has linux.out "compare irq hires=1200 linux=9600 ratio=0.125"

rm "$consoles/depth-d0.log" "$consoles/irq-linux.log"
experiment linux
check linux_without_depth_images_still_compares has linux.out "compare thd_switch hires=331 linux=1598 ratio=0.207"
check linux_skips_missing_hires_figure has linux.out "skipped: compare alias (no HiRES figure)"
check linux_skips_irq_without_its_guest has linux.out "skipped: compare irq (no Linux figure)"
check linux_passes_without_irq_guest has linux.status 0

# the report of this synthetic run: depth (quick, failed), depth-busy, preempt (quick), irq
# (quick), linux
# and micro ran; util was skipped; soak, servers and perf never ran.  Logs as eval/run.sh
# leaves them (E.out, E.exit), and one check line with markup in it, which the page must
# escape.
for e in micro depth depth-busy preempt irq util linux; do
	cp "$dir/$e.out" "$dir/logs/$e.out"
	cp "$dir/$e.status" "$dir/logs/$e.exit"
done
echo 'check micro <b>probe</b> & "quotes": ok' >>"$dir/logs/micro.out"
EVAL_OUT=$dir bash eval/report.sh >/dev/null 2>&1 || true
page=$dir/report.html
check report_is_strict_html python3 eval/htmlcheck.py "$page"
named() {
	local f
	for f in "$@"; do grep -q "<img src=\"$(basename "$f")\"" "$page" || return 1; done
}
check report_shows_every_figure_of_the_run named "$dir"/*-depth.png "$dir/depth.png" "$dir/compare.png" \
	"$dir"/*-depth-busy.png "$dir/depth-busy.png" "$dir"/*-preempt.png "$dir/preempt.png" "$dir/irq.png"
check report_says_not_run grep -q '<h2>soak: not run</h2>' "$page"
check report_says_skipped grep -q '<h2>util: skipped: image rtmix not in MANIFEST</h2>' "$page"
check report_says_failed grep -q '<h2>depth: FAILED (exit 1)</h2>' "$page"
check report_names_failed_check grep -q 'did not hold (2 of 2 checks FAIL; first: check event res=rt1 median' "$page"
check report_escapes_log_text grep -qF 'check micro &lt;b&gt;probe&lt;/b&gt; &amp; &quot;quotes&quot;: ok' "$page"
check report_names_commit_and_qemu grep -q '<th>commit</th>.*<th>QEMU</th>' <(tr -d '\n' <"$page")
# the checker must be able to fail: the page with one element left open
sed '0,/<\/table>/s///' "$page" >"$dir/unbalanced.html"
check htmlcheck_refuses_unclosed_element bash -c "! python3 eval/htmlcheck.py $dir/unbalanced.html"

# itrace (itrace.sh's counter) on a synthetic log in QEMU's format: two windows of one
# kind (a -> b -> a's end), one of another, and lines outside every window
gcc -O2 -Wall -Wextra -Werror -o "$dir/itrace" eval/itrace/itrace.c
printf '%s\n' "1000 T a" "1010 T b" "2000 T c" >"$dir/itrace.nm"
log() { for pc in "$@"; do echo "Trace 0: 0x7f0000 [0000000000000000/000000000000$pc/00000040/ff000000] "; done; }
{ log 0900 1000 1004 1010 1014 1008 2000 1000 1004 1010 1014 1008 1000 1008 0900; } |
	"$dir/itrace" 1000 4 1008 1 "$dir/itrace.nm" >"$dir/itrace.out"
check itrace_counts_windows has itrace.out "itrace: 3 windows, 2 kinds"
check itrace_groups_a_kind_most_frequent_first grep -qA3 "^kind 2 windows of 5 instructions from a$" "$dir/itrace.out"
check itrace_breaks_a_window_down_by_symbol bash -c "grep -A3 '^kind 2 windows' $dir/itrace.out | grep -qE '^  b +2$'"
check itrace_names_the_other_kind has itrace.out "kind 1 windows of 2 instructions from a"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
