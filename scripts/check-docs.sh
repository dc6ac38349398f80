#!/usr/bin/env bash
# Keeps the documentation a front page plus a guide (make test-docs, part of make test):
#   - README.md is at most 16,000 bytes;
#   - every relative markdown link in README.md and docs/*.md points to a file that exists
#     (and, with a #fragment into a .md file, to one of its headings);
#   - README.md gives the two commands, `make run` and `make test`, at the start of a line
#     (CI's .ci/run and newcomers rely on them);
#   - README.md, docs/*.md and tests/gpu/RESULTS*.md cite no design note (DESIGN.md) and no
#     internal issue number ("issue 12", "#15"); upstream issues read owner/repo#N.
# Usage: scripts/check-docs.sh [ROOT]      check ROOT (default: the repository)
#        scripts/check-docs.sh --self-test  show that each rule fails on a broken copy
set -uo pipefail

readonly max_readme_bytes=16000

# links FILE...: "file<TAB>line<TAB>target" for each inline link and reference
# definition outside fenced code blocks and inline code spans.
links() {
	awk '
	FNR == 1 { fence = 0 }
	/^[ \t]*(```|~~~)/ { fence = !fence; next }
	fence { next }
	{
		line = $0
		gsub(/`[^`]*`/, "", line)
		if (match(line, /^[ \t]*\[[^]]+\]:[ \t]+[^ \t]+/)) {
			t = substr(line, RSTART, RLENGTH)
			sub(/^[ \t]*\[[^]]+\]:[ \t]+/, "", t)
			print FILENAME "\t" FNR "\t" t
			next
		}
		while (match(line, /\]\([^)]*\)/)) {
			print FILENAME "\t" FNR "\t" substr(line, RSTART + 2, RLENGTH - 3)
			line = substr(line, RSTART + RLENGTH)
		}
	}' "$@"
}

# anchors FILE: the anchor of each heading outside fenced code, as GitHub makes them
# (lower case, spaces to hyphens, punctuation dropped, -1, -2 ... for repeats) but
# keeping only [a-z0-9_-]; fragments are compared in the same reduced form.
anchors() {
	awk '
	/^[ \t]*(```|~~~)/ { fence = !fence; next }
	fence || !/^#+ / { next }
	{
		h = tolower($0)
		sub(/^#+ +/, "", h); sub(/ +#+ *$/, "", h)
		gsub(/[^a-z0-9 _-]/, "", h); gsub(/ /, "-", h)
		print (seen[h]++ ? h "-" (seen[h] - 1) : h)
	}' "$1"
}

declare -A anchor_cache
# has_anchor FILE FRAGMENT: whether FILE has a heading with that anchor.
has_anchor() {
	local file=$1 frag
	frag=$(tr 'A-Z' 'a-z' <<<"$2" | tr -cd 'a-z0-9_-')
	[ -n "${anchor_cache[$file]+set}" ] || anchor_cache[$file]=$'\n'$(anchors "$file")$'\n'
	[[ ${anchor_cache[$file]} == *$'\n'"$frag"$'\n'* ]]
}

# check ROOT: prints one line per problem; returns 1 if there was any.
check() {
	local root=$1 bad=0 f n t path frag
	if [ ! -f "$root/README.md" ]; then
		echo "check-docs: $root/README.md is missing"
		return 1
	fi
	local bytes
	bytes=$(wc -c <"$root/README.md")
	if [ "$bytes" -gt "$max_readme_bytes" ]; then
		echo "check-docs: README.md is $bytes bytes, more than $max_readme_bytes: move detail into docs/"
		bad=1
	fi
	local c
	for c in "make run" "make test"; do
		if ! grep -qE "^$c( |\$)" "$root/README.md"; then
			echo "check-docs: README.md no longer gives '$c' at the start of a line"
			bad=1
		fi
	done

	links_checked=0
	local docs=("$root/README.md")
	for f in "$root"/docs/*.md; do [ -f "$f" ] && docs+=("$f"); done
	while IFS=$'\t' read -r f n t; do
		t=${t#<}; t=${t%>}; t=${t%% *}
		[ -z "$t" ] && continue
		[[ $t =~ ^[A-Za-z][A-Za-z0-9+.-]*: ]] && continue # https:, mailto:, ...
		links_checked=$((links_checked + 1))
		path=${t%%#*}; path=${path%%\?*}
		frag=; [[ $t == *\#* ]] && frag=${t#*#}
		if [ -z "$path" ]; then
			path=$f                                     # an anchor in the same page
		elif [[ $path == /* ]]; then
			path=$root$path
		else
			path=${f%/*}/$path
		fi
		if [ ! -e "$path" ]; then
			echo "check-docs: ${f#"$root"/}:$n: link to a missing file: $t"
			bad=1
		elif [ -n "$frag" ] && [[ $path == *.md ]] && ! has_anchor "$path" "$frag"; then
			echo "check-docs: ${f#"$root"/}:$n: link to a missing heading: $t"
			bad=1
		fi
	done < <(links "${docs[@]}")

	local cited=("${docs[@]}")
	for f in "$root"/tests/gpu/RESULTS*.md; do [ -f "$f" ] && cited+=("$f"); done
	local hits
	hits=$(grep -nHiE 'DESIGN\.md|\bissues? #?[0-9]+|(^|[^A-Za-z0-9_./-])#[0-9]+' "${cited[@]}")
	if [ -n "$hits" ]; then
		while IFS=: read -r f n t; do
			echo "check-docs: ${f#"$root"/}:$n: cites a design note or an issue number (say what it means; upstream: owner/repo#N): $t"
		done <<<"$hits"
		bad=1
	fi
	return $bad
}

# expect WANT NAME ROOT [PATTERN]: runs check on ROOT; WANT is pass or fail; a failure
# must print PATTERN.
expect() {
	local want=$1 name=$2 root=$3 pattern=${4:-} out rc
	out=$(check "$root"); rc=$?
	if [ "$want" = pass ] && [ $rc -eq 0 ]; then echo "ok   $name"; return 0; fi
	if [ "$want" = fail ] && [ $rc -ne 0 ] && grep -q -- "$pattern" <<<"$out"; then
		echo "ok   $name: $(head -n1 <<<"$out")"
		return 0
	fi
	echo "FAIL $name (wanted $want, rc=$rc): $out"
	return 1
}

self_test() {
	local tmp ok=0
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' RETURN
	good() { # a small tree that passes
		rm -rf "$tmp/r" && mkdir -p "$tmp/r/docs"
		cat >"$tmp/r/README.md" <<-'EOF'
		# project
		```sh
		make run    # the main job
		make test   # every test
		[not a link](inside-a-fence.md)
		```
		See [the guide](docs/a.md), [upstream](https://example.org/x.md), `[code](nope.md)`,
		an upstream bug DTolm/VkFFT#137, and [a section](#project).
		EOF
		printf '# a\nBack to [README](../README.md "title"), on to [b](b.md#part).\n[ref]: b.md\n' >"$tmp/r/docs/a.md"
		printf '# b\n## part\n## `Odd`: 256³ (x, y)\n## part\n' >"$tmp/r/docs/b.md"
		printf 'See [odd](b.md#odd-256-x-y), [the second part](b.md#part-1), [top](#a).\n' >>"$tmp/r/docs/a.md"
	}
	good; expect pass "a good tree passes" "$tmp/r" || ok=1
	good; head -c $((max_readme_bytes - $(wc -c <"$tmp/r/README.md"))) /dev/zero | tr '\0' x >>"$tmp/r/README.md"
	expect pass "README.md of exactly $max_readme_bytes bytes passes" "$tmp/r" || ok=1
	printf x >>"$tmp/r/README.md"
	expect fail "README.md one byte over" "$tmp/r" "more than $max_readme_bytes" || ok=1
	good; echo 'and [gone](missing.md)' >>"$tmp/r/docs/a.md"
	expect fail "a link to a missing file" "$tmp/r" "docs/a.md:5: link to a missing file: missing.md" || ok=1
	good; echo 'and [gone](b.md#no-such-part)' >>"$tmp/r/docs/a.md"
	expect fail "a link to a missing heading" "$tmp/r" "docs/a.md:5: link to a missing heading: b.md#no-such-part" || ok=1
	good; echo 'and [here](#nowhere)' >>"$tmp/r/README.md"
	expect fail "a link to a missing heading of the same page" "$tmp/r" "README.md:9: link to a missing heading: #nowhere" || ok=1
	good; sed -i 's/^make test .*//' "$tmp/r/README.md"
	expect fail "README.md without make test" "$tmp/r" "'make test'" || ok=1
	good; sed -i 's/^make run .*/  make run/' "$tmp/r/README.md"
	expect fail "README.md without make run at a line start" "$tmp/r" "'make run'" || ok=1
	good; echo 'as issue 12 says' >>"$tmp/r/docs/b.md"
	expect fail "an issue number" "$tmp/r" "docs/b.md:5: cites" || ok=1
	good; echo 'fixed in #15' >>"$tmp/r/README.md"
	expect fail "a bare #N" "$tmp/r" "README.md:.*cites" || ok=1
	good; echo 'see DESIGN.md' >>"$tmp/r/docs/b.md"
	expect fail "a design-note citation" "$tmp/r" "docs/b.md:5: cites" || ok=1
	[ $ok -eq 0 ] && echo "check-docs self-test: all passed"
	return $ok
}

if [ "${1:-}" = --self-test ]; then
	self_test
	exit
fi
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
if check "$root"; then
	echo "check-docs: README.md $(wc -c <"$root/README.md") bytes (max $max_readme_bytes), $links_checked relative links resolve, make run and make test given"
else
	exit 1
fi
