#!/usr/bin/env bash
# Fails when an #include crosses a layer the wrong way (docs/architecture.md draws the layers):
# - server/: each folder is a layer and may include only itself and the layers below it (the table below), always
#   by the layer's folder ("store/store.hpp"); Boost.Beast only in net/.
# - engine/: the engine core (engine/src, engine/include) includes nothing from engine/games/.
# Usage: tests/tools/check-layers.sh [repository root]. Prints every offending include; exits 1 if there is one.
set -euo pipefail
cd "${1:-$(dirname "$0")/../..}"

# ---- server/: what each folder may include besides itself ("." is server/ itself: main.cpp wires every layer).
declare -A server_may_include=(
  [ratings]=""
  [common]=""
  [store]="common ratings"
  [cluster]="common store ratings"
  [records]="common store ratings"
  [analyses]="common store ratings records"
  [mail]="common store ratings"
  [push]="common store ratings"
  [people]="common store ratings mail push"
  [tables]="common store cluster ratings"
  [notify]="common store ratings mail push tables"
  [net]="common store cluster records analyses people tables ratings mail push"
  [.]="common store cluster records analyses people tables net ratings mail push notify"
)
# ---- engine/: folders of the engine core, and what none of their files may include.
declare -A engine_may_not_include=(
  [engine/src]="engine/games"
  [engine/include]="engine/games"
)
# Where an include resolves, in the order a consumer of the whole engine sees them: an include like
# "emporium/engine/registry.hpp" or "medici/medici.hpp" found under engine/games/ breaks the rule.
engine_include_dirs=(engine/include engine/games/include engine/games engine/src)

failures=0
fail() {
  echo "$1" >&2
  failures=$((failures + 1))
}

# Every include of `file`: "line:path" (quoted and angled includes alike).
includes_of() {
  grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"][^">]+[">]' "$1" |
    sed -E 's/^([0-9]+):[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]([^">]+)[">].*/\1:\2/' || true
}

while IFS= read -r file; do
  folder=$(dirname "${file#server/}")
  if [[ -z "${server_may_include[$folder]+set}" ]]; then
    fail "$file: server/$folder is not a layer (add it to tests/tools/check-layers.sh and docs/architecture.md)"
    continue
  fi
  allowed=" $folder ${server_may_include[$folder]} "
  while IFS= read -r found; do
    [[ -z "$found" ]] && continue
    line=${found%%:*}
    path=${found#*:}
    if [[ "$path" == boost/beast* || "$path" == net/beast.hpp ]] && [[ "$folder" != net ]]; then
      fail "$file:$line: Boost.Beast belongs to net/ ($path)"
    fi
    if [[ "$path" == */* ]]; then
      layer=${path%%/*}
      if [[ -n "${server_may_include[$layer]+set}" && "$layer" != . && "$allowed" != *" $layer "* ]]; then
        fail "$file:$line: server/$folder may not include server/$layer ($path)"
      fi
    elif [[ -f "server/$folder/$path" || -f "server/$path" ]]; then
      fail "$file:$line: include \"$path\" by its layer's folder (\"<layer>/$path\")"
    fi
  done < <(includes_of "$file")
done < <(find server -name '*.cpp' -o -name '*.hpp' | sort)

for folder in "${!engine_may_not_include[@]}"; do
  forbidden=${engine_may_not_include[$folder]}
  while IFS= read -r file; do
    while IFS= read -r found; do
      [[ -z "$found" ]] && continue
      line=${found%%:*}
      path=${found#*:}
      for dir in "$(dirname "$file")" "${engine_include_dirs[@]}"; do
        if [[ -f "$dir/$path" ]]; then
          [[ "$dir/$path" == "$forbidden"/* ]] && fail "$file:$line: $folder may not include $forbidden ($path)"
          break
        fi
      done
    done < <(includes_of "$file")
  done < <(find "$folder" -name '*.cpp' -o -name '*.hpp' | sort)
done

if ((failures > 0)); then
  echo "check-layers: $failures include(s) break the layers (docs/architecture.md)" >&2
  exit 1
fi
echo "check-layers: every include follows the layers"
