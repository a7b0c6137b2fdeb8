#!/usr/bin/env bash
# Shows, without a GPU, whether a change to the kernel sources changes the machine code: every
# kernel of the tuned header (its CSRGAT_TUNED_KERNELS X-macro) plus any extra instantiations
# is compiled for sm_90 with nvcc -cubin from REV's tree and from the working tree,
# disassembled with nvdisasm, and compared instruction by instruction. A refactor whose SASS
# is byte-identical needs no new GPU measurement; one that is not needs an A/B on the GPU
# (v4's ilp-1 regression was such a change: see docs/perf-notes.md).
#
#   scripts/sass-diff.sh [--rev REV] [--header FILE] [--mask-params] [TPR,FL,RPB,VEC,TILES,EPL,ILP,MINB,SMEM,ONLINE,LPT,Index,Value[,SLICED] ...]
#
#   --rev REV      the reference tree (default HEAD)
#   --header FILE  the tuned header whose kernels to compare (default include/csrgat/tuned/sm_90.h)
#   --mask-params  compare with kernel-parameter offsets (c[0x0][0x210...]) masked: a change of
#                  KernelArgs' field order whose code is otherwise the same shows as "same"
#
# nvdisasm is not in this toolkit: when it is not on PATH, it is installed from PyPI
# (nvidia-cuda-nvdisasm) under .deps/nvdisasm (scripts/pip-dep.sh, as for setup-nvml.sh's nvml.h).
# Exit status: 0 identical, 1 some kernel differs, 2 usage or tool error.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rev=HEAD
header="$ROOT/include/csrgat/tuned/sm_90.h"
mask_params=0
extra=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --rev) rev="$2"; shift 2 ;;
    --header) header="$2"; shift 2 ;;
    --mask-params) mask_params=1; shift ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) extra+=("$1"); shift ;;
  esac
done

NVDISASM="$(command -v nvdisasm || true)"
if [ -z "$NVDISASM" ]; then
  source "$ROOT/scripts/pip-dep.sh"
  NVDISASM="$(pip_dep_file nvidia-cuda-nvdisasm "$ROOT/.deps/nvdisasm" nvdisasm)" || exit 2
  chmod +x "$NVDISASM"
fi
NVCC="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
[ -x "$NVCC" ] || { echo "sass-diff: nvcc not found" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/ref"
git -C "$ROOT" archive "$rev" variants | tar -x -C "$work/ref" ||
  { echo "sass-diff: cannot read variants/ at $rev" >&2; exit 2; }

# The header's kernels: X(name, TPR, ..., LPT, SLICED, Index, Value) -> the template's
# "TPR,...,LPT,Index,Value[,SLICED]" (SLICED, the last template argument, defaults to 0 and is
# left out then, so that trees from before it build the same kernel). Headers from before the
# SLICED column give the 13 arguments as they are.
mapfile -t kernels < <(grep -oE '^ *X\(k[0-9]+, [^)]*\)' "$header" | sed -E 's/^ *X\(k[0-9]+, //; s/\)$//; s/, /,/g' |
  awk -F, 'NF == 14 { s = $12; out = $1; for (i = 2; i <= 14; ++i) if (i != 12) out = out "," $i;
                      print (s == 0 ? out : out "," s); next } { print }')
kernels+=("${extra[@]}")
[ ${#kernels[@]} -gt 0 ] || { echo "sass-diff: no kernels in $header" >&2; exit 2; }

sass() {  # sass TREE ARGS OUT: the kernel's instructions, addresses and encodings dropped
  printf '#include "variants/csrgat_fused.cuh"\ntemplate __global__ void csrgat_fused<%s>(const csrgat::KernelArgs);\n' \
    "${2//,/, }" > "$work/k.cu"
  "$NVCC" -std=c++17 -arch=sm_90 -cubin -I"$1" -o "$work/k.cubin" "$work/k.cu" 2> "$work/nvcc.log" || {
    echo "sass-diff: csrgat_fused<$2> does not compile from $1 (template parameters changed" \
         "since $rev?):" >&2
    head -5 "$work/nvcc.log" >&2
    exit 2
  }
  "$NVDISASM" -c "$work/k.cubin" | grep -E '^\s+/\*[0-9a-f]{4,}\*/' |
    sed -E 's@/\*[0-9a-f]+\*/@@; s@/\* 0x[0-9a-f]+ \*/@@' |
    if [ "$mask_params" = 1 ]; then sed -E 's@c\[0x0\]\[0x(2[1-9a-f]|[3-9a-f][0-9a-f])[0-9a-f]\]@c[0x0][PARAM]@g'; else cat; fi > "$3"
}

# A reference tree from before the LPT template parameter (kernel v5b) takes the same
# kernel without it: drop the 11th of the 13 template arguments when it is 0.
ref_args() {
  if grep -q 'int LPT' "$work/ref/variants/csrgat_fused.cuh"; then echo "$1"; return; fi
  local IFS=,; local a=($1)
  if [ "${#a[@]}" = 13 ]; then
    [ "${a[10]}" = 0 ] || { echo "sass-diff: $1 has LPT=1, which $rev cannot build" >&2; exit 2; }
    echo "${a[*]:0:10},${a[*]:11}"
  else
    echo "$1"
  fi
}

status=0
for k in "${kernels[@]}"; do
  sass "$work/ref" "$(ref_args "$k")" "$work/a.s"
  sass "$ROOT" "$k" "$work/b.s"
  n="$(diff "$work/a.s" "$work/b.s" | grep -c '^[<>]' || true)"
  if [ "$n" = 0 ]; then
    printf 'same       %5d instructions  csrgat_fused<%s>\n' "$(wc -l < "$work/a.s")" "$k"
  else
    printf 'DIFFERENT  %5d -> %5d, %d lines differ  csrgat_fused<%s>\n' \
      "$(wc -l < "$work/a.s")" "$(wc -l < "$work/b.s")" "$n" "$k"
    status=1
  fi
done
exit $status
