#!/bin/bash
# columns.sh FILE... - comment lines wider than 100 columns (tabs at 8), which clang-format
# leaves alone (.clang-format: ReflowComments false, so that comments keep their shape):
# `make check` runs this beside clang-format.  Exit status 1 if any.
bad=0
for f in "$@"; do
	expand -t8 "$f" | awk -v f="$f" '
		length > 100 && /^[ \t]*(\/\*|\*|\/\/)|\/\*.*\*\/[ \t]*$/ {
			printf "%s:%d: %d columns, the limit is 100\n", f, FNR, length; bad = 1
		}
		END { exit bad }' || bad=1
done
exit $bad
