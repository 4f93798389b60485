#!/usr/bin/env bash
# Step 3 of the GitHub Action (action.yml), when the `changelog` input is
# "true": what changed for the people who call the server, between the
# baseline and this revision (`cargo mcp-contract changelog --format
# markdown`: the same findings the check made, sorted for callers), written
# to a file and, on a pull request, posted as one comment that later runs
# edit in place (found by its first line, a hidden marker).
#
# Environment:
#   MCP_CONTRACT_CLI       the cargo-mcp-contract binary (default: on PATH)
#   MCP_CONTRACT_LOCKFILE  `lockfile`: the lockfile (default: every workspace
#                          package's with ./Cargo.toml, else
#                          contracts/mcp-contract.lock)
#   MCP_CONTRACT_AGAINST, GITHUB_BASE_REF, MCP_CONTRACT_PUSH_BEFORE
#                          the baseline, as for the check (action/baseline.sh)
#   MCP_CONTRACT_CHANGELOG_FILE  where to write the Markdown
#   MCP_CONTRACT_PR        the pull request's number (empty: not a pull
#                          request; the changelog is only written)
#   GITHUB_REPOSITORY, GH_TOKEN  for `gh api` (the token needs
#                          `pull-requests: write`)
#
# Exit status: 0 when the changelog was written (and posted, on a pull
# request); 2 when it could not be (the CLI's message, or gh's, is shown).
# Writes changelog-file and changelog-comment (created, updated or none) to
# $GITHUB_OUTPUT.
set -euo pipefail

fail() {
  echo "::error title=mcp-contract changelog::$1" >&2
  exit 2
}
MARKER='<!-- mcp-contract changelog -->'
cli=${MCP_CONTRACT_CLI:-cargo-mcp-contract}
file=${MCP_CONTRACT_CHANGELOG_FILE:?MCP_CONTRACT_CHANGELOG_FILE must name the file to write}

opts=()
if [ -n "${MCP_CONTRACT_LOCKFILE:-}" ]; then
  opts+=(--lockfile "$MCP_CONTRACT_LOCKFILE")
elif [ -f Cargo.toml ]; then
  opts+=(--workspace)
elif [ -f contracts/mcp-contract.lock ]; then
  opts+=(--lockfile contracts/mcp-contract.lock)
fi
# shellcheck source=action/baseline.sh
. "$(dirname "${BASH_SOURCE[0]}")/baseline.sh"
[ -z "$BASELINE" ] || opts+=(--from "$BASELINE")

echo "mcp-contract: the changelog for callers since $BASELINE_WHY"
{
  echo "$MARKER"
  "$cli" changelog "${opts[@]}" --format markdown
} >"$file" || fail "\`cargo mcp-contract changelog\` failed (its message is above)"

comment=none
if [ -n "${MCP_CONTRACT_PR:-}" ]; then
  command -v gh >/dev/null || fail "gh (the GitHub CLI) is not on PATH: it posts the changelog; GitHub's hosted runners have it"
  repo=${GITHUB_REPOSITORY:?GITHUB_REPOSITORY is not set}
  # the comment an earlier run posted, by its marker
  id=$(gh api --paginate "repos/$repo/issues/$MCP_CONTRACT_PR/comments" \
    --jq ".[] | select(.body | startswith(\"$MARKER\")) | .id" | head -n 1) ||
    fail "cannot list the comments of pull request #$MCP_CONTRACT_PR (the token needs pull-requests: write)"
  if [ -n "$id" ]; then
    gh api -X PATCH "repos/$repo/issues/comments/$id" -F "body=@$file" >/dev/null ||
      fail "cannot update comment $id on pull request #$MCP_CONTRACT_PR"
    comment=updated
  else
    gh api -X POST "repos/$repo/issues/$MCP_CONTRACT_PR/comments" -F "body=@$file" >/dev/null ||
      fail "cannot comment on pull request #$MCP_CONTRACT_PR (the token needs pull-requests: write)"
    comment=created
  fi
  echo "mcp-contract: changelog comment $comment on #$MCP_CONTRACT_PR"
fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  {
    echo "changelog-file=$file"
    echo "changelog-comment=$comment"
  } >>"$GITHUB_OUTPUT"
fi
