# Sourced by action/check.sh and action/changelog.sh: the baseline revision
# the action compares with, the same for both. Sets BASELINE (the revision,
# empty for the CLI's own default) and BASELINE_WHY (how it was chosen):
# `against`, else the pull request's base branch (origin/$GITHUB_BASE_REF),
# else the commit before a push, else the CLI's default (merge-base of HEAD
# with origin/HEAD, else main/master).
if [ -n "${MCP_CONTRACT_AGAINST:-}" ]; then
  BASELINE=$MCP_CONTRACT_AGAINST
  BASELINE_WHY="$MCP_CONTRACT_AGAINST (the against input)"
elif [ -n "${GITHUB_BASE_REF:-}" ]; then
  BASELINE=origin/$GITHUB_BASE_REF
  BASELINE_WHY="origin/$GITHUB_BASE_REF (the pull request's base branch)"
elif [ -n "${MCP_CONTRACT_PUSH_BEFORE:-}" ] && [ -n "${MCP_CONTRACT_PUSH_BEFORE//0/}" ]; then
  BASELINE=$MCP_CONTRACT_PUSH_BEFORE
  BASELINE_WHY="$MCP_CONTRACT_PUSH_BEFORE (the commit before the push)"
else
  BASELINE=
  BASELINE_WHY="the CLI's default (merge-base of HEAD with origin/HEAD, else main/master)"
fi
