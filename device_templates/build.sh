#!/usr/bin/env bash
# Build the aclshmem device template library into LLVM bitcode with CANN's
# bisheng compiler: four variants (aic, aiv, mix_aic, mix_aiv) per chip, in
#   <out>/<chip>/<variant>/<source>.bc   (+ libaclshmem_templates.bc if llvm-link is found)
#
# Usage: build.sh [--chip CHIP]... [--variant V]... [--out DIR] [--shmem-home DIR]
#
# bisheng is looked up as $BISHENG, then on PATH, then under $ASCEND_HOME_PATH
# and $ASCEND_TOOLKIT_HOME.  Without it the script says so and exits 2; it
# never reports success without having compiled every file.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DEFAULT_CHIPS=(Ascend910B1 Ascend910_9382)   # Atlas A2 and A3 (both dav-c220)
ALL_VARIANTS=(aic aiv mix_aic mix_aiv)

usage() {
  cat <<EOF
Usage: $(basename "$0") [options]

Compiles device_templates/src/*.cpp with CANN's bisheng into LLVM bitcode.

  --chip CHIP       target chip (repeatable or comma-separated); default: ${DEFAULT_CHIPS[*]}
                    Ascend910B*, Ascend910_93* -> dav-c220; Ascend910D*, Ascend950* -> dav-c310
  --variant V       aic, aiv, mix_aic or mix_aiv (repeatable); default: all four
  --out DIR         output folder (default: $HERE/build)
  --shmem-home DIR  checkout or install of CANN SHMEM (hicann/shmem, has include/shmem.h);
                    default: \$ACLSHMEM_HOME.  Without it the bitcode calls the aclshmem
                    device API as external functions.
  -h, --help        this text

Environment: BISHENG (path of bisheng), ASCEND_HOME_PATH / ASCEND_TOOLKIT_HOME (CANN).
EOF
}

die() { echo "build.sh: error: $*" >&2; exit 2; }

chips=()
variants=()
out="$HERE/build"
shmem_home="${ACLSHMEM_HOME:-}"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --chip) [[ $# -ge 2 ]] || die "--chip needs a value"; IFS=, read -ra more <<<"$2"; chips+=("${more[@]}"); shift 2 ;;
    --chip=*) IFS=, read -ra more <<<"${1#*=}"; chips+=("${more[@]}"); shift ;;
    --variant) [[ $# -ge 2 ]] || die "--variant needs a value"; variants+=("$2"); shift 2 ;;
    --variant=*) variants+=("${1#*=}"); shift ;;
    --out) [[ $# -ge 2 ]] || die "--out needs a value"; out="$2"; shift 2 ;;
    --out=*) out="${1#*=}"; shift ;;
    --shmem-home) [[ $# -ge 2 ]] || die "--shmem-home needs a value"; shmem_home="$2"; shift 2 ;;
    --shmem-home=*) shmem_home="${1#*=}"; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument: $1" ;;
  esac
done
[[ ${#chips[@]} -gt 0 ]] || chips=("${DEFAULT_CHIPS[@]}")
[[ ${#variants[@]} -gt 0 ]] || variants=("${ALL_VARIANTS[@]}")

# Chip -> core architecture generation (the dav-<gen>-cube / dav-<gen>-vec pair).
chip_generation() {
  case "$1" in
    Ascend910B*|Ascend910_93*) echo c220 ;;
    Ascend910D*|Ascend950*) echo c310 ;;
    *) return 1 ;;
  esac
}

for chip in "${chips[@]}"; do
  chip_generation "$chip" >/dev/null ||
    die "unsupported chip '$chip': aclshmem needs an Atlas A2/A3 (Ascend910B*, Ascend910_93*) or A5 (Ascend910D*, Ascend950*) chip"
done
for variant in "${variants[@]}"; do
  case "$variant" in aic|aiv|mix_aic|mix_aiv) ;; *) die "unknown variant '$variant' (aic, aiv, mix_aic, mix_aiv)" ;; esac
done

find_bisheng() {
  if [[ -n "${BISHENG:-}" ]]; then
    [[ -x "$BISHENG" ]] && { echo "$BISHENG"; return 0; }
    return 1
  fi
  if command -v bisheng >/dev/null 2>&1; then command -v bisheng; return 0; fi
  local home
  for home in "${ASCEND_HOME_PATH:-}" "${ASCEND_TOOLKIT_HOME:-}"; do
    [[ -n "$home" ]] || continue
    for candidate in "$home/compiler/ccec_compiler/bin/bisheng" "$home/bin/bisheng"; do
      [[ -x "$candidate" ]] && { echo "$candidate"; return 0; }
    done
  done
  return 1
}

if ! BISHENG_BIN="$(find_bisheng)"; then
  cat >&2 <<EOF
build.sh: error: CANN's bisheng compiler was not found; nothing was built.

The device template library can only be compiled by bisheng, the CCE compiler of
Huawei's CANN toolkit (it is not on PyPI and not part of this repository).
Looked for: \$BISHENG (${BISHENG:-unset}), 'bisheng' on PATH,
  \$ASCEND_HOME_PATH (${ASCEND_HOME_PATH:-unset}) and \$ASCEND_TOOLKIT_HOME (${ASCEND_TOOLKIT_HOME:-unset})
  under compiler/ccec_compiler/bin/ and bin/.
To get it: install the CANN toolkit (Ascend-cann-toolkit, from Huawei's Ascend site,
hiascend.com), then run
  source /usr/local/Ascend/ascend-toolkit/set_env.sh
which sets ASCEND_HOME_PATH and puts bisheng on PATH; or set BISHENG=/path/to/bisheng.
EOF
  exit 2
fi

# Flags follow AscendNPU-IR's template-library build (bishengir/lib/Template/
# CMakeLists.txt, compile_shmem_to_bc):
#   -x cce --cce-aicore-only      device code only, no host stub
#   -emit-llvm -c                 LLVM bitcode, linked in by bishengir-compile
#   --cce-auto-sync=off           no automatic pipe synchronisation inside the templates
#   --cce-generic-addrspace=off   keep __gm__ pointers in their own address space
#   -O2 -mllvm -disable-llvm-optzns   O2 code (no optnone) but LLVM passes left to the
#                                 final link, after the wrappers are inlined into the kernel
#   -cce-enable-mix -mllvm -enable-mix=true   for the mix_aic / mix_aiv variants, whose
#                                 code runs in a mixed cube+vector kernel
#   --cce-aicore-arch=dav-<gen>-cube for aic/mix_aic, dav-<gen>-vec for aiv/mix_aiv
COMMON_FLAGS=(-x cce -std=c++17 -O2 -emit-llvm -c --cce-aicore-only --cce-auto-sync=off
              --cce-generic-addrspace=off -mllvm -disable-llvm-optzns -I "$HERE/include")

INCLUDE_FLAGS=()
if [[ -n "$shmem_home" ]]; then
  # SHMEM's umbrella header is include/shmem.h in every tagged release (it was
  # aclshmem.h until December 2025).
  [[ -f "$shmem_home/include/shmem.h" ]] ||
    die "--shmem-home '$shmem_home' has no include/shmem.h (CANN SHMEM, hicann/shmem)"
  INCLUDE_FLAGS+=(-DTTD_USE_ACLSHMEM_HEADERS -I "$shmem_home/include")
  [[ -d "$shmem_home/src/device" ]] && INCLUDE_FLAGS+=(-I "$shmem_home/src/device")
  # kernel_operator.h (AscendC), which the aclshmem device headers include.
  cann="${ASCEND_HOME_PATH:-${ASCEND_TOOLKIT_HOME:-}}"
  if [[ -n "$cann" ]]; then
    for dir in "$cann/$(uname -m)-linux/include" "$cann/compiler/tikcpp/tikcfw" \
               "$cann/compiler/tikcpp/tikcfw/impl" "$cann/compiler/tikcpp/tikcfw/interface"; do
      [[ -d "$dir" ]] && INCLUDE_FLAGS+=(-I "$dir")
    done
  fi
else
  echo "build.sh: note: no --shmem-home/ACLSHMEM_HOME: the bitcode calls the aclshmem device" \
       "API as external functions, which the final link must provide." >&2
fi

LLVM_LINK="$(dirname "$BISHENG_BIN")/llvm-link"
[[ -x "$LLVM_LINK" ]] || LLVM_LINK=""

shopt -s nullglob
sources=("$HERE"/src/*.cpp)
[[ ${#sources[@]} -gt 0 ]] || die "no sources in $HERE/src"

echo "bisheng: $BISHENG_BIN"
for chip in "${chips[@]}"; do
  gen="$(chip_generation "$chip")"
  for variant in "${variants[@]}"; do
    flags=("${COMMON_FLAGS[@]}")
    case "$variant" in
      aic) flags+=(--cce-aicore-arch="dav-$gen-cube") ;;
      aiv) flags+=(--cce-aicore-arch="dav-$gen-vec") ;;
      mix_aic) flags+=(--cce-aicore-arch="dav-$gen-cube" -cce-enable-mix -mllvm -enable-mix=true) ;;
      mix_aiv) flags+=(--cce-aicore-arch="dav-$gen-vec" -cce-enable-mix -mllvm -enable-mix=true) ;;
    esac
    dest="$out/$chip/$variant"
    mkdir -p "$dest"
    outputs=()
    for src in "${sources[@]}"; do
      bc="$dest/$(basename "${src%.cpp}").bc"
      rm -f "$bc"
      cmd=("$BISHENG_BIN" "${flags[@]}" "${INCLUDE_FLAGS[@]}" "$src" -o "$bc")
      echo "+ ${cmd[*]}"
      "${cmd[@]}" || die "bisheng failed on $src ($chip, $variant)"
      [[ -s "$bc" ]] || die "bisheng reported success but wrote no $bc"
      outputs+=("$bc")
    done
    if [[ -n "$LLVM_LINK" ]]; then
      echo "+ $LLVM_LINK ${outputs[*]} -o $dest/libaclshmem_templates.bc"
      "$LLVM_LINK" "${outputs[@]}" -o "$dest/libaclshmem_templates.bc" ||
        die "llvm-link failed ($chip, $variant)"
    fi
  done
done
[[ -n "$LLVM_LINK" ]] || echo "build.sh: note: no llvm-link next to bisheng; left one .bc per source" >&2
echo "built ${#variants[@]} variant(s) x ${#chips[@]} chip(s) into $out"
