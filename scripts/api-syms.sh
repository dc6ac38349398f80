#!/usr/bin/env bash
# scripts/api-syms.sh — the C symbols libvkfftgo.so exports, against api/vkfftgo.sym.
#   api-syms.sh check LIB BACKEND         fail, listing the differences, unless LIB exports
#                                         exactly the symbols vkfftgo.sym lists for BACKEND
#   api-syms.sh update BACKEND=LIB ...    rewrite vkfftgo.sym from one library per backend
# vkfftgo.sym has one symbol a line; a second word names the only backend that has it.
# Run by tests/capi/run.sh (opencl) and mk/capi-gpu.mk (cuda); make api updates it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
list=${VKFFTGO_SYMS:-$root/api/vkfftgo.sym}
exported() { nm -D --defined-only "$1" | awk '$2 ~ /^[TDRBV]$/ {print $3}' | sort -u; }
expected() { grep -v '^#' "$list" | awk -v b="$1" 'NF == 1 || $2 == b {print $1}' | sort -u; }
case ${1:-} in
check)
	lib=${2:?usage: api-syms.sh check LIB BACKEND} backend=${3:?usage: api-syms.sh check LIB BACKEND}
	[ -f "$list" ] || { echo "api-syms: no $list (make api)" >&2; exit 1; }
	added=$(comm -23 <(exported "$lib") <(expected "$backend"))
	removed=$(comm -13 <(exported "$lib") <(expected "$backend"))
	if [ -n "$added$removed" ]; then
		[ -z "$added" ] || printf 'exported but not in api/vkfftgo.sym (if deliberate: make api):\n%s\n' "$added" >&2
		[ -z "$removed" ] || printf 'in api/vkfftgo.sym but not exported (removed or renamed?):\n%s\n' "$removed" >&2
		exit 1
	fi
	echo "   $(exported "$lib" | wc -l) symbols, as api/vkfftgo.sym lists for $backend" ;;
update)
	shift
	[ $# -gt 0 ] || { echo "usage: api-syms.sh update BACKEND=LIB ..." >&2; exit 2; }
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	for a in "$@"; do exported "${a#*=}" >"$tmp/${a%%=*}"; done
	n=$#
	{
		echo "# The C symbols libvkfftgo.so exports (scripts/api-syms.sh; regenerate with make api)."
		echo "# A second word names the only backend whose library has the symbol."
		cat "$tmp"/* | sort | uniq -c | while read -r count sym; do
			if [ "$count" = "$n" ]; then echo "$sym"; else
				for a in "$@"; do grep -qx "$sym" "$tmp/${a%%=*}" && echo "$sym ${a%%=*}"; done
			fi
		done
	} >"$list"
	echo "api-syms: $list ($(grep -vc '^#' "$list") lines from $*)" ;;
*) echo "usage: api-syms.sh check LIB BACKEND | update BACKEND=LIB ..." >&2; exit 2 ;;
esac
