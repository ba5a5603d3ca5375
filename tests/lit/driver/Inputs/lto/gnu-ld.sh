# gnu-ld.sh DIVCC CLANG LINKER MODE: links main-MODE.o and lib-MODE.o (LTO
# bitcode) with -fuse-ld=LINKER and checks that divcc -fno-diversify gives
# clang-19's bytes, that two seeds differ, that the same seed gives the same
# bytes with 1 and 4 jobs, and that a variant runs as clang-19's build.
set -eu
divcc=$1 clang=$2 ld=$3 mode=$4
flto=-flto; [ "$mode" = thin ] && flto=-flto=thin
link="-O2 $flto -fuse-ld=$ld main-$mode.o lib-$mode.o"
$clang $link -o $ld-$mode-clang
$divcc $link -fno-diversify -o $ld-$mode-plain
cmp $ld-$mode-plain $ld-$mode-clang
$divcc $link -frandom-seed=A -flto-jobs=1 -o $ld-$mode-a1
$divcc $link -frandom-seed=A -flto-jobs=4 -o $ld-$mode-a4
$divcc $link -frandom-seed=B -o $ld-$mode-b
cmp $ld-$mode-a1 $ld-$mode-a4
if cmp -s $ld-$mode-a1 $ld-$mode-b; then
  echo "$ld $mode: seeds A and B give the same bytes" >&2; exit 1
fi
if cmp -s $ld-$mode-a1 $ld-$mode-clang; then
  echo "$ld $mode: the variant is clang-19's build" >&2; exit 1
fi
./$ld-$mode-clang > expected.out
./$ld-$mode-a1 > variant.out
cmp expected.out variant.out
