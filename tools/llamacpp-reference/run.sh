#!/bin/sh
# Regenerate tests/fixtures/llamacpp/*.json: llama.cpp's own memory figures for
# sparse GGUF files with the real tensor layout of current models.
#
# Reference: llama-cpp-python 0.3.36 from PyPI (its sdist vendors llama.cpp,
# ggml 0.25.3, commit 0c1e570). Built CPU-only with the RPC backend; nothing
# is computed, so -O0 is enough (llama-fit-params only sizes buffers).
#
# Usage: tools/llamacpp-reference/run.sh [WORK_DIR] [MODEL ...]
#   WORK_DIR (default /tmp/llamacpp-reference) is outside the repository and
#   receives the source, the build and the sparse GGUF files (no disk: holes).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
WORK=${1:-/tmp/llamacpp-reference}
[ $# -gt 0 ] && shift
mkdir -p "$WORK"
cd "$WORK"
if [ ! -d llama_cpp_python-0.3.36 ]; then
  pip download --no-deps --no-binary llama-cpp-python 'llama-cpp-python==0.3.36' -d .
  tar xzf llama_cpp_python-0.3.36.tar.gz
fi
SRC=$WORK/llama_cpp_python-0.3.36/vendor/llama.cpp
python3 "$HERE/patch_llamacpp.py" "$SRC"
cmake -S "$SRC" -B build -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_FLAGS_RELEASE="-O0 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELEASE="-O0 -DNDEBUG" \
  -DGGML_RPC=ON -DGGML_CUDA=OFF -DGGML_LLAMAFILE=OFF -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF \
  -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_SERVER=OFF
nice -n 10 ninja -C build -j2 llama-fit-params ggml-rpc-server llama-quantize
python3 "$HERE/run_reference.py" "$WORK/build" "$WORK/models" "$REPO/tests/fixtures/llamacpp" "$@"
