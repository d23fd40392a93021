#!/bin/sh
# t-manhelp.sh: each tool's --help (made from its option table) and its hand-written man page
# say the same options: the same long names, short letters and argument names, and the same
# range and default where either gives one ("(1..64, default 3)" ends an option's text in
# --help; its man paragraph holds the same words). The comparison is shown to fail on doctored
# copies: a man page that lost an option, a --help that gained one, a changed default. Across
# the tools, an option of the same name has the same letter and argument, and --repeat and
# --timeout the same range and default; internal options stay out of --help and the pages.
. "$top_srcdir/tests/tap.sh"
T=$(mktemp -d "${TMPDIR:-/tmp}/rt-t-manhelp.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

# The trailer of an option's text: "(RANGE)", "(RANGE, default D)" or "(default D)".
trailer_awk='
function trailer(text,    t) {
	if (match(text, /\([0-9][0-9.]*\.\.[A-Za-z0-9.]+(, default [^)]*)?\)/) ||
	    match(text, /\(default [^):][^)]*\)/))
		t = substr(text, RSTART + 1, RLENGTH - 2)
	else
		t = ""
	if (t ~ /^[0-9]/) {
		r = t; sub(/,.*/, "", r)
		d = t; if (!sub(/^[^,]*, default /, "", d)) d = ""
	} else if (t != "") {
		r = ""; d = t; sub(/^default /, "", d)
	} else {
		r = ""; d = ""
	}
}
function tag(s,    long, letter, arg) {
	gsub(/ /, "", s)
	letter = ""
	if (s ~ /^-[A-Za-z],/) { letter = substr(s, 2, 1); s = substr(s, 4) }
	long = s; sub(/=.*/, "", long)
	arg = ""; if (s ~ /=/) { arg = s; sub(/^[^=]*=/, "", arg) }
	gsub(/\|/, " or ", arg)        # NAME|FILE: "|" separates the fields here
	return long "|" letter "|" arg
}
function flush() {
	if (cur != "") { trailer(text); print cur "|" r "|" d }
	cur = ""; text = ""
}'

# help_options: --help on stdin, one line per option: --long|letter|ARG|RANGE|DEFAULT
help_options() {
	awk "$trailer_awk"'
	/^  (-[A-Za-z], |    )--[a-z]/ {
		flush()
		t = substr($0, 1, 25); rest = substr($0, 26)
		if (length($0) <= 25 || substr($0, 25, 1) != " ") { t = $0; rest = "" }
		cur = tag(t); text = rest; next
	}
	/^                         / && cur != "" { s = $0; sub(/^ +/, "", s); text = text " " s; next }
	{ flush() }
	END { flush() }' | sort
}

# man_options PAGE: the OPTIONS section of a man page, the same lines
man_options() {
	awk "$trailer_awk"'
	/^\.SH/ { flush(); in_opts = ($0 ~ /^\.SH OPTIONS/); next }
	!in_opts { next }
	{ s = $0; gsub(/\\f[BIRP]/, "", s); gsub(/\\-/, "-", s); gsub(/\\&/, "", s); gsub(/"/, "", s) }
	/^\.TP/ { flush(); want_tag = 1; next }
	/^\.(SS|PP|IP|P|LP)( |$)/ { flush(); next }
	want_tag { want_tag = 0; sub(/^\.[A-Z]+ /, "", s); if (s ~ /^-/) cur = tag(s); next }
	cur != "" { sub(/^\.[A-Z]+ /, "", s); text = text " " s }
	END { flush() }' "$1" | sort
}

# compare HELP MAN: the two lists the same (the differences on stdout)
compare() {
	diff "$1" "$2" >"$T/diff" && return 0
	sed 's/^/#   /' "$T/diff" | grep '^#   [<>]'
	return 1
}

for tool in probe train plot run; do
	"$top_builddir/src/roofline-$tool" --help | help_options >"$T/$tool.help"
	man_options "$top_srcdir/man/roofline-$tool.1" >"$T/$tool.man"
	n=$((n + 1))
	nh=$(wc -l <"$T/$tool.help")
	if [ "$nh" -ge 3 ] && compare "$T/$tool.help" "$T/$tool.man" >"$T/said"; then
		echo "ok $n - roofline-$tool: --help and roofline-$tool.1 give the same $nh options"
	else
		echo "not ok $n - roofline-$tool: --help ($nh options) and roofline-$tool.1 differ (<: --help, >: man)"
		cat "$T/said"
	fi
done

# the comparison can fail: a man page that lost an option's paragraph, a --help that gained an
# option, a default changed on one side
page="$top_srcdir/man/roofline-run.1"
awk 'BEGIN { skip = 0 } /^\.TP/ { getline nx; if (nx ~ /no\\-overhead/) { skip = 1; next }
     skip = 0; print; print nx; next } /^\.(SH|TP)/ { skip = 0 } !skip' "$page" >"$T/lost.1"
man_options "$T/lost.1" >"$T/lost.man"
compare "$T/run.help" "$T/lost.man" >"$T/said"
check "a man page that lost --no-overhead is found, and the option named" \
	grep -qx -- '#   < --no-overhead||||' "$T/said"
{ "$top_builddir/src/roofline-run" --help; printf '%s\n' '      --extra=N          a new option (1..9)'; } |
	help_options >"$T/gained.help"
compare "$T/gained.help" "$T/run.man" >"$T/said"
check "a --help that gained --extra is found, with its argument and range" \
	grep -qx -- '#   < --extra||N|1..9|' "$T/said"
sed 's/(1\.\.64, default 3)/(1..64, default 4)/' "$page" >"$T/default.1"
man_options "$T/default.1" >"$T/default.man"
compare "$T/run.help" "$T/default.man" >"$T/said"
check "a man page whose --repeat default differs is found" \
	grep -qx -- '#   > --repeat|r|N|1..64|4' "$T/said"
check "... against the help's own range and default" grep -qx -- '--repeat|r|N|1..64|3' "$T/run.help"
check "the undoctored pages differ from none of these copies by accident" \
	sh -c "! diff -q '$T/run.man' '$T/lost.man' >/dev/null && ! diff -q '$T/run.man' '$T/default.man' >/dev/null"

# across the tools: one letter and one argument per long name; one range and default for
# --repeat and --timeout
for tool in probe train plot run; do sed "s/^/$tool|/" "$T/$tool.help"; done >"$T/all"
bad=$(awk -F'|' '{ k = $2; v = $3 "|" $4
	if (k in seen && seen[k] != v) print k ": " who[k] " " seen[k] ", " $1 " " v
	seen[k] = v; who[k] = $1 }' "$T/all")
n=$((n + 1))
if [ -z "$bad" ]; then
	echo "ok $n - an option of the same name has the same letter and argument in every tool"
else
	echo "not ok $n - letters or arguments differ: $bad"
fi
for o in --repeat --timeout; do
	n=$((n + 1))
	v=$(awk -F'|' -v o="$o" '$2 == o { print $5 "|" $6 }' "$T/all" | sort -u)
	c=$(awk -F'|' -v o="$o" '$2 == o' "$T/all" | wc -l)
	if [ "$c" = 2 ] && [ "$(echo "$v" | wc -l)" = 1 ] && [ -n "$v" ]; then
		echo "ok $n - $o: one range and default in roofline-train and roofline-run ($v)"
	else
		echo "not ok $n - $o: in $c tools, ranges and defaults: $(echo $v)"
	fi
done
check "--timeout: 0..604800, default 3600" grep -qx -- 'train|--timeout||SECONDS|0..604800|3600' "$T/all"
check "-p, --profile FILE in every tool that reads a profile" \
	sh -c "[ \$(grep -c -- '|--profile|p|FILE|' '$T/all') = 3 ]"
check "-t, --threads LIST wherever threads are given" \
	sh -c "[ \$(grep -c -- '|--threads|t|LIST|' '$T/all') = 2 ]"
check "-o, --out DIR in the tools that write a results directory" \
	sh -c "[ \$(grep -c -- '|--out|o|DIR|' '$T/all') = 2 ]"
check "roofline-train's precision has no short letter" grep -qx -- 'train|--precision||P||fp32' "$T/all"

# doc/options.md's table of the options: what this --help says, row for row (regenerate it with
# RT_OPTIONS_TABLE=1, which prints it)
options_table() {
	awk -F'|' '
	BEGIN { order["probe"] = 1; order["train"] = 2; order["run"] = 3; order["plot"] = 4 }
	{ k = $2 "|" $3 "|" $4 "|" $5 "|" $6
	  if (!(k in tools)) { keys[++nk] = k; tools[k] = "" }
	  tools[k] = tools[k] (tools[k] == "" ? "" : ", ") $1 }
	END {
		for (i = 1; i <= nk; i++) {
			split(keys[i], f, "|")
			opt = (f[2] != "" ? "-" f[2] ", " : "    ") f[1]
			arg = f[3] (f[4] != "" ? " " f[4] : "")
			def = f[5] == "" ? "-" : f[5]
			line = sprintf("  %-21s %-23s %-18s", opt, tools[keys[i]], arg)
			nw = split(def, w, " "); col = length(line)
			for (j = 1; j <= nw; j++) {
				if (col + 1 + length(w[j]) > 100 && col > 66) {
					print line; line = sprintf("%66s", ""); col = 66
				}
				line = line " " w[j]; col += 1 + length(w[j])
			}
			print line
		}
	}'
}
for tool in probe train run plot; do sed "s/^/$tool|/" "$T/$tool.help"; done |
	sort -t'|' -k2,2 -s >"$T/bytool"
options_table <"$T/bytool" >"$T/table"
[ -n "$RT_OPTIONS_TABLE" ] && cat "$T/table" >&2
sed -n '/^  option  /,/^$/p' "$top_srcdir/doc/options.md" | sed '1d;$d' >"$T/readme-table"
n=$((n + 1))
if [ -s "$T/table" ] && diff "$T/table" "$T/readme-table" >"$T/said"; then
	echo "ok $n - doc/options.md's table of options is what the four --help say ($(wc -l <"$T/table") lines)"
else
	echo "not ok $n - doc/options.md's table of options differs from --help (<: --help, >: doc/options.md)"
	sed 's/^/#   /' "$T/said" | grep '^#   [<>]'
fi

# internal options: accepted, not in --help nor in the man page's OPTIONS
check "--emit-points is not in roofline-train --help" sh -c "! grep -q emit-points '$T/train.help'"
check "--emit-points is not in roofline-train.1's OPTIONS" sh -c "! grep -q emit-points '$T/train.man'"
printf '%s\n' 'child = {' '  model = "lenet5"; counters = "none";' \
	'  batch = 2; iterations = 1; warmup = 0; repeat = 1;' '};' >"$T/child.cfg"
check "--emit-points FILE is still accepted" \
	sh -c "'$top_builddir/src/roofline-train' --emit-points '$T/child.cfg' | grep -q '^child,'"

echo "1..$n"
