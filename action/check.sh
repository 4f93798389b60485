#!/usr/bin/env bash
# Step 2 of the GitHub Action (action.yml): run the contract gate in the
# current directory, annotated for GitHub and as SARIF. Kept in a script so
# this repository's CI runs it on a Rust workspace and on a server in another
# language (.ci/action-check).
#
# Environment (each from the action input of the same meaning):
#   MCP_CONTRACT_CLI       the cargo-mcp-contract binary (default: on PATH)
#   MCP_CONTRACT_SERVER    `server`: the command that starts the server over
#                          stdio, split into words as a shell would (quotes,
#                          backslashes) but never run through a shell
#   MCP_CONTRACT_CONFIG    `config`: an MCP client configuration (.mcp.json)...
#   MCP_CONTRACT_NAME      `name`: ...and the server's name in it
#   MCP_CONTRACT_LOCKFILE  `lockfile`: the lockfile to gate (its
#                          migrations.toml sits beside it)
#   MCP_CONTRACT_AGAINST   `against`: the baseline revision
#   MCP_CONTRACT_ARGS      `args`: more `check` options, split like `server`
#   MCP_CONTRACT_REQUIRE_VERSION_BUMP  `require-version-bump`: "true" adds
#                          --require-version-bump (the declared version must
#                          carry the bump the change requires)
#   MCP_CONTRACT_SARIF     where to write the SARIF report (empty: none)
#   MCP_CONTRACT_SERVED    `served`: "false" leaves out the served == gated
#                          probe of a Rust workspace (default: on)
#   MCP_CONTRACT_PUSH_BEFORE  the commit before a push (action.yml passes
#                          github.event.before on push events)
#
# What is checked, first match wins:
#   server or config set      the live surface of that server, against the
#                             lockfile's history (`check --server`)
#   lockfile set              that lockfile as written (`check --lockfile`)
#   ./Cargo.toml              every package of the cargo workspace that has a
#                             contracts/mcp-contract.lock (`check --workspace`)
#   ./contracts/mcp-contract.lock   that lockfile as written: a server in
#                             another language, even inside a cargo repository
#   a Cargo.toml above        the workspace it belongs to (`--workspace`)
#   none of them              exit 2, saying what to set
# The baseline (action/baseline.sh): `against`, else the pull request's
# base branch (origin/$GITHUB_BASE_REF), else the commit before a push, else
# the CLI's own default (merge-base with origin/HEAD).
#
# Exit status: the check's own (0 passed, 1 an unacknowledged breaking
# change, 2 it could not check). The SARIF report is a second run of the
# same check; when the two runs end differently, that is said and the exit
# status is 2. Writes exit-code, mode and (when written) sarif-file to
# $GITHUB_OUTPUT.
set -euo pipefail

fail() {
  echo "::error title=mcp-contract::$1" >&2
  [ -z "${GITHUB_OUTPUT:-}" ] || echo "exit-code=2" >>"$GITHUB_OUTPUT"
  exit 2
}

# mapfile -d: bash 4.4 or later (macOS's /bin/bash is 3.2)
if [ "${BASH_VERSINFO[0]}" -lt 4 ] || { [ "${BASH_VERSINFO[0]}" -eq 4 ] && [ "${BASH_VERSINFO[1]}" -lt 4 ]; }; then
  fail "bash $BASH_VERSION is too old: the action needs bash 4.4 or later on PATH (macOS: brew install bash)"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Splits $1 into words the way a shell would, without running anything
# (xargs's quoting: '...', "...", backslash), into the array WORDS.
split_words() {
  WORDS=()
  if [ -z "${1//[[:space:]]/}" ]; then
    return 0
  fi
  printf '%s' "$1" | xargs printf '%s\0' >"$work/words" 2>"$work/words.err" ||
    fail "cannot split \`$1\` into words ($2): $(cat "$work/words.err"); quote with '...' or \"...\""
  mapfile -d '' WORDS <"$work/words"
}

cli=${MCP_CONTRACT_CLI:-cargo-mcp-contract}
command -v "$cli" >/dev/null ||
  fail "\`$cli\` not found: run the action's install step first, or install it (cargo binstall cargo-mcp-contract)"

split_words "${MCP_CONTRACT_SERVER:-}" "the server input"
server=("${WORDS[@]}")
split_words "${MCP_CONTRACT_ARGS:-}" "the args input"
extra=("${WORDS[@]}")
config=${MCP_CONTRACT_CONFIG:-}
name=${MCP_CONTRACT_NAME:-}
lockfile=${MCP_CONTRACT_LOCKFILE:-}

opts=()
tail=()
if [ "${#server[@]}" -gt 0 ] && [ -n "$config" ]; then
  fail "both server and config are set: give one (server: the command; config and name: the server in an MCP client configuration)"
elif [ "${#server[@]}" -gt 0 ]; then
  mode=live-server
  why="the live surface of \`${MCP_CONTRACT_SERVER}\`"
  opts=(--server)
  tail=(-- "${server[@]}")
elif [ -n "$config" ]; then
  [ -n "$name" ] || fail "config is set without name: give the server's name in $config (its key under mcpServers)"
  mode=live-config
  why="the live surface of server \`$name\` in $config"
  opts=(--config "$config" --name "$name")
elif [ -n "$lockfile" ]; then
  mode=lockfile
  why="$lockfile as written"
elif [ -f Cargo.toml ]; then
  mode=workspace
  why="every package of the cargo workspace with a contracts/mcp-contract.lock"
elif [ -f contracts/mcp-contract.lock ]; then
  mode=lockfile
  lockfile=contracts/mcp-contract.lock
  why="contracts/mcp-contract.lock as written (no Cargo.toml here)"
else
  dir=$PWD
  while [ "$dir" != / ] && [ ! -f "$dir/Cargo.toml" ]; do dir=$(dirname "$dir"); done
  [ -f "$dir/Cargo.toml" ] || fail "nothing to check in $PWD: no Cargo.toml at or above it and no contracts/mcp-contract.lock in it. For a server in another language set \`server\` (the command that starts it) or \`config\` and \`name\`, or \`lockfile\`; or set working-directory to the directory that holds contracts/"
  mode=workspace
  why="every package of the cargo workspace at $dir with a contracts/mcp-contract.lock"
fi
if [ -n "$lockfile" ]; then
  opts+=(--lockfile "$lockfile")
elif [ "$mode" = workspace ]; then
  opts+=(--workspace)
  # served == gated: each build-step package's binaries are built and
  # asked what they publish (check --served)
  case "${MCP_CONTRACT_SERVED:-true}" in
    true) opts+=(--served) ;;
    false) ;;
    *) fail "served is \`${MCP_CONTRACT_SERVED}\`: give \"true\" or \"false\"" ;;
  esac
fi

# shellcheck source=action/baseline.sh
. "$(dirname "${BASH_SOURCE[0]}")/baseline.sh"
[ -z "$BASELINE" ] || opts+=(--against "$BASELINE")
base_why=$BASELINE_WHY
if [ "${MCP_CONTRACT_REQUIRE_VERSION_BUMP:-false}" = true ]; then
  opts+=(--require-version-bump)
  why="$why; the declared version must carry the change"
elif [ "${MCP_CONTRACT_REQUIRE_VERSION_BUMP:-false}" != false ]; then
  fail "require-version-bump is \`$MCP_CONTRACT_REQUIRE_VERSION_BUMP\`: give \"true\" or \"false\""
fi
opts+=("${extra[@]}")

echo "mcp-contract: checking $why in $PWD, against $base_why"

sarif=${MCP_CONTRACT_SARIF:-}
sarif_status=
if [ -n "$sarif" ]; then
  set +e
  "$cli" check "${opts[@]}" --format sarif "${tail[@]}" >"$sarif" 2>"$work/sarif.err"
  sarif_status=$?
  set -e
fi
set +e
"$cli" check "${opts[@]}" --format github "${tail[@]}"
status=$?
set -e

if [ -n "$sarif_status" ] && [ "$sarif_status" != "$status" ]; then
  cat "$work/sarif.err" >&2
  echo "::error title=mcp-contract::the SARIF run of the check exited $sarif_status, the annotated run $status: the two runs disagree (a server whose surface changes from one start to the next?); its messages are above" >&2
  status=2
fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  {
    echo "exit-code=$status"
    echo "mode=$mode"
    if [ -n "$sarif" ] && [ -s "$sarif" ]; then echo "sarif-file=$sarif"; fi
  } >>"$GITHUB_OUTPUT"
fi
exit "$status"
