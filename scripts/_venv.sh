# Sourced by the scripts in this folder: makes sure .venv exists and holds this checkout's package
# with its test dependencies, re-installing only when pyproject.toml changed. Sets $PY.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$repo/.venv"

find_python() {
  for candidate in python3.13 python3.12 python3.11 python3 python; do
    if command -v "$candidate" >/dev/null 2>&1 &&
       "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
      echo "$candidate"; return 0
    fi
  done
  echo "p2pgames needs Python 3.11 or newer; none was found on PATH." >&2
  return 1
}

if [ ! -x "$venv/bin/python" ]; then
  base_python="$(find_python)"
  echo "Creating the virtual environment in .venv (once) ..." >&2
  "$base_python" -m venv "$venv"
fi
PY="$venv/bin/python"

stamp="$venv/.p2pgames-installed"
wanted="$(cat "$repo/pyproject.toml" | "$PY" -c 'import hashlib,sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())')"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$wanted" ]; then
  echo "Installing p2pgames and its dependencies into .venv ..." >&2
  "$PY" -m pip install --quiet --disable-pip-version-check --editable "$repo[test]" >&2
  echo "$wanted" > "$stamp"
fi
export PY
