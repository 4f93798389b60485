#!/usr/bin/env bash
# Step 1 of the GitHub Action (action.yml): put the pinned cargo-mcp-contract
# release on the runner. Kept in a script so this repository's CI runs it
# (.ci/action-check).
#
# Environment:
#   MCP_CONTRACT_VERSION      the release to install, e.g. 0.1.0 (required)
#   MCP_CONTRACT_INSTALL_DIR  where it goes (actions/cache keeps it between runs)
#   MCP_CONTRACT_CLI          a cargo-mcp-contract binary already on the runner:
#                             used instead of downloading (the action's
#                             `cli-path` input; CI points it at the binary
#                             `cargo test` built, since CI cannot download)
#   MCP_CONTRACT_RELEASES     where releases are downloaded from (default: this
#                             repository's GitHub Releases)
#
# The release is installed with the shell installer dist publishes beside
# the archives (it checks the archive's sha256). Whatever the source, the
# binary must report exactly the requested version, or this fails: a cache
# or a path can never stand in for another version. Writes `cli=PATH` to
# $GITHUB_OUTPUT and the binary's directory to $GITHUB_PATH (so later steps
# can run `cargo mcp-contract` too). Exit status 2 with the cause and the fix
# when it cannot install.
set -euo pipefail

fail() {
  echo "::error title=mcp-contract: install failed::$1" >&2
  exit 2
}

version=${MCP_CONTRACT_VERSION:-}
[ -n "$version" ] || fail "no version given: set the action's \`version\` input (a release of cargo-mcp-contract, e.g. 0.1.0)"
releases=${MCP_CONTRACT_RELEASES:-https://github.com/mcp-contract/mcp-contract/releases/download}

if [ -n "${MCP_CONTRACT_CLI:-}" ]; then
  cli=$MCP_CONTRACT_CLI
  { [ -f "$cli" ] && [ -x "$cli" ]; } || fail "cli-path \`$cli\` is not an executable file: give the path of a cargo-mcp-contract binary, or leave cli-path empty to install release v$version"
  case $cli in /*) ;; *) cli=$PWD/$cli ;; esac
  from="the binary given as cli-path"
else
  dir=${MCP_CONTRACT_INSTALL_DIR:-}
  [ -n "$dir" ] || fail "MCP_CONTRACT_INSTALL_DIR is not set (action.yml sets it; set it when running this script by hand)"
  cli=$dir/cargo-mcp-contract
  if [ -x "$cli" ]; then
    from="cached in $dir"
  else
    case "$(uname -s)" in
      Linux | Darwin) ;;
      *) fail "the action installs the CLI on Linux and macOS runners, not on $(uname -s): install it with the PowerShell installer of release v$version and pass its path as cli-path" ;;
    esac
    command -v curl >/dev/null || fail "curl is needed to download release v$version: install it on the runner, or pass a cargo-mcp-contract binary as cli-path"
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    url=$releases/v$version/cargo-mcp-contract-installer.sh
    curl --proto '=https' --tlsv1.2 -fLsS --retry 3 "$url" -o "$work/installer.sh" ||
      fail "cannot download $url: is v$version a release of cargo-mcp-contract? (the \`version\` input)"
    mkdir -p "$dir"
    CARGO_MCP_CONTRACT_UNMANAGED_INSTALL=$dir CARGO_MCP_CONTRACT_PRINT_QUIET=1 sh "$work/installer.sh" ||
      fail "the installer of release v$version failed (its message is above)"
    [ -x "$cli" ] || fail "the installer of release v$version put no cargo-mcp-contract in $dir"
    from="installed from release v$version"
  fi
fi

reported=$("$cli" --version 2>&1) || fail "\`$cli --version\` failed: $reported"
[ "$reported" = "cargo mcp-contract $version" ] ||
  fail "$cli ($from) reports \`$reported\`, not version $version: set the \`version\` input to the version you mean (or give a cli-path of that version)"
echo "cargo-mcp-contract $version: $cli ($from)"

if [ -n "${GITHUB_OUTPUT:-}" ]; then
  echo "cli=$cli" >>"$GITHUB_OUTPUT"
fi
if [ -n "${GITHUB_PATH:-}" ]; then
  dirname "$cli" >>"$GITHUB_PATH"
fi
