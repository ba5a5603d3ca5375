#!/usr/bin/env bash
# Installs what is needed, builds divcc, and builds the bundled example as
# two variants: both behave the same, their code differs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${DIVCC_BUILD_DIR:-$root/build}
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
src="$root/examples/hello/hello.c"

# Two secret seeds, as files a distributor would keep; never printed.
head -c 32 /dev/urandom >"$out/seed-a"
head -c 32 /dev/urandom >"$out/seed-b"
for v in a b; do
  "$build/divcc" -O2 -fdiversify -fdiversify-seed-file="$out/seed-$v" "$src" -o "$out/hello-$v"
done

echo "== variant a =="; "$out/hello-a" | tee "$out/out-a"
echo "== variant b =="; "$out/hello-b" | tee "$out/out-b"
if cmp -s "$out/out-a" "$out/out-b"; then
  echo "same behaviour: yes (identical output)"
else
  echo "same behaviour: NO -- outputs differ" >&2; exit 1
fi
objcopy -O binary --only-section=.text "$out/hello-a" "$out/text-a"
objcopy -O binary --only-section=.text "$out/hello-b" "$out/text-b"
size_a=$(stat -c %s "$out/text-a"); size_b=$(stat -c %s "$out/text-b")
differing=$(cmp -l "$out/text-a" "$out/text-b" 2>/dev/null | wc -l || true)
echo ".text: variant a $size_a bytes, variant b $size_b bytes, $differing byte positions differ"
if cmp -s "$out/text-a" "$out/text-b"; then
  echo "code differs: NO" >&2; exit 1
fi
echo "code differs: yes"
echo "== where main starts =="
for v in a b; do
  printf '%s: ' "$v"; nm "$out/hello-$v" | awk '$3 == "main" { print "main at 0x" $1 }'
done
